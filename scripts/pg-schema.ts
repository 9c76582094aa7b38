/**
 * `npm run db:pg-schema`: writes db/schema.pg.ts, PostgreSQL's tables, from db/schema.ts (the
 * one definition). `npm run db:generate` runs it between the two dialects' migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pgSchemaFile } from '../db/pg/generate-schema';

const file = path.join(process.cwd(), 'db/schema.pg.ts');
fs.writeFileSync(file, await pgSchemaFile(file));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
