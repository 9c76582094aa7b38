import fs from 'node:fs';
import path from 'node:path';

/**
 * What `npm run backup` copies besides the database and the attached files: everything else in
 * DATA_DIR a restore needs (mcp.json with the tool servers, and whatever else is kept there),
 * and the tool servers' file when HEARTH_MCP_CONFIG keeps it elsewhere. The database and its
 * WAL are copied by SQLite's backup (each person's library in people/ too), and files/ by the file
 * store, so they are left out here.
 */

/** Copied otherwise (the databases by SQLite's online backup, files/ by FileStore.copyInto), or never needed. */
const COPIED_OTHERWISE = new Set(['hearth.db', 'hearth.db-wal', 'hearth.db-shm', 'hearth.db-journal', 'files', 'people']);

/** The libraries of everyone after the first person (DATA_DIR/people/<id>.db), relative to DATA_DIR: each is backed up as the main database is. */
export function peopleLibraries(dataDir: string): string[] {
  const folder = path.join(dataDir, 'people');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.db'))
    .map((f) => path.join('people', f));
}

export function copyTheRest(dataDir: string, out: string, mcpConfig?: string): { copied: string[] } {
  const copied: string[] = [];
  const inside = (p: string, folder: string) => !path.relative(folder, p).startsWith('..') && !path.isAbsolute(path.relative(folder, p));
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const from = path.join(dataDir, entry.name);
    // The backup itself, when it is written inside DATA_DIR, is not copied into itself.
    if (COPIED_OTHERWISE.has(entry.name) || inside(out, from) || inside(from, out)) continue;
    if (!entry.isFile() && !entry.isDirectory()) continue;
    fs.cpSync(from, path.join(out, entry.name), { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    copied.push(entry.isDirectory() ? `${entry.name}/` : entry.name);
  }
  // Tool servers kept outside DATA_DIR: copied in as mcp.json, where a restored Hearth looks by default.
  if (mcpConfig && fs.existsSync(mcpConfig) && !inside(path.resolve(mcpConfig), dataDir) && !fs.existsSync(path.join(out, 'mcp.json'))) {
    fs.copyFileSync(mcpConfig, path.join(out, 'mcp.json'));
    copied.push(`mcp.json (from ${mcpConfig})`);
  }
  return { copied };
}
