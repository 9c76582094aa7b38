import Database from 'better-sqlite3';
import fs from 'node:fs';

/**
 * A consistent copy of a live database with SQLite's online backup API. Hearth may keep
 * writing meanwhile: the copy is taken in one step, under a read transaction, which in WAL
 * mode never blocks Hearth's writers (a copy made page by page would restart every time
 * another connection wrote, and a busy Hearth writes on every streamed token).
 */
export async function backupDatabase(source: string, destination: string): Promise<{ pages: number; bytes: number }> {
  if (!fs.existsSync(source)) throw new Error(`There is no database at ${source}.`);
  if (fs.existsSync(destination)) throw new Error(`${destination} already exists; a backup never overwrites a file.`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(destination, { progress: () => 0x7fffffff });
    return { pages: totalPages, bytes: fs.statSync(destination).size };
  } finally {
    db.close();
  }
}

/** SQLite's own check of a database file: "ok", or the first problems it found. */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}
