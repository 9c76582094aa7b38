/**
 * `npm run backup [-- <folder>]`: a consistent copy of Hearth's data while it runs.
 * Writes <folder> (by default ./backups/hearth-<date>-<time>) holding hearth.db and each person's
 * library in people/, taken with SQLite's online backup and checked with PRAGMA integrity_check, files/, the attached
 * files (stored by content hash, never changed once written, so a plain copy is consistent),
 * and everything else in DATA_DIR a restore needs: mcp.json (the tool servers) above all.
 * To restore, stop Hearth and make that folder its DATA_DIR (docs/library.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { backupDatabase, integrityCheck } from '../db/backup';
import { FileStore } from '../lib/data/file-store';
import { copyTheRest, peopleLibraries } from '../lib/services/backup';
import { isConfigError, parseConfig } from '../lib/shared/config';

let dataDir: string;
let mcpConfig: string | undefined;
try {
  const config = parseConfig(process.env);
  if (config.DATABASE_URL) {
    // The libraries are not files here: PostgreSQL's own tools copy them consistently while Hearth runs.
    console.error(
      'This Hearth keeps its libraries on PostgreSQL (DATABASE_URL): back the database up with pg_dump, and copy DATA_DIR (the attached files, mcp.json) beside it. See docs/postgresql.md.',
    );
    process.exit(1);
  }
  dataDir = path.resolve(config.DATA_DIR);
  mcpConfig = config.HEARTH_MCP_CONFIG;
} catch (err) {
  console.error(isConfigError(err) ? err.message : String(err));
  process.exit(1);
}

const stamp = new Date().toISOString().replace(/[:]/g, '').replace(/\..*$/, '').replace('T', '-');
const out = path.resolve(process.argv[2] ?? path.join('backups', `hearth-${stamp}`));
if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
  console.error(`${out} is not empty; choose a new folder.`);
  process.exit(1);
}
fs.mkdirSync(out, { recursive: true });

const started = Date.now();
let dbBytes = 0;
// The main database, and each person's library after the first person's.
for (const file of ['hearth.db', ...peopleLibraries(dataDir)]) {
  fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
  dbBytes += (await backupDatabase(path.join(dataDir, file), path.join(out, file))).bytes;
  const integrity = integrityCheck(path.join(out, file));
  if (integrity !== 'ok') {
    console.error(`The copy of ${file} failed SQLite's integrity check (${integrity}); it is left at ${out} for inspection.`);
    process.exit(1);
  }
}
const libraries = peopleLibraries(dataDir).length;

// Files after the database: every file the copied database names was written before it named it.
const { files, bytes: fileBytes } = FileStore.of(dataDir).copyInto(FileStore.of(out));
const { copied } = copyTheRest(dataDir, out, mcpConfig);
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
console.log(
  `Backed up ${dataDir} to ${out}: database${libraries ? ` and ${libraries} more ${libraries === 1 ? 'library' : 'libraries'}` : ''} ${mb(dbBytes)} MB (integrity ok), ${files} attached file${files === 1 ? '' : 's'} (${mb(fileBytes)} MB)${copied.length ? `, ${copied.join(', ')}` : ''}, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
);
