/**
 * `npm run hash-password`: reads a password (typed without echo, or piped on stdin) and prints
 * the HEARTH_PASSWORD_HASH line to put in the environment instead of the password itself.
 */
import { hashPassword } from '../lib/services/auth/password';
import { readPassword } from './read-password';

const password = await readPassword();
if (password.length < 8) {
  console.error('A password must be at least 8 characters.');
  process.exit(1);
}
console.log(`HEARTH_PASSWORD_HASH='${hashPassword(password)}'`);
