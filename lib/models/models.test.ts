import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { listModels, modelLoadState } from './models';

/**
 * The model catalogue against the double: a router with four models (one running, two cold,
 * one whose load fails), llama-swap with two, and a one-model server that also offers one.
 */

let router: LlamaDouble;
let single: LlamaDouble;

before(async () => {
  router = await startLlamaDouble({
    router: {
      models: [
        { id: 'qwen3-4b', loaded: true, thinking: true, nCtx: 32768 },
        { id: 'qwen3-30b-a3b', nCtx: 65536 },
        { id: 'gemma3-12b-vision', vision: true },
        { id: 'broken', failsWith: 1 },
      ],
    },
  });
  single = await startLlamaDouble({ modelId: 'qwen3-4b', vision: true, nCtx: 8192 });
});
after(async () => {
  await router.close();
  await single.close();
});

const post = (double: LlamaDouble, model: unknown) =>
  fetch(`${double.url}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('listModels', () => {
  test("a router's models with their load state, a running one's facts from its own /props, and listing loads nothing", async () => {
    const { models, unreachable } = await listModels([router.url]);
    assert.deepEqual(unreachable, []);
    assert.deepEqual(
      models.map((m) => [m.id, m.state, m.contextSize, m.vision, m.toolCalls, m.thinking]),
      [
        ['qwen3-4b', 'loaded', 32768, false, true, true],
        ['qwen3-30b-a3b', 'unloaded', null, false, null, null],
        ['gemma3-12b-vision', 'unloaded', null, true, null, null],
        ['broken', 'unloaded', null, false, null, null],
      ],
    );
    assert.deepEqual(router.router!.loads, [], 'no model was loaded to be listed');
  });

  test("a request names a cold model: the router loads it and answers as it; a load that fails is the server's 500 and the model shows as failed", async () => {
    const res = await post(router, 'qwen3-30b-a3b');
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { model: string }).model, 'qwen3-30b-a3b');
    const failed = await post(router, 'broken');
    assert.equal(failed.status, 500);
    assert.match(((await failed.json()) as { error: { message: string } }).error.message, /^model name=broken failed to load$/);
    const unknown = await post(router, 'nope');
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /^model 'nope' not found$/);
    assert.equal((await post(router, undefined)).status, 400);
    const { models } = await listModels([router.url]);
    const state = Object.fromEntries(models.map((m) => [m.id, [m.state, m.contextSize]]));
    assert.deepEqual(state['qwen3-30b-a3b'], ['loaded', 65536]);
    assert.deepEqual(state.broken, ['failed', null]);
    assert.deepEqual(router.router!.loads, ['qwen3-30b-a3b', 'broken']);
  });

  test('while a cold model loads, the list says so and the request waits for it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const loadStarted = new Promise<void>((r) => (arrived = r));
    const gated = await startLlamaDouble({
      router: {
        models: [{ id: 'cold' }],
        loading: () => {
          arrived();
          return gate;
        },
      },
    });
    try {
      const answer = post(gated, 'cold');
      await loadStarted;
      assert.deepEqual(
        (await listModels([gated.url])).models.map((m) => m.state),
        ['loading'],
      );
      release();
      assert.equal((await answer).status, 200);
      assert.deepEqual(
        (await listModels([gated.url])).models.map((m) => m.state),
        ['loaded'],
      );
    } finally {
      await gated.close();
    }
  });

  test('llama-swap: one model at a time, a request for another swaps it in; a starting one is loading; a model it has not is its 404', async () => {
    let release!: () => void;
    let gate: Promise<void> = Promise.resolve();
    let arrived!: () => void;
    let started = new Promise<void>((r) => (arrived = r));
    const swap = await startLlamaDouble({
      router: {
        flavour: 'llama-swap',
        models: [{ id: 'qwen3-4b', loaded: true, nCtx: 40960 }, { id: 'qwen3-30b-a3b' }],
        loading: () => {
          arrived();
          return gate;
        },
      },
    });
    try {
      const states = async () => (await listModels([swap.url])).models.map((m) => [m.id, m.state, m.contextSize, m.toolCalls]);
      assert.deepEqual(await states(), [
        ['qwen3-4b', 'loaded', 40960, true],
        ['qwen3-30b-a3b', 'unloaded', null, true],
      ]);
      gate = new Promise<void>((r) => (release = r));
      started = new Promise<void>((r) => (arrived = r));
      const answer = post(swap, 'qwen3-30b-a3b');
      await started;
      assert.deepEqual(
        (await states()).map(([id, state]) => [id, state]),
        [
          ['qwen3-4b', 'unloaded'],
          ['qwen3-30b-a3b', 'loading'],
        ],
        'the running model made way; the new one is starting',
      );
      release();
      assert.equal((await answer).status, 200);
      assert.deepEqual(
        (await states()).map(([id, state]) => [id, state]),
        [
          ['qwen3-4b', 'unloaded'],
          ['qwen3-30b-a3b', 'loaded'],
        ],
      );
      assert.equal(await modelLoadState(swap.url, 'qwen3-30b-a3b'), 'loaded', 'one model at a time: the swapped-in one');
      assert.equal(await modelLoadState(swap.url, 'qwen3-4b'), 'unloaded', 'and the one it replaced is cold again');
      const missing = await post(swap, 'nope');
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), {
        src: 'llama-swap',
        error: { message: 'no local server found for requested model', type: 'invalid_request_error', param: null, code: 'not_found' },
      });
    } finally {
      await swap.close();
    }
  });

  test('two servers: a model both offer is one entry naming both; a server that is down is listed apart', async () => {
    const down = 'http://127.0.0.1:1/v1';
    const { models, unreachable } = await listModels([single.url, router.url, down], { timeoutMs: 2000 });
    const shared = models.find((m) => m.id === 'qwen3-4b')!;
    assert.deepEqual(shared.servers, [single.url, router.url]);
    assert.equal(shared.state, 'loaded', "the router's state, as the one-model server has none");
    assert.equal(shared.contextSize, 8192, 'the first server that knows it says');
    assert.equal(shared.vision, true);
    assert.equal(models.filter((m) => m.id === 'qwen3-4b').length, 1);
    assert.deepEqual(
      unreachable.map((u) => u.url),
      [down],
    );
    assert.match(unreachable[0].error, /127\.0\.0\.1:1/);
  });
});

describe('modelLoadState', () => {
  test("a router's model is loaded or cold as its list says; a one-model server, an unknown model and a server that is down say nothing", async () => {
    assert.equal(await modelLoadState(router.url, 'qwen3-4b'), 'loaded');
    assert.equal(await modelLoadState(router.url, 'gemma3-12b-vision'), 'unloaded');
    assert.equal(await modelLoadState(single.url, 'qwen3-4b'), null, 'a server running one model has nothing to load');
    assert.equal(await modelLoadState(router.url, 'nope'), null);
    assert.equal(await modelLoadState('http://127.0.0.1:1/v1', 'qwen3-4b', { timeoutMs: 2000 }), null);
    assert.deepEqual(router.router!.loads.includes('gemma3-12b-vision'), false, 'asking loads nothing');
  });
});
