import { getTableColumns, is, SQL, StringChunk, type Column } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../schema';

/**
 * The PostgreSQL schema (db/schema.pg.ts), written from the one definition of Hearth's tables,
 * db/schema.ts: the same tables, columns, keys and indexes, in PostgreSQL's types. drizzle has no
 * schema shared by two dialects, so the second is derived, never written by hand, and a test
 * (generate-schema.test.ts) fails when the committed file is not what db/schema.ts makes now.
 *
 * Types: SQLite's 64-bit integers are bigint (times are epoch milliseconds, past 32 bits), read
 * as JavaScript numbers; booleans are boolean; JSON columns are json (its text kept as written,
 * so a library file says the same from either engine); blobs are bytea. An AUTOINCREMENT key is
 * an identity column that still takes a given value (a library copied over keeps its ids). The
 * TypeScript types of enum and JSON columns are taken from the SQLite tables themselves.
 */

type Out = { imports: Set<string>; lines: string[] };

/** The SQLite tables of db/schema.ts by their exported name, in the file's order (a table is referred to after it is made). */
function sqliteTables(): [string, SQLiteTable][] {
  return Object.entries(schema).flatMap(([key, value]): [string, SQLiteTable][] => (is(value, SQLiteTable) ? [[key, value]] : []));
}

/** The text of an index's WHERE, which db/schema.ts writes as plain SQL with no parameters. */
function whereText(where: SQL, table: string): string {
  return where.queryChunks
    .map((chunk) => {
      if (is(chunk, StringChunk)) return chunk.value.join('');
      throw new Error(`${table}: an index's WHERE may only be plain SQL text to be carried over to PostgreSQL`);
    })
    .join('');
}

const literal = (value: unknown) => JSON.stringify(value);

function columnSource(out: Out, tableKey: string, key: string, column: Column, references: string | undefined): string {
  const name = literal(column.name);
  const autoIncrement = (column as unknown as { autoIncrement?: boolean }).autoIncrement === true;
  let source: string;
  switch (column.columnType) {
    case 'SQLiteText':
      out.imports.add('text');
      source = `text(${name})`;
      if (column.enumValues) source += `.$type<Row<'${tableKey}'>['${key}']>()`;
      break;
    case 'SQLiteTextJson':
      out.imports.add('json');
      source = `json(${name}).$type<Row<'${tableKey}'>['${key}']>()`;
      break;
    case 'SQLiteInteger':
    case 'SQLiteTimestamp':
      out.imports.add('bigint');
      source = `bigint(${name}, { mode: 'number' })`;
      break;
    case 'SQLiteBoolean':
      out.imports.add('boolean');
      source = `boolean(${name})`;
      break;
    case 'SQLiteReal':
      out.imports.add('doublePrecision');
      source = `doublePrecision(${name})`;
      break;
    case 'SQLiteBlobBuffer':
      source = `bytea(${name})`;
      break;
    default:
      throw new Error(`${tableKey}.${key}: no PostgreSQL type for ${column.columnType}`);
  }
  if (column.primary) source += '.primaryKey()';
  if (autoIncrement) source += '.generatedByDefaultAsIdentity()';
  if (column.notNull && !column.primary) source += '.notNull()';
  if (column.hasDefault && !column.primary) {
    if (is(column.default, SQL)) throw new Error(`${tableKey}.${key}: a default in SQL is not carried over`);
    source += `.default(${literal(column.default)})`;
  }
  if (column.isUnique) source += `.unique(${literal(column.uniqueName)})`;
  if (references) source += references;
  return `    ${key}: ${source},`;
}

function tableSource(out: Out, tableKey: string, table: SQLiteTable, keyOf: Map<SQLiteTable, string>): void {
  const config = getTableConfig(table);
  const columns = getTableColumns(table);
  const keyOfColumn = new Map(Object.entries(columns).map(([key, column]) => [column, key]));
  const references = new Map<Column, string>();
  for (const fk of config.foreignKeys) {
    const { columns: from, foreignColumns, foreignTable } = fk.reference();
    if (from.length !== 1) throw new Error(`${tableKey}: a foreign key of several columns is not carried over`);
    const target = keyOf.get(foreignTable as SQLiteTable);
    const targetColumn = Object.entries(getTableColumns(foreignTable)).find(([, c]) => c === foreignColumns[0])?.[0];
    const action = fk.onDelete && fk.onDelete !== 'no action' ? `, { onDelete: ${literal(fk.onDelete)} }` : '';
    references.set(from[0], `.references((): AnyPgColumn => ${target}.${targetColumn}${action})`);
  }
  out.lines.push(`export const ${tableKey} = pgTable(`, `  ${literal(config.name)},`, '  {');
  for (const [key, column] of Object.entries(columns)) out.lines.push(columnSource(out, tableKey, key, column, references.get(column)));
  const extras: string[] = [];
  for (const pk of config.primaryKeys) {
    out.imports.add('primaryKey');
    extras.push(`primaryKey({ columns: [${pk.columns.map((c) => `t.${keyOfColumn.get(c)}`).join(', ')}] })`);
  }
  for (const { config: index } of config.indexes) {
    const builder = index.unique ? 'uniqueIndex' : 'index';
    out.imports.add(builder);
    const on = index.columns.map((c) => {
      const key = keyOfColumn.get(c as Column);
      if (!key) throw new Error(`${tableKey}.${index.name}: an index on an expression is not carried over`);
      return `t.${key}`;
    });
    let source = `${builder}(${literal(index.name)}).on(${on.join(', ')})`;
    if (index.where) {
      out.imports.add('sql');
      source += `.where(sql\`${whereText(index.where, tableKey)}\`)`;
    }
    extras.push(source);
  }
  if (config.uniqueConstraints.length > 0 || config.checks.length > 0)
    throw new Error(`${tableKey}: table-level unique or check constraints are not carried over`);
  out.lines.push(extras.length > 0 ? `  },\n  (t) => [${extras.join(', ')}],\n);\n` : '  },\n);\n');
}

/** The source of db/schema.pg.ts, before formatting. */
export function pgSchemaSource(): string {
  const tables = sqliteTables();
  const keyOf = new Map(tables.map(([key, table]) => [table, key]));
  const out: Out = { imports: new Set(['pgTable', 'customType', 'type AnyPgColumn']), lines: [] };
  for (const [key, table] of tables) tableSource(out, key, table, keyOf);
  const pgCore = [...out.imports].filter((i) => i !== 'sql').sort((a, b) => a.replace('type ', '').localeCompare(b.replace('type ', '')));
  return [
    '// Written by `npm run db:pg-schema` from db/schema.ts (the one definition of the tables): do not edit.',
    '// db/pg/generate-schema.ts says how each SQLite type is carried over.',
    ...(out.imports.has('sql') ? ["import { sql } from 'drizzle-orm';"] : []),
    `import { ${pgCore.join(', ')} } from 'drizzle-orm/pg-core';`,
    "import type * as sqlite from './schema';",
    '',
    '/** A row of the SQLite table: the TypeScript types of enum and JSON columns come from there. */',
    'type Row<T extends keyof typeof sqlite> = (typeof sqlite)[T] extends { $inferSelect: infer R } ? R : never;',
    '',
    '/** Bytes (a vector): Buffer both ways, as better-sqlite3 gives a blob. */',
    "const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });",
    '',
    ...out.lines,
  ].join('\n');
}

/** db/schema.pg.ts as it should be now: the source, formatted as the repository formats files. */
export async function pgSchemaFile(file: string): Promise<string> {
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(file);
  return prettier.format(pgSchemaSource(), { ...options, filepath: file });
}
