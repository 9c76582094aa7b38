import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { wordVector } from '@/e2e/double/embeddings';
import { checkEmbeddings, createEmbeddingsClient } from './embeddings';

/**
 * The embeddings client against the double playing llama-server v0.5.0's /v1/embeddings
 * (e2e/double/embeddings.ts): vectors in order and in batches, decoded from base64, the
 * refusal of a server started without --embeddings and of an input longer than the batch,
 * and a test's own vectors (a paraphrase made close to its passage).
 */

let server: LlamaDouble;
let plain: LlamaDouble;
before(async () => {
  server = await startLlamaDouble({
    modelId: 'nomic-embed-text',
    embeddings: {
      dims: 64,
      ubatch: 40,
      // The paraphrase is given the passage's own vector, as close as a real embedding model makes them.
      vector: (t) => (/start it over/.test(t) ? wordVector('restore the factory settings', 64) : undefined),
    },
  });
  plain = await startLlamaDouble();
});
after(async () => {
  await server.close();
  await plain.close();
});
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('embeddings', () => {
  test('one unit vector per text, in order, sent in batches; texts that share words are closer', async () => {
    const client = createEmbeddingsClient({ baseURL: server.url, model: 'nomic-embed-text', batch: 2 });
    const texts = ['the heater needs a new filter', 'replace the heater filter', 'the train leaves at noon'];
    const vectors = await client.embed(texts);
    assert.equal(vectors.length, 3);
    for (const v of vectors) {
      assert.equal(v.length, 64);
      assert.ok(Math.abs(cosine(v, v) - 1) < 1e-5, 'normalised');
    }
    assert.ok(cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]));
    assert.deepEqual(server.embedded.slice(-2), [texts.slice(0, 2), texts.slice(2)], 'two requests of at most two');
  });

  test('an address given without /v1 reaches the OpenAI-compatible route (the bare /embeddings answers another shape)', async () => {
    const client = createEmbeddingsClient({ baseURL: server.url.replace(/\/v1$/, '/'), model: 'nomic-embed-text' });
    const [v] = await client.embed(['a lamp']);
    assert.equal(v.length, 64);
  });

  test('the Settings check says the size of the vectors, or why there are none', async () => {
    const ok = await checkEmbeddings({ baseURL: server.url, model: 'nomic-embed-text' });
    assert.equal(ok.ok && ok.dims, 64);
    const refused = await checkEmbeddings({ baseURL: plain.url });
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.error : '', /--embeddings/);
  });

  test("a test's own vectors: a paraphrase that shares no word is as close as the passage itself", async () => {
    const client = createEmbeddingsClient({ baseURL: server.url, model: 'nomic-embed-text' });
    const [asked, passage, other] = await client.embed([
      'how do I start it over',
      'restore the factory settings',
      'the warranty lasts two years',
    ]);
    assert.ok(cosine(asked, passage) > 0.999, 'the scripted paraphrase has the passage’s own vector');
    assert.ok(cosine(asked, other) < 0.5);
  });

  test('a server started without --embeddings, and an input longer than the batch, are refused with what to do', async () => {
    await assert.rejects(createEmbeddingsClient({ baseURL: plain.url, model: 'x' }).embed(['hello']), {
      code: 'model_error',
      message: /was started without embeddings: run llama-server with --embeddings/,
    });
    await assert.rejects(createEmbeddingsClient({ baseURL: server.url, model: 'x' }).embed(['word '.repeat(60)]), {
      code: 'model_error',
      message: /input \(\d+ tokens\) is too large to process.*--ubatch-size/,
    });
  });

  test('the wire as the server answers it: float or base64, usage counted, errors with their types', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/embeddings`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const floats = await (await post({ input: ['a b', 'c'], model: 'm' })).json();
    assert.equal(floats.object, 'list');
    assert.equal(floats.model, 'm');
    assert.deepEqual(floats.usage, { prompt_tokens: 5, total_tokens: 5 });
    assert.deepEqual(
      floats.data.map((d: { index: number; object: string }) => [d.index, d.object]),
      [
        [0, 'embedding'],
        [1, 'embedding'],
      ],
    );
    const b64 = await (await post({ input: 'a b', encoding_format: 'base64' })).json();
    const bytes = Buffer.from(b64.data[0].embedding, 'base64');
    const decoded = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    assert.deepEqual(
      [...decoded].map((x) => x.toFixed(5)),
      floats.data[0].embedding.map((x: number) => Math.fround(x).toFixed(5)),
    );
    const none = await post({ model: 'm' });
    assert.equal(none.status, 400);
    assert.deepEqual(await none.json(), {
      error: { code: 400, message: '"input" or "content" must be provided', type: 'invalid_request_error' },
    });
    const off = await fetch(`${plain.url}/embeddings`, { method: 'POST', body: '{"input":"x"}' });
    assert.equal(off.status, 501);
    assert.equal((await off.json()).error.type, 'not_supported_error');
  });
});
