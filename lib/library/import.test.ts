import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasErrorCode } from '@/lib/errors';
import { makeTempDir } from '@/lib/testing/temp-dir';
import { FileStore } from '@/lib/attachments/file-store';
import { MAX_LINE_BYTES } from './format';
import { stageImport } from './import';
import { LineReader } from './line-reader';

/** The staging step on its own: lines split anywhere across the body's chunks, and the limits. */

const [m1, t1, u1] = [
  '00000000-0000-4000-8000-0000000000a1',
  '00000000-0000-4000-8000-0000000000b1',
  '00000000-0000-4000-8000-0000000000c1',
];
const library = [
  { type: 'hearth-library', version: 1, exportedAt: 1 },
  { type: 'memory', id: m1, text: 'The user keeps bees.', createdAt: 1, updatedAt: 1 },
  { type: 'thread', id: t1, title: 'Bees', titleSource: 'user', systemPrompt: '', pinned: false, createdAt: 1, updatedAt: 1 },
  {
    type: 'message',
    id: u1,
    threadId: t1,
    turnId: null,
    role: 'user',
    content: 'Ünïcode 🐝 across chunk boundaries',
    status: 'complete',
    errorCode: null,
    contextBlock: null,
    createdAt: 1,
  },
  { type: 'end', records: 3 },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

async function* chunks(text: string, size: number) {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const stage = (text: string, size: number, maxBytes = 1e9) =>
  stageImport(chunks(text, size), { files: new FileStore(makeTempDir('hearth-import')), maxBytes, knownAttachment: () => undefined });

test('records come out the same however the body is cut into chunks, with the line each came from', async () => {
  for (const size of [1, 3, 7, 64, 1 << 20]) {
    const staged = await stage(library, size);
    const records = [...staged.records()];
    staged.discard();
    assert.deepEqual(
      records.map((r) => [r.line, r.record.type]),
      [
        [2, 'memory'],
        [3, 'thread'],
        [4, 'message'],
      ],
      `chunks of ${size}`,
    );
    assert.equal((records[2].record as { content: string }).content, 'Ünïcode 🐝 across chunk boundaries');
  }
});

test('a body over the limit is 413 while it streams; a closing line that does not add up is 400', async () => {
  await assert.rejects(stage(library, 16, 100), (e: unknown) => hasErrorCode(e, 'too_large'));
  await assert.rejects(
    stage(library.replace('"records":3', '"records":4'), 16),
    (e: unknown) => hasErrorCode(e, 'bad_request') && /says it has 4 records but 3/.test((e as Error).message),
  );
  await assert.rejects(stage(`${library}\n{"type":"memory"}`, 16), (e: unknown) =>
    /line 6: there is more after the closing line/.test((e as Error).message),
  );
});

test('an id that is not a UUID is refused with its line: ids go into URLs ("../memories/<id>" named another thing)', async () => {
  for (const bad of ['../memories/00000000-0000-4000-8000-0000000000a1', 'm1', '%2e%2e', '']) {
    await assert.rejects(
      stage(library.replace(`"id":"${t1}"`, `"id":${JSON.stringify(bad)}`), 64),
      (e: unknown) => hasErrorCode(e, 'bad_request') && /line 3 \(thread\): its "id" must be a UUID/.test((e as Error).message),
      bad,
    );
  }
});

test('a line longer than 16 MB is refused however it arrives: in one chunk with its line end, across chunks, or last', async () => {
  const long = Buffer.alloc(MAX_LINE_BYTES + 1, 0x61);
  const lines = async (chunks: Buffer[]) => {
    const reader = new LineReader(
      (async function* () {
        yield* chunks;
      })(),
      1e9,
    );
    const out: (number | string | null)[] = [];
    for (;;) {
      const l = await reader.line();
      out.push(l === null || l === 'too-long' ? l : l.length);
      if (l === null || l === 'too-long') return out;
    }
  };
  const newline = Buffer.from('\nok\n');
  assert.deepEqual(await lines([Buffer.concat([long, newline])]), ['too-long']);
  assert.deepEqual(await lines([long.subarray(0, 1000), Buffer.concat([long.subarray(1000), newline])]), ['too-long']);
  assert.deepEqual(await lines([Buffer.from('x\n'), long]), [1, 'too-long']);
  const exact = Buffer.alloc(MAX_LINE_BYTES, 0x61);
  assert.deepEqual(await lines([Buffer.concat([exact, newline])]), [MAX_LINE_BYTES, 2, null], 'exactly 16 MB is a line');
  await assert.rejects(
    stage(`${library.split('\n')[0]}\n{"type":"memory","text":"${'a'.repeat(MAX_LINE_BYTES)}"}\n`, 1 << 30),
    (e: unknown) => hasErrorCode(e, 'bad_request') && /line 2: longer than 16 MB/.test((e as Error).message),
  );
});
