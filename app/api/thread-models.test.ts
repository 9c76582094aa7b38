import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble, type LlamaDoubleOptions } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { readSse } from '@/lib/contract/sse';
import { setRuntime } from '@/lib/services/runtime';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { events, getThread, makeRuntime, newThread, params, req, send, turnRequests, type Ev } from './harness';
import * as modelsRoute from './models/route';
import * as messagesRoute from './threads/[id]/messages/route';
import * as regenerateRoute from './threads/[id]/messages/[messageId]/regenerate/route';
import * as threadRoute from './threads/[id]/route';

/**
 * A model per thread (issue 31) through the route handlers, against the double playing
 * llama-server's router mode with three models: the thread's model is chosen and kept, every
 * request of its rounds names it, a cold one is waited for with the loading stage shown, a
 * model that will not load ends the turn with the router's reason, two threads with different
 * models go to the servers that have them, and checks go to the checks model.
 */

/** With web search on, a draft is checked (freshness, verdict): the turns have decide steps. */
let searx: SearxDouble;
before(async () => {
  searx = await startSearxDouble();
});
const doubles: LlamaDouble[] = [];
async function double(options: LlamaDoubleOptions) {
  const d = await startLlamaDouble(options);
  doubles.push(d);
  return d;
}
after(async () => {
  setRuntime(undefined);
  await Promise.all(doubles.map((d) => d.close().catch(() => undefined)));
  await searx.close();
});

const THREE = [{ id: 'qwen3-4b', loaded: true }, { id: 'qwen3-30b-a3b' }, { id: 'gemma-3-4b', vision: true }];

const patch = async (id: string, body: unknown) => {
  const res = await threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, body), params({ id }));
  return { status: res.status, body: await res.json() };
};
type Answer = { id: string; role: string; model?: string | null; branch?: { index: number; ids: string[] } | null };
const answers = async (id: string) => ((await getThread(id)).body as { messages: Answer[] }).messages.filter((m) => m.role === 'assistant');
/** The model each of the turns' requests asked for (titles apart). */
const askedFor = (d: LlamaDouble) => turnRequests(d).map((r) => r.body.model);

describe('a model per thread behind a router', () => {
  test('lists the three models, sets a thread to one, refuses an unknown one, and every request of its rounds names it', async () => {
    const router = await double({ router: { models: THREE } });
    await makeRuntime({ llamaUrl: router.url, searxUrl: searx.url });
    const listed = await (await modelsRoute.GET(req('GET', '/api/models'))).json();
    assert.deepEqual(
      listed.models.map((m: { id: string; state: string }) => [m.id, m.state]),
      [
        ['qwen3-4b', 'loaded'],
        ['qwen3-30b-a3b', 'unloaded'],
        ['gemma-3-4b', 'unloaded'],
      ],
    );

    const id = await newThread();
    assert.equal((await getThread(id)).body.model, null, 'a new thread follows the default');
    const refused = await patch(id, { model: 'llama-9000' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'bad_request');
    assert.match(refused.body.error.message, /no model server offers "llama-9000"/);
    assert.match(refused.body.error.message, /"qwen3-30b-a3b"/, 'and says which models there are');
    assert.equal((await getThread(id)).body.model, null, 'a refused model changes nothing');

    const chosen = await patch(id, { model: 'qwen3-30b-a3b' });
    assert.equal(chosen.status, 200);
    assert.equal(chosen.body.model, 'qwen3-30b-a3b');

    const evs = await send(id, 'What is the capital of France?');
    assert.equal(evs.at(-1)!.type, 'done', JSON.stringify(evs.filter((e) => e.type === 'error')));
    const asked = askedFor(router);
    assert.ok(asked.length >= 2, 'its round and its checks');
    assert.deepEqual(new Set(asked), new Set(['qwen3-30b-a3b']), 'every request of the turn names the thread model');
    assert.deepEqual(router.router!.loads, ['qwen3-30b-a3b'], 'the router loaded it once');
    const loading = evs.find((e) => e.type === 'status' && e.stage === 'loading');
    assert.ok(loading && loading.type === 'status', 'a cold model is said to be loading');
    assert.equal(loading.model, 'qwen3-30b-a3b');
    assert.equal(typeof loading.since, 'number');
    const [answer] = await answers(id);
    assert.equal(answer.model, 'qwen3-30b-a3b', 'the answer records the model that wrote it');

    // Back to the default: the server's own (the first it lists), named on the next answer.
    assert.equal((await patch(id, { model: null })).body.model, null);
    router.requests.length = 0;
    await send(id, 'And of Italy?');
    assert.deepEqual(new Set(askedFor(router)), new Set(['qwen3-4b']));
    assert.equal((await answers(id)).at(-1)!.model, 'qwen3-4b');
  });

  test("a model's eval scorecard comes with it, from the newest report in HEARTH_EVAL_DIR", async () => {
    const router = await double({ router: { models: THREE } });
    const evalDir = makeTempDir('hearth-eval-results');
    fs.mkdirSync(path.join(evalDir, '2026-12-01'));
    fs.writeFileSync(
      path.join(evalDir, '2026-12-01', 'scorecard.json'),
      JSON.stringify({
        tool: 'hearth-eval',
        version: 1,
        finishedAt: '2026-12-01T09:00:00.000Z',
        models: [{ name: '30b', modelId: 'qwen3-30b-a3b' }],
        summaries: [{ model: '30b', runs: 16, met: 44, total: 48, completed: 15, deferralsLeft: 1, tokensPerSecond: 38.2 }],
      }),
    );
    await makeRuntime({ llamaUrl: router.url, env: { HEARTH_EVAL_DIR: evalDir } });
    const listed = (await (await modelsRoute.GET(req('GET', '/api/models'))).json()) as {
      models: { id: string; scorecard?: { completed: number; runs: number; deferralsLeft: number; tokensPerSecond: number } }[];
    };
    const card = listed.models.find((m) => m.id === 'qwen3-30b-a3b')?.scorecard;
    assert.deepEqual(card && [card.completed, card.runs, card.deferralsLeft, card.tokensPerSecond], [15, 16, 1, 38.2]);
    assert.equal(listed.models.find((m) => m.id === 'qwen3-4b')?.scorecard, undefined, 'a model no report names has none');
  });

  test("a model's measurement as the gate's judge (npm run eval -- --gate) comes with it", async () => {
    const router = await double({ router: { models: THREE } });
    const evalDir = makeTempDir('hearth-eval-results');
    fs.mkdirSync(path.join(evalDir, '2026-12-02'));
    const lang = (l: string) => ({ lang: l, drafts: 20, deferrals: 10, recall: 0.9, precision: 1, unanswered: 0 });
    fs.writeFileSync(
      path.join(evalDir, '2026-12-02', 'gate.json'),
      JSON.stringify({
        tool: 'hearth-gate-eval',
        version: 1,
        finishedAt: '2026-12-02T09:00:00.000Z',
        set: 'drafts.jsonl',
        models: [
          {
            name: 'qwen3-4b',
            languages: [lang('en'), lang('ja')],
            overall: { ...lang('all'), drafts: 40, recall: 0.85 },
            verdictMs: 120.5,
            freshnessMs: null,
            freshness: { asked: 0, needsFresh: 0 },
          },
        ],
      }),
    );
    await makeRuntime({ llamaUrl: router.url, env: { HEARTH_EVAL_DIR: evalDir } });
    const listed = (await (await modelsRoute.GET(req('GET', '/api/models'))).json()) as { models: { id: string; gate?: unknown }[] };
    assert.deepEqual(listed.models.find((m) => m.id === 'qwen3-4b')?.gate, {
      recall: 0.85,
      precision: 1,
      msPerJudgement: 120.5,
      drafts: 40,
      languages: 2,
      at: '2026-12-02T09:00:00.000Z',
    });
    assert.equal(listed.models.find((m) => m.id === 'qwen3-30b-a3b')?.gate, undefined, 'a model no report names has none');
  });

  test('regenerates an answer with another model; the versions say which model wrote which', async () => {
    const router = await double({ router: { models: THREE } });
    await makeRuntime({ llamaUrl: router.url, searxUrl: searx.url });
    const id = await newThread();
    await patch(id, { model: 'qwen3-4b' });
    await send(id, 'What is the capital of France?');
    const [first] = await answers(id);

    const unknown = await regenerateRoute.POST(
      req('POST', `/api/threads/${id}/messages/${first.id}/regenerate`, { model: 'nope' }),
      params({ id, messageId: first.id }),
    );
    assert.equal(unknown.status, 400);
    assert.match((await unknown.json()).error.message, /"nope"/);

    router.requests.length = 0;
    const res = await regenerateRoute.POST(
      req('POST', `/api/threads/${id}/messages/${first.id}/regenerate`, { model: 'gemma-3-4b' }),
      params({ id, messageId: first.id }),
    );
    assert.equal(res.status, 200);
    const evs = await events(res);
    assert.equal(evs.at(-1)!.type, 'done');
    assert.deepEqual(new Set(askedFor(router)), new Set(['gemma-3-4b']));
    const view = (await getThread(id)).body as { model: string; messages: Answer[]; otherMessages?: Answer[] };
    assert.equal(view.model, 'qwen3-4b', "one answer's model is not the thread's");
    const shown = view.messages.filter((m) => m.role === 'assistant').at(-1)!;
    assert.equal(shown.model, 'gemma-3-4b');
    assert.deepEqual(shown.branch?.ids, [first.id, shown.id]);

    // The first version, shown again, still names its own model.
    await patch(id, { branch: first.id });
    assert.equal((await answers(id)).at(-1)!.model, 'qwen3-4b');
  });

  test('waits for a cold model with the loading stage shown, then answers; a model that cannot load ends the turn with the reason', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const router = await double({
      router: {
        models: [{ id: 'qwen3-4b', loaded: true }, { id: 'qwen3-30b-a3b' }, { id: 'broken-q2', failsWith: 1 }],
        loading: (model) => (model === 'qwen3-30b-a3b' ? held : Promise.resolve()),
      },
    });
    await makeRuntime({ llamaUrl: router.url, searxUrl: searx.url });
    const id = await newThread();
    await patch(id, { model: 'qwen3-30b-a3b' });
    const res = await messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, { content: 'Hello there' }), params({ id }));
    const seen: Ev[] = [];
    for await (const frame of readSse(res.body!)) {
      const e = JSON.parse(frame.data) as Ev;
      seen.push(e);
      // The load is held: the stage says so, and nothing has failed meanwhile.
      if (e.type === 'status' && e.stage === 'loading') {
        assert.equal(e.model, 'qwen3-30b-a3b');
        assert.ok(!seen.some((x) => x.type === 'error'));
        release();
      }
    }
    assert.ok(
      seen.some((e) => e.type === 'status' && e.stage === 'loading'),
      'the loading stage was shown',
    );
    const afterLoading = seen.slice(seen.findIndex((e) => e.type === 'status' && e.stage === 'loading') + 1);
    assert.ok(
      afterLoading.some((e) => e.type === 'status' && e.stage !== 'loading'),
      'the stage goes back once the model answers',
    );
    assert.equal(seen.at(-1)!.type, 'done');

    await patch(id, { model: 'broken-q2' });
    const failed = await send(id, 'Hello again');
    const error = failed.find((e) => e.type === 'error');
    assert.ok(error && error.type === 'error', 'the turn ends with an error');
    assert.equal(error.code, 'model_error');
    assert.match(error.message, /failed to load/, "the router's reason");
  });
});

describe('routing by model', () => {
  test('two threads with different models go to the servers that have them', async () => {
    const alpha = await double({ modelId: 'alpha-7b' });
    const beta = await double({ modelId: 'beta-3b' });
    await makeRuntime({ llamaUrl: `${alpha.url},${beta.url}`, searxUrl: searx.url });
    const listed = await (await modelsRoute.GET(req('GET', '/api/models'))).json();
    assert.deepEqual(
      listed.models.map((m: { id: string; servers: string[] }) => [m.id, m.servers]),
      [
        ['alpha-7b', [alpha.url]],
        ['beta-3b', [beta.url]],
      ],
    );
    const a = await newThread();
    const b = await newThread();
    await patch(a, { model: 'beta-3b' });
    await patch(b, { model: 'alpha-7b' });
    for (let i = 0; i < 2; i++) {
      await send(a, `Question ${i} for beta`);
      await send(b, `Question ${i} for alpha`);
    }
    const firstWords = (d: LlamaDouble) =>
      new Set(
        turnRequests(d)
          .filter((r) => !r.schema)
          .map((r) => JSON.stringify(r.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '').includes('for beta')),
      );
    assert.deepEqual(firstWords(beta), new Set([true]), "beta's server has only the beta thread's rounds");
    assert.deepEqual(firstWords(alpha), new Set([false]), "alpha's server has only the alpha thread's rounds");
    assert.ok(turnRequests(alpha).length > 0 && turnRequests(beta).length > 0);
    assert.equal((await answers(a)).at(-1)!.model, 'beta-3b');
    assert.equal((await answers(b)).at(-1)!.model, 'alpha-7b');
  });
});

describe('a checks model', () => {
  test('decide steps go to the checks model, rounds to the conversation model, and each record says which model decided', async () => {
    const router = await double({
      router: {
        models: [
          { id: 'qwen3-30b-a3b', loaded: true },
          { id: 'qwen3-0.6b', loaded: true },
        ],
      },
    });
    await makeRuntime({ llamaUrl: router.url, searxUrl: searx.url, env: { HEARTH_CHECKS_MODEL: 'qwen3-0.6b' } });
    const id = await newThread();
    await patch(id, { model: 'qwen3-30b-a3b' });
    const evs = await send(id, 'What is the capital of France?');
    assert.equal(evs.at(-1)!.type, 'done');
    const requests = turnRequests(router);
    const checks = requests.filter((r) => r.schema);
    const conversation = requests.filter((r) => !r.schema);
    assert.ok(checks.length > 0, 'the turn had checks');
    assert.deepEqual(new Set(checks.map((r) => r.body.model)), new Set(['qwen3-0.6b']));
    assert.deepEqual(new Set(conversation.map((r) => r.body.model)), new Set(['qwen3-30b-a3b']));
    // The model's decisions (the classifier's and the program's are Hearth's own, with no model call).
    const records = evs.flatMap((e) =>
      e.type === 'decision' && e.record.source !== 'classifier' && e.record.source !== 'program' ? [e.record] : [],
    );
    assert.ok(records.length > 0);
    assert.deepEqual(new Set(records.map((r) => r.modelId)), new Set(['qwen3-0.6b']), 'each record names the model that decided');
    // The title is background work of the checks model too.
    const titles = router.requests.filter((r) => isTitleRequest(r));
    assert.ok(titles.length > 0);
    assert.deepEqual(new Set(titles.map((r) => r.body.model)), new Set(['qwen3-0.6b']));
  });
});
