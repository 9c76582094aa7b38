/**
 * `npm run db:copy -- --from <DATA_DIR, its hearth.db, or postgres://…> --to <postgres://… or an empty DATA_DIR>`:
 * moves a whole installation between SQLite and PostgreSQL (db/pg/copy.ts). Stop Hearth first:
 * what it writes during the copy would not be in it. The attached files stay in DATA_DIR/files.
 */
import { parseArgs } from 'node:util';
import { copyInstallation, placeOf } from '../db/pg/copy';

const usage = 'usage: npm run db:copy -- --from <DATA_DIR | DATA_DIR/hearth.db | postgres://…> --to <postgres://… | empty DATA_DIR>';
let from: string | undefined;
let to: string | undefined;
try {
  ({
    values: { from, to },
  } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true }));
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
if (!from || !to) {
  console.error(usage);
  process.exit(2);
}
try {
  const started = Date.now();
  const copied = await copyInstallation(placeOf(from), placeOf(to), (line) => console.log(line));
  console.log(
    `copied ${copied.length} ${copied.length === 1 ? 'library' : 'libraries'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (err) {
  console.error(`db:copy: ${(err as Error).message}`);
  process.exit(1);
}
