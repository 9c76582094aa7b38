import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A temporary folder that is removed when the process exits, passed or failed, so a test run
 * leaves nothing behind in the temp directory. Removal happens at exit rather than after
 * each test because an open SQLite handle may still point into the folder until then.
 */
const made: string[] = [];
let hooked = false;

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  made.push(dir);
  if (!hooked) {
    hooked = true;
    process.once('exit', removeTempDirs);
  }
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
