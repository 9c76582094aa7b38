import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { hasErrorCode } from '@/lib/shared/errors';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { FileStore } from '@/lib/data/file-store';
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
  stageImport(chunks(text, size), {
    files: new FileStore(makeTempDir('hearth-import')),
    maxBytes,
    knownAttachment: () => Promise.resolve(undefined),
  });

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

test('blank and whitespace-only lines are skipped, each still counted for the lines named', async () => {
  const [header, ...rest] = library.split('\n');
  const spaced = [header, '', '  \t', ...rest.slice(0, 2), ' ', ...rest.slice(2)].join('\n');
  const staged = await stage(spaced, 5);
  const records = [...staged.records()];
  staged.discard();
  assert.deepEqual(
    records.map((r) => [r.line, r.record.type]),
    [
      [4, 'memory'],
      [5, 'thread'],
      [7, 'message'],
    ],
  );
});

test('a line that is not a record is named as a record, and a long unknown type is cut to 40 characters', async () => {
  const [header, , ...rest] = library.split('\n');
  for (const [line, named] of [
    ['null', '(record)'],
    ['42', '(record)'],
    ['[]', '(record)'],
    [JSON.stringify({ type: 'x'.repeat(60) }), `(${'x'.repeat(40)})`],
  ] as const) {
    await assert.rejects(
      stage([header, line, ...rest].join('\n'), 64),
      (e: unknown) => hasErrorCode(e, 'bad_request') && (e as Error).message.includes(`: line 2 ${named}: `),
      line,
    );
  }
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const [k1, f1] = ['00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000e1'];
const knowledgeFile = (text: string, after: object[] = []) =>
  [
    { type: 'hearth-library', version: 1, exportedAt: 1 },
    { type: 'collection', id: k1, name: 'Manuals', everyThread: false, createdAt: 1, updatedAt: 1 },
    {
      type: 'collection_file',
      id: f1,
      collectionId: k1,
      name: 'pump.txt',
      mime: 'text/plain',
      size: text.length,
      sha256: sha(text),
      kind: 'text',
      createdAt: 1,
    },
    { type: 'file', sha256: sha(text), part: 'original', chunk: 0, last: false, data: Buffer.from(text.slice(0, 4)).toString('base64') },
    ...after,
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');

test("a collection's file is taken like an attachment's: its bytes follow the record that names them", async () => {
  const text = 'The warranty lasts five years.';
  const body = knowledgeFile(text, [
    { type: 'file', sha256: sha(text), part: 'original', chunk: 1, last: true, data: Buffer.from(text.slice(4)).toString('base64') },
    { type: 'end', records: 4 },
  ]);
  const staged = await stage(body, 64);
  assert.deepEqual(
    staged.files.map((f) => [f.sha256, f.part]),
    [[sha(text), 'original']],
  );
  assert.equal(fs.readFileSync(staged.files[0].tmp, 'utf8'), text);
  staged.discard();
});

test('a file refused halfway through its chunks leaves no temporary file behind', async () => {
  const dir = makeTempDir('hearth-import');
  const files = new FileStore(dir);
  const body = knowledgeFile('The warranty lasts five years.', [{ type: 'memory', id: m1 }]);
  await assert.rejects(
    stageImport(chunks(body, 64), { files, maxBytes: 1e9, knownAttachment: () => Promise.resolve(undefined) }),
    (e: unknown) => hasErrorCode(e, 'bad_request'),
  );
  const tmp = path.join(dir, 'tmp');
  assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], []);
});
