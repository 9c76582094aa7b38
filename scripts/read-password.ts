/** A password read without echo from the terminal, or piped on stdin (its last newline dropped). */
export async function readPassword(): Promise<string> {
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
