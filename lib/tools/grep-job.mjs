// @ts-check
// grep_attachment's search (lib/tools/attachments.ts), in a process of its own: it counts the
// lines of one file that match a pattern (model output: a regular expression may backtrack
// without end, so the process is killed at its deadline) and keeps the first ones with their
// context. Plain JavaScript so Node runs it as it is; tsc checks it with the types below.
import fs from 'node:fs';

/**
 * @typedef {{ path: string | null; text: string; pattern: string; regex: boolean; caseSensitive: boolean;
 *   context: number; maxShown: number; lineMax: number }} GrepJob
 * @typedef {{ line: number; text: string; before?: string[]; after?: string[] }} GrepMatch
 * @typedef {{ count: number; shown: GrepMatch[]; lines: number }} GrepResult
 */

/** @param {GrepJob} w @returns {GrepResult} */
export function grep(w) {
  const re = w.regex ? new RegExp(w.pattern, w.caseSensitive ? 'u' : 'iu') : null;
  const needle = w.caseSensitive ? w.pattern : w.pattern.toLowerCase();
  /** @type {(line: string) => boolean} */
  const test = re
    ? (line) => re.test(line)
    : w.caseSensitive
      ? (line) => line.includes(needle)
      : (line) => line.toLowerCase().includes(needle);
  /** @param {string} line */
  const cut = (line) => (line.length > w.lineMax ? `${line.slice(0, w.lineMax)}\u2026` : line);
  let n = 0;
  let count = 0;
  /** @type {GrepMatch[]} */
  const shown = [];
  /** @type {string[]} */
  const before = [];
  /** @type {(GrepMatch & { after: string[] })[]} */
  let waiting = [];
  /** @param {string} line */
  function onLine(line) {
    n++;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (n === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (waiting.length) {
      for (const m of waiting) m.after.push(cut(line));
      waiting = waiting.filter((m) => m.after.length < w.context);
    }
    if (test(line)) {
      count++;
      if (shown.length < w.maxShown) {
        if (w.context > 0) {
          const m = { line: n, text: cut(line), before: before.slice(), after: /** @type {string[]} */ ([]) };
          waiting.push(m);
          shown.push(m);
        } else shown.push({ line: n, text: cut(line) });
      }
    }
    if (w.context > 0) {
      before.push(cut(line));
      if (before.length > w.context) before.shift();
    }
  }
  if (w.path) {
    const fd = fs.openSync(w.path, 'r');
    const buffer = Buffer.alloc(1 << 20);
    const decoder = new TextDecoder('utf-8');
    let rest = '';
    for (;;) {
      const got = fs.readSync(fd, buffer, 0, buffer.length, null);
      const text = rest + decoder.decode(buffer.subarray(0, got), { stream: got > 0 });
      if (got === 0) {
        if (text.length) onLine(text);
        break;
      }
      let start = 0;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
        onLine(text.slice(start, i));
        start = i + 1;
      }
      rest = text.slice(start);
    }
    fs.closeSync(fd);
  } else {
    for (const line of w.text.split('\n')) onLine(line);
  }
  return { count, shown, lines: n };
}

process.once('message', (/** @type {GrepJob} */ job) => {
  /** @type {GrepResult | { error: string }} */
  let reply;
  try {
    reply = grep(job);
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  process.send?.(reply, () => process.exit(0));
});
