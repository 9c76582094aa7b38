/**
 * `npm run hash-password`: reads a password (typed without echo, or piped on stdin) and prints
 * the HEARTH_PASSWORD_HASH line to put in the environment instead of the password itself.
 */
import { hashPassword } from '../lib/services/auth/password';

async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) text += chunk;
    return text.replace(/\r?\n$/, '');
  }
  process.stderr.write('Password (not shown): ');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  let typed = '';
  return new Promise((resolve) => {
    stdin.on('data', (key: string) => {
      for (const ch of key) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          process.stderr.write('\n');
          resolve(typed);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        if (ch === '\u007f') typed = typed.slice(0, -1);
        else typed += ch;
      }
    });
  });
}

const password = await readPassword();
if (password.length < 8) {
  console.error('A password must be at least 8 characters.');
  process.exit(1);
}
console.log(`HEARTH_PASSWORD_HASH='${hashPassword(password)}'`);
