import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { grepAttachmentTool, readAttachmentTool } from './attachments';
import { createToolRegistry } from './registry';
import { isToolError, type AttachmentText, type Tool, type ToolDeps } from './types';

const ID = '11111111-1111-4111-8111-111111111111';

/** A log of `lines` lines (CRLF line ends) with ERROR planted on every `every`-th line. */
function log(lines: number, every: number): { file: AttachmentText; planted: number } {
  const dir = makeTempDir('hearth-attach');
  const file = path.join(dir, 'app.log');
  const out = fs.openSync(file, 'w');
  let planted = 0;
  let chunk = '';
  for (let i = 1; i <= lines; i++) {
    const error = i % every === 0;
    if (error) planted++;
    chunk += `2026-11-30 12:00:${String(i % 60).padStart(2, '0')} ${error ? 'ERROR disk full on /var' : 'INFO request served'} #${i}\r\n`;
    if (chunk.length > 1 << 16) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
  return { file: { name: 'app.log', path: file, text: '', chars: fs.statSync(file).size, lines }, planted };
}

const deps = (file: AttachmentText): ToolDeps => ({
  now: () => 0,
  timezone: 'UTC',
  threadId: 't',
  attachmentText: (id) => (id === ID ? file : undefined),
});
const never = new AbortController().signal;

describe('read_attachment', () => {
  const { file } = log(1000, 100);

  test('reads numbered lines; says what follows', async () => {
    const r = (await readAttachmentTool.run({ id: ID, from_line: 99, to_line: 101 }, deps(file), never)) as Record<string, unknown>;
    assert.equal(
      r.text,
      '    99| 2026-11-30 12:00:39 INFO request served #99\n   100| 2026-11-30 12:00:40 ERROR disk full on /var #100\n   101| 2026-11-30 12:00:41 INFO request served #101',
    );
    assert.deepEqual([r.from_line, r.to_line, r.total_lines], [99, 101, 1000]);
    assert.match(String(r.more), /lines 102 to 1000 follow: call read_attachment again with from_line 102/);
  });

  test('at most 200 lines a call; the last page says nothing more follows', async () => {
    const first = (await readAttachmentTool.run({ id: ID }, deps(file), never)) as Record<string, unknown>;
    assert.equal(String(first.text).split('\n').length, 200);
    const last = (await readAttachmentTool.run({ id: ID, from_line: 950, to_line: 5000 }, deps(file), never)) as Record<string, unknown>;
    assert.equal(last.to_line, 1000);
    assert.equal(last.more, undefined);
  });

  test('clear errors: an unknown id, lines out of range', async () => {
    for (const [args, message] of [
      [{ id: '22222222-2222-4222-8222-222222222222' }, /no file with the id/],
      [{ id: ID, from_line: 1001 }, /has 1000 lines/],
      [{ id: ID, from_line: 10, to_line: 5 }, /to_line comes before from_line/],
    ] as const) {
      await assert.rejects(readAttachmentTool.run(args, deps(file), never), (e: unknown) => isToolError(e) && message.test(e.message));
    }
  });

  test('a file attached before files were kept on disk is read from its stored text', async () => {
    const old: AttachmentText = { name: 'old.txt', path: null, text: 'one\ntwo\nthree', chars: 13, lines: 3 };
    const r = (await readAttachmentTool.run({ id: ID, from_line: 2 }, deps(old), never)) as Record<string, unknown>;
    assert.equal(r.text, '     2| two\n     3| three');
  });
});

describe('grep_attachment', () => {
  test('counts matching lines exactly over a large file and shows the first ones with their numbers', async () => {
    const { file, planted } = log(200_000, 137);
    const r = (await grepAttachmentTool.run({ id: ID, pattern: 'error disk FULL' }, deps(file), never)) as Record<string, unknown>;
    assert.equal(r.matching_lines, planted);
    assert.equal(planted, 1459);
    assert.equal(r.total_lines, 200_000);
    const matches = r.matches as { line: number; text: string }[];
    assert.equal(matches.length, 20);
    assert.deepEqual(matches.slice(0, 2), [
      { line: 137, text: '2026-11-30 12:00:17 ERROR disk full on /var #137' },
      { line: 274, text: '2026-11-30 12:00:34 ERROR disk full on /var #274' },
    ]);
    assert.equal(r.shown, 'the first 20 of 1459');
  });

  test('regular expressions, case, and lines of context', async () => {
    const { file } = log(300, 100);
    const re = (await grepAttachmentTool.run({ id: ID, pattern: '#(1|2)00$', regex: true, context_lines: 1 }, deps(file), never)) as Record<
      string,
      unknown
    >;
    assert.equal(re.matching_lines, 2);
    assert.deepEqual((re.matches as unknown[])[0], {
      line: 100,
      text: '2026-11-30 12:00:40 ERROR disk full on /var #100',
      before: ['2026-11-30 12:00:39 INFO request served #99'],
      after: ['2026-11-30 12:00:41 INFO request served #101'],
    });
    const exact = (await grepAttachmentTool.run({ id: ID, pattern: 'error', case_sensitive: true }, deps(file), never)) as Record<
      string,
      unknown
    >;
    assert.equal(exact.matching_lines, 0);
    await assert.rejects(
      grepAttachmentTool.run({ id: ID, pattern: '(unclosed', regex: true }, deps(file), never),
      (e: unknown) => isToolError(e) && /not a valid regular expression/.test(e.message),
    );
  });

  test('a pattern that backtracks forever is stopped when the turn stops it, and the server never waits on it', async () => {
    const dir = makeTempDir('hearth-attach');
    const evil = path.join(dir, 'evil.txt');
    fs.writeFileSync(evil, `${'a'.repeat(40)}!\n`);
    const file: AttachmentText = { name: 'evil.txt', path: evil, text: '', chars: 42, lines: 1 };
    const stop = new AbortController();
    let ticks = 0;
    const ticking = setInterval(() => {
      // The event loop keeps turning while the worker backtracks: the search is not on it.
      if (++ticks === 5) stop.abort();
    }, 20);
    try {
      await assert.rejects(
        grepAttachmentTool.run({ id: ID, pattern: '^(a+)+$', regex: true }, deps(file), stop.signal),
        (e: unknown) => isToolError(e) && /took too long and was stopped/.test(e.message),
      );
    } finally {
      clearInterval(ticking);
    }
    assert.equal(ticks, 5);
  });
  test("through the registry, as a turn runs it: the tool's time limit ends the search and the model gets advice", async () => {
    const dir = makeTempDir('hearth-attach');
    const evil = path.join(dir, 'evil.txt');
    fs.writeFileSync(evil, `${'a'.repeat(40)}!\n`);
    const file: AttachmentText = { name: 'evil.txt', path: evil, text: '', chars: 42, lines: 1 };
    // The real limit is GREP_TIME_LIMIT_MS (30 s); the same path with a shorter one.
    const registry = createToolRegistry([{ ...grepAttachmentTool, timeoutMs: 300 } as Tool]);
    const result = await registry.run(
      'grep_attachment',
      JSON.stringify({ id: ID, pattern: '^(a+)+$', regex: true }),
      deps(file),
      new AbortController().signal,
    );
    assert.ok(!result.ok && /took too long|took longer than/.test(result.error), String(JSON.stringify(result)));
  });
});
