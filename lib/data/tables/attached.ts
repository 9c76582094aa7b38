import fs from 'node:fs';
import path from 'node:path';
import type { FileKind, FileStore } from '@/lib/data/file-store';
import { buildTable, tableFormat, type TableMeta } from './tables';

/**
 * An attached file's table, kept beside it in the file store (its SQLite file and what it
 * holds): read once, when the file is uploaded, or the first time a turn needs it (a file
 * imported from a library, or attached before tables were read). A file that is not a table
 * is remembered as such, so it is not read again at every turn.
 */

export type AttachedTableFile = { sha256: string; name: string; mime: string; kind: FileKind };
type Kept = TableMeta | { notATable: string };

const under = new Map<string, Promise<TableMeta | null>>();

/** What is kept for the file: its table, that it is none, or nothing yet. */
function kept(files: FileStore, sha256: string): Kept | undefined {
  try {
    return JSON.parse(fs.readFileSync(files.tablePaths(sha256).meta, 'utf8')) as Kept;
  } catch {
    return undefined;
  }
}

/**
 * The file's table, reading it first when that has not been done; null when the file is no
 * table (or its bytes are gone). An upload reads it from where it arrived (`source`) before the
 * file is kept, and a spreadsheet's text goes to `textOut`: then a file that is no table throws
 * with the reason, so the upload is refused.
 */
export function ensureTable(
  files: FileStore,
  file: AttachedTableFile,
  upload?: { source: string; textOut?: string },
): Promise<TableMeta | null> {
  const format = tableFormat(file.name, file.mime);
  if (!format || (format !== 'csv' && file.kind !== 'sheet')) return Promise.resolve(null);
  const known = kept(files, file.sha256);
  if (known && 'notATable' in known && !upload?.textOut) return Promise.resolve(null);
  if (known && 'tables' in known && fs.existsSync(files.tablePaths(file.sha256).db)) return Promise.resolve(known);
  if (!upload && !files.has(file.sha256)) return Promise.resolve(null);
  const running = under.get(file.sha256);
  if (running) return running;
  const job = (async () => {
    const { db, meta } = files.tablePaths(file.sha256);
    const tmp = files.tempPath('table-');
    const textOut = upload?.textOut;
    try {
      const table = await buildTable({ source: upload?.source ?? files.pathOf(file.sha256), format, name: file.name, db: tmp, textOut });
      fs.mkdirSync(path.dirname(db), { recursive: true });
      fs.renameSync(tmp, db);
      fs.writeFileSync(meta, JSON.stringify(table));
      return table;
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      // A spreadsheet that cannot be read is refused, and nothing of it kept.
      if (textOut) throw err;
      fs.mkdirSync(path.dirname(meta), { recursive: true });
      fs.writeFileSync(meta, JSON.stringify({ notATable: (err as Error).message }));
      return null;
    } finally {
      under.delete(file.sha256);
    }
  })();
  under.set(file.sha256, job);
  return job;
}
