/**
 * `npm run users -- <command>`: who may use this Hearth (lib/services/auth/users-command.ts).
 * Run it with the server's DATA_DIR (and DATABASE_URL, where it keeps its libraries on
 * PostgreSQL); it works while the server runs.
 */
import { openLibrary } from '../db/open';
import type { Store } from '../db/store';
import { MAIN_LIBRARY, People } from '../lib/services/auth/people';
import { usersCommand } from '../lib/services/auth/users-command';
import { isConfigError, parseConfig } from '../lib/shared/config';
import { readPassword } from './read-password';

let store: Store;
try {
  store = await openLibrary(parseConfig(process.env), MAIN_LIBRARY);
} catch (err) {
  console.error(isConfigError(err) ? err.message : String(err));
  process.exit(1);
}
process.exitCode = await usersCommand(process.argv.slice(2), {
  people: new People(store),
  readPassword,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
await store.close();
