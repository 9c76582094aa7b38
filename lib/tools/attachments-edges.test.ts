import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { grepAttachmentTool, readAttachmentTool } from './attachments';
import { isToolError, type AttachmentText, type ToolDeps } from './types';

/** The attachment tools at their limits, counted by hand: line and character caps, ranges, odd files, the search's failures. */

const ID = '11111111-1111-4111-8111-111111111111';
const deps = (file: AttachmentText): ToolDeps => ({
  now: () => 0,
  timezone: 'UTC',
  threadId: 't',
  attachmentText: (id) => (id === ID ? file : undefined),
});
const never = new AbortController().signal;

/** A file on disk with these lines (LF ends). */
function onDisk(lines: string[], name = 'f.txt'): AttachmentText {
  const file = path.join(makeTempDir('hearth-attach-edges'), name);
  fs.writeFileSync(file, lines.join('\n'));
  return { name, path: file, text: '', chars: fs.statSync(file).size, lines: lines.length };
}
type Read = { text: string; from_line: number; to_line: number; total_lines: number; more?: string };
const read = async (file: AttachmentText, args: { from_line?: number; to_line?: number } = {}) =>
  (await readAttachmentTool.run({ id: ID, ...args }, deps(file), never)) as Read;

describe('read_attachment at its limits', () => {
  test('a line of 500 characters is whole; of 501, cut at 500 with an ellipsis', async () => {
    const r = await read(onDisk(['a'.repeat(500), 'b'.repeat(501)]));
    assert.deepEqual(r.text.split('\n'), [`     1| ${'a'.repeat(500)}`, `     2| ${'b'.repeat(500)}…`]);
  });

  test('20,000 characters a call: 59 lines of 330 characters fill it exactly (each 338 with its number, and the line ends between)', async () => {
    const file = onDisk(Array.from({ length: 100 }, () => 'x'.repeat(330)));
    const r = await read(file);
    assert.equal(r.to_line, 59);
    assert.equal(r.text.length, 20_000, '59 numbered lines and 58 line ends');
    assert.equal(r.more, 'lines 60 to 100 follow: call read_attachment again with from_line 60');
    assert.equal(
      (await read(onDisk(Array.from({ length: 100 }, () => 'x'.repeat(331))))).to_line,
      58,
      'a character more a line: one line fewer',
    );
    // 50 numbered lines of 400 are 20,000 characters, but with the 49 line ends between them they are more.
    assert.equal((await read(onDisk(Array.from({ length: 100 }, () => 'x'.repeat(392))))).to_line, 49, 'line ends count');
  });

  test('200 lines a call even when more are asked for', async () => {
    const file = onDisk(Array.from({ length: 300 }, (_, i) => `line ${i + 1}`));
    const r = await read(file, { from_line: 1, to_line: 300 });
    assert.deepEqual([r.to_line, r.text.split('\n').length], [200, 200]);
    assert.equal((await read(file, { from_line: 101 })).to_line, 300);
  });

  test('one line asked (from equals to), the last line asked, an empty file', async () => {
    const file = onDisk(['one', 'two', 'three']);
    assert.equal((await read(file, { from_line: 2, to_line: 2 })).text, '     2| two');
    const last = await read(file, { from_line: 3 });
    assert.deepEqual([last.text, last.to_line, last.more], ['     3| three', 3, undefined]);
    const empty = await read(onDisk([]));
    assert.deepEqual([empty.text, empty.from_line, empty.to_line, empty.total_lines, empty.more], ['', 1, 0, 0, undefined]);
  });

  test('a byte-order mark opens the file, not its text; the same character later is the text', async () => {
    const r = await read(onDisk(['\uFEFFfirst', '\uFEFFsecond']));
    assert.deepEqual(r.text.split('\n'), ['     1| first', '     2| \uFEFFsecond']);
    assert.equal((await read(onDisk(['in\uFEFFside']))).text, '     1| in\uFEFFside', 'not at the start of the first line: text');
  });

  test('a read stopped by the turn before it starts reads nothing', async () => {
    const stopped = new AbortController();
    stopped.abort();
    await assert.rejects(
      readAttachmentTool.run({ id: ID }, deps(onDisk(['one', 'two'])), stopped.signal),
      (e: unknown) => e instanceof Error && e.name === 'AbortError',
    );
  });

  test('a read that stops early closes the file (Linux: counted in /proc/self/fd)', { skip: !fs.existsSync('/proc/self/fd') }, async () => {
    const file = onDisk(Array.from({ length: 5000 }, (_, i) => `line ${i}`));
    // The descriptors open on this file (others come and go with the test runner's own work).
    const open = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === file.path;
        } catch {
          return false;
        }
      }).length;
    assert.equal((await read(file, { from_line: 1, to_line: 1 })).text, '     1| line 0');
    // Closing is asynchronous: wait for it, a bounded number of turns of the event loop.
    for (let i = 0; i < 1000 && open() > 0; i++) await new Promise((r) => setImmediate(r));
    assert.equal(open(), 0);
  });
});

describe('grep_attachment at its limits', () => {
  type Grep = { matching_lines: number; shown?: string; matches: { line: number; text: string }[]; total_lines: number };
  const grep = async (file: AttachmentText, args: Record<string, unknown>, signal = never) =>
    (await grepAttachmentTool.run({ id: ID, ...args } as never, deps(file), signal)) as Grep;

  test('20 matches are all shown; from 21 on, the first 20 and the count', async () => {
    const twenty = await grep(onDisk(Array.from({ length: 20 }, (_, i) => `hit ${i}`)), { pattern: 'hit' });
    assert.deepEqual([twenty.matching_lines, twenty.matches.length, twenty.shown], [20, 20, undefined]);
    const more = await grep(onDisk(Array.from({ length: 21 }, (_, i) => `hit ${i}`)), { pattern: 'hit' });
    assert.deepEqual([more.matching_lines, more.matches.length, more.shown], [21, 20, 'the first 20 of 21']);
  });

  test('plain text is plain: a bracket is a bracket', async () => {
    const r = await grep(onDisk(['call(x)', 'no call']), { pattern: '(' });
    assert.deepEqual(r.matches, [{ line: 1, text: 'call(x)' }]);
  });

  test('a regular expression is checked as it will run (unicode), case-sensitive or not', async () => {
    const file = onDisk(['a-b']);
    for (const case_sensitive of [true, false]) {
      await assert.rejects(
        grep(file, { pattern: '\\-', regex: true, case_sensitive }),
        (e: unknown) =>
          isToolError(e) && /^the pattern is not a valid regular expression \(.+\); fix it or search for plain text$/.test(e.message),
      );
    }
  });

  test('a search already stopped does not start; a file that cannot be read is said to have failed', async () => {
    const file = onDisk(['x']);
    const stopped = new AbortController();
    stopped.abort();
    await assert.rejects(
      grep(file, { pattern: 'x' }, stopped.signal),
      (e: unknown) => isToolError(e) && /took too long and was stopped/.test(e.message),
    );
    const gone: AttachmentText = {
      name: 'gone.log',
      path: path.join(makeTempDir('hearth-attach-gone'), 'missing.log'),
      text: '',
      chars: 1,
      lines: 1,
    };
    await assert.rejects(grep(gone, { pattern: 'x' }), (e: unknown) => isToolError(e) && /^the search failed: ENOENT/.test(e.message));
  });
});
