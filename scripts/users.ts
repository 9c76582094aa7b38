/**
 * `npm run users -- <command>`: who may use this Hearth (lib/services/auth/users-command.ts).
 * Run it with the server's DATA_DIR; it works while the server runs.
 */
import path from 'node:path';
import { openDatabase } from '../db/client';
import { createStore } from '../db/store';
import { People } from '../lib/services/auth/people';
import { usersCommand } from '../lib/services/auth/users-command';
import { isConfigError, parseConfig } from '../lib/shared/config';
import { readPassword } from './read-password';

let dataDir: string;
try {
  dataDir = path.resolve(parseConfig(process.env).DATA_DIR);
} catch (err) {
  console.error(isConfigError(err) ? err.message : String(err));
  process.exit(1);
}
const store = createStore(openDatabase(path.join(dataDir, 'hearth.db')));
process.exitCode = await usersCommand(process.argv.slice(2), {
  people: new People(store),
  readPassword,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
store.db.$client.close();
