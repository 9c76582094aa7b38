import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonArrayEntries } from './json-entries';

const subject = () => 'This JSON list';

async function entries(chunks: Buffer[], maxEntryBytes = 1 << 20): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const entry of jsonArrayEntries(
    (async function* () {
      yield* chunks;
    })(),
    { maxEntryBytes, subject },
  )) {
    out.push(JSON.parse(entry.toString('utf8')));
  }
  return out;
}

async function refusal(chunks: Buffer[], maxEntryBytes = 1 << 20): Promise<{ code: string; message: string }> {
  try {
    await entries(chunks, maxEntryBytes);
  } catch (err) {
    return err as { code: string; message: string };
  }
  assert.fail('expected a refusal');
}

/** Strings holding every character that means something outside a string, escaped quotes and backslashes, nesting, scalars. */
const TRICKY = [
  { title: 'a, b] c} "quoted" \\ back\\slash', nested: [[1, [2]], { a: { b: [] } }], text: 'ends in a backslash \\' },
  'a plain string with ] and , and [',
  42,
  null,
  [],
  {},
  { unicode: 'Bergen — 12 °C, 雨', emoji: '🌧️' },
];

describe('jsonArrayEntries', () => {
  test('yields each entry of a list whole, wherever the chunks are cut (every byte position), with space and a BOM around', async () => {
    const bytes = Buffer.from(`\ufeff  [\n ${TRICKY.map((e) => JSON.stringify(e, null, 1)).join(' ,\n')}\n ]  \n`);
    for (let cut = 1; cut < bytes.length; cut++) {
      const got = await entries([bytes.subarray(0, cut), bytes.subarray(cut)]);
      assert.deepEqual(got, TRICKY, `cut at byte ${cut}`);
    }
    // One byte at a time, too.
    assert.deepEqual(await entries([...bytes].map((b) => Buffer.from([b]))), TRICKY);
    assert.deepEqual(await entries([Buffer.from('[]')]), []);
    assert.deepEqual(await entries([Buffer.from(' [ \n ] ')]), []);
  });

  test('gives the first entry before the body has been read to its end: a long list is never held whole', async () => {
    const entry = JSON.stringify({ text: 'x'.repeat(1000) });
    let pulled = 0;
    const total = 1000;
    const body = (async function* () {
      yield Buffer.from('[');
      for (let i = 0; i < total; i++) {
        pulled++;
        yield Buffer.from(i ? `,${entry}` : entry);
      }
      yield Buffer.from(']');
    })();
    let seen = 0;
    for await (const e of jsonArrayEntries(body, { maxEntryBytes: 4096, subject })) {
      seen++;
      // Entry n is complete once the comma after it has come: one chunk ahead, never more.
      assert.ok(pulled <= seen + 1, `entry ${seen} given after ${pulled} chunks`);
      assert.equal(e.length, entry.length);
    }
    assert.equal(seen, total);
  });

  test('refuses a cut-off list, a stray comma, more after the list, something that is no list, and an entry over the limit', async () => {
    const cut = await refusal([Buffer.from('[{"a":1},{"b":"2, ]')]);
    assert.equal(cut.code, 'bad_request');
    assert.match(cut.message, /^This JSON list ends inside its list, after 1 whole entries: it was cut off/);
    assert.match((await refusal([Buffer.from('[1,,2]')])).message, /^This JSON list has an empty entry 2 \(a stray comma\)/);
    assert.match((await refusal([Buffer.from('[1,2,]')])).message, /empty entry 3/);
    assert.match((await refusal([Buffer.from('[1] [2]')])).message, /^This JSON list goes on after the end of its list\.$/);
    assert.match((await refusal([Buffer.from('{"a":1}')])).message, /^This JSON list is not a JSON list\.$/);
    const big = await refusal([Buffer.from('[1,'), Buffer.from(`"${'x'.repeat(100)}`), Buffer.from(`${'y'.repeat(100)}"]`)], 150);
    assert.equal(big.code, 'too_large');
    assert.match(big.message, /has an entry \(2\) larger than/);
  });
});
