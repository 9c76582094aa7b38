import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HearthError } from '@/lib/shared/errors';
import { ModelPool } from './pool';
import type { ChatOptions, ChatRequest, ChatResult, ModelClient, ModelHealth } from './types';

/** A model server stand-in: says its slots, records what it was sent, fails when told to. */
function server(url: string, opts: { slots?: number; contextSize?: number; models?: string[] } = {}) {
  const state = {
    requests: [] as ChatRequest[],
    reachable: true,
    /** The next chat calls fail with this (once each). */
    failures: [] as { error: HearthError; afterDelta?: string }[],
  };
  const client: ModelClient = {
    async health(): Promise<ModelHealth> {
      return state.reachable
        ? {
            url,
            reachable: true,
            id: `model@${url}`,
            ...(opts.slots ? { slots: opts.slots } : {}),
            ...(opts.contextSize ? { contextSize: opts.contextSize } : {}),
            ...(opts.models ? { models: opts.models } : {}),
          }
        : { url, reachable: false, error: 'connection refused' };
    },
    async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
      state.requests.push(request);
      const failure = state.failures.shift();
      if (failure) {
        if (failure.afterDelta) options.onDelta?.(failure.afterDelta);
        throw failure.error;
      }
      options.onDelta?.(`answer from ${url}`);
      return {
        content: `answer from ${url}`,
        reasoning: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        tokenProbs: null,
        model: url,
      };
    },
  };
  return { url, client, state };
}

const unreachable = () => new HearthError('model_unreachable', 'The model server cannot be reached.');
const conversation = (text = 'hi'): ChatRequest => ({ messages: [{ role: 'user', content: text }], lane: 'conversation' });
const side = (): ChatRequest => ({ messages: [{ role: 'user', content: 'verdict?' }], jsonSchema: { type: 'object' } });
const idSlot = (r: ChatRequest) => r.extra?.id_slot;

describe('the queue in front of the slots', () => {
  test('one turn per slot; the rest wait in order and hear their place', async () => {
    const pool = new ModelPool([server('http://a', { slots: 1 })]);
    const heard: Record<string, number[]> = { b: [], c: [] };
    assert.ok(await pool.enter('a', 'ta', () => assert.fail('a runs at once')));
    let bIn = false;
    let cIn = false;
    const b = pool.enter('b', 'tb', (p) => heard.b.push(p)).then((l) => (bIn = l !== null));
    const c = pool.enter('c', 'tc', (p) => heard.c.push(p)).then((l) => (cIn = l !== null));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(heard, { b: [1], c: [2] });
    pool.leave('a');
    await b;
    assert.equal(bIn, true);
    assert.equal(cIn, false);
    assert.deepEqual(heard.c, [2, 1]);
    pool.leave('b');
    await c;
    assert.deepEqual(pool.stats, { running: 1, waiting: 0, slots: 1 });
  });

  test("waiting turns are served round-robin by person: one person's five do not hold another's one behind them", async () => {
    const pool = new ModelPool([server('http://a', { slots: 1 })]);
    const order: string[] = [];
    const heard: Record<string, number[]> = {};
    const enter = (turn: string, person: string) => {
      heard[turn] = [];
      return pool
        .enter(turn, `t-${turn}`, (p) => heard[turn].push(p), { person })
        .then((lease) => {
          if (lease) order.push(turn);
        });
    };
    const tick = () => new Promise((r) => setImmediate(r));
    const ann = ['a1', 'a2', 'a3', 'a4', 'a5'].map((t) => enter(t, 'ann'));
    await tick();
    const ben = enter('b1', 'ben');
    await tick();
    // Ann's first runs; Ben's one goes ahead of her four waiting, and each of hers hears it move her back.
    assert.deepEqual(order, ['a1']);
    assert.deepEqual(heard.b1, [1]);
    assert.deepEqual(heard.a2, [1, 2]);
    assert.deepEqual(heard.a5, [4, 5]);
    // Ben's second waits behind Ann's second (one each, in turn).
    const ben2 = enter('b2', 'ben');
    await tick();
    assert.deepEqual(heard.b2, [3]);
    for (const turn of ['a1', 'b1', 'a2', 'b2', 'a3', 'a4']) {
      pool.leave(turn);
      await tick();
    }
    await Promise.all([...ann, ben, ben2]);
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'b2', 'a3', 'a4', 'a5']);
  });

  test('a waiting turn that is stopped leaves the queue with no lease', async () => {
    const pool = new ModelPool([server('http://a', { slots: 1 })]);
    await pool.enter('a', 'ta', () => undefined);
    const b = pool.enter('b', 'tb', () => undefined);
    await new Promise((r) => setImmediate(r));
    pool.leave('b');
    assert.equal(await b, null);
    assert.deepEqual(pool.stats, { running: 1, waiting: 0, slots: 1 });
  });
});

describe('slots', () => {
  test('with two slots or more the last is for side calls: a verdict never lands on a conversation slot', async () => {
    const a = server('http://a', { slots: 3 });
    const pool = new ModelPool([a]);
    const first = (await pool.enter('t1', 'thread-1', () => undefined))!;
    const second = (await pool.enter('t2', 'thread-2', () => undefined))!;
    assert.equal(first.parallelSideCalls, true);
    await first.model.chat(conversation());
    await second.model.chat(conversation());
    await first.model.chat(side());
    await second.model.chat(side());
    assert.deepEqual(a.state.requests.map(idSlot), [0, 1, 2, 2]);
    // Two conversation slots: a third turn waits.
    let third = false;
    void pool.enter('t3', 'thread-3', () => undefined).then(() => (third = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(third, false);
    assert.equal(pool.stats.slots, 2);
  });

  test('with one slot, conversation and side calls share it, and side calls do not run beside rounds', async () => {
    const a = server('http://a', { slots: 1 });
    const lease = (await new ModelPool([a]).enter('t', 'th', () => undefined))!;
    assert.equal(lease.parallelSideCalls, false);
    await lease.model.chat(conversation());
    await lease.model.chat(side());
    assert.deepEqual(a.state.requests.map(idSlot), [0, 0]);
  });

  test('background work runs only while no turn runs or waits, on the side slot, and a turn that arrives stops it', async () => {
    const a = server('http://a', { slots: 3 });
    const pool = new ModelPool([a]);
    await pool.ready();
    const lane = pool.idle()!;
    assert.ok(lane, 'an idle pool lends its model');
    await lane.model.chat({ messages: [{ role: 'user', content: 'title?' }] });
    assert.equal(idSlot(a.state.requests[0]), 2, 'on the side slot, away from the conversations');
    assert.equal(lane.signal.aborted, false);
    const entering = pool.enter('t', 'th', () => undefined);
    assert.equal(lane.signal.aborted, true, 'the turn stopped the background call as it arrived');
    lane.release();
    await entering;
    assert.equal(pool.idle(), null, 'nothing in the background while a turn runs');
    pool.leave('t');
    assert.ok(pool.idle(), 'free again once it ended');
  });

  test('a server that did not report slots (a gateway, not llama-server) gets no id_slot', async () => {
    const a = server('http://gateway');
    const lease = (await new ModelPool([a]).enter('t', 'th', () => undefined))!;
    await lease.model.chat(conversation());
    assert.equal(a.state.requests[0].extra, undefined);
  });

  test("a thread's next turn goes to the slot that holds its cache when it is free", async () => {
    const a = server('http://a', { slots: 3 });
    const pool = new ModelPool([a]);
    const slotOf = async (turn: string, thread: string) => {
      const lease = (await pool.enter(turn, thread, () => undefined))!;
      await lease.model.chat(conversation());
      return idSlot(a.state.requests.at(-1)!);
    };
    assert.equal(await slotOf('1', 'x'), 0);
    assert.equal(await slotOf('2', 'y'), 1);
    pool.leave('1');
    pool.leave('2');
    assert.equal(await slotOf('3', 'y'), 1, 'y goes back to slot 1, though 0 is free');
    assert.equal(await slotOf('4', 'x'), 0);
  });

  test('the lease carries the model and context size of its server', async () => {
    const lease = (await new ModelPool([server('http://a', { slots: 1, contextSize: 8192 })]).enter('t', 'th', () => undefined))!;
    assert.equal(lease.modelId, 'model@http://a');
    assert.equal(lease.contextSize, 8192);
  });
});

describe('several servers', () => {
  test('new turns spread over the servers with free slots; a thread stays on its server', async () => {
    const a = server('http://a', { slots: 1 });
    const b = server('http://b', { slots: 1 });
    const pool = new ModelPool([a, b]);
    const l1 = (await pool.enter('1', 'x', () => undefined))!;
    const l2 = (await pool.enter('2', 'y', () => undefined))!;
    assert.deepEqual([l1.url, l2.url], ['http://a', 'http://b']);
    pool.leave('1');
    pool.leave('2');
    const again = (await pool.enter('3', 'y', () => undefined))!;
    assert.equal(again.url, 'http://b');
    assert.equal(pool.stats.slots, 2);
  });

  test('a server that fails before anything streamed is marked down and the call moves to another', async () => {
    const a = server('http://a', { slots: 1 });
    const b = server('http://b', { slots: 1 });
    const log: string[] = [];
    const pool = new ModelPool([a, b], { log: (m) => log.push(m) });
    const lease = (await pool.enter('1', 'x', () => undefined))!;
    assert.equal(lease.url, 'http://a');
    a.state.failures.push({ error: unreachable() });
    a.state.reachable = false;
    const deltas: string[] = [];
    const result = await lease.model.chat(conversation(), { onDelta: (t) => deltas.push(t) });
    assert.equal(result.content, 'answer from http://b');
    assert.deepEqual(deltas, ['answer from http://b']);
    assert.deepEqual(
      pool.status.map((s) => [s.url, s.up]),
      [
        ['http://a', false],
        ['http://b', true],
      ],
    );
    assert.ok(log.some((m) => /http:\/\/a is down/.test(m)));
    // Later calls of the turn stay on b; new turns go to b while a is down.
    await lease.model.chat(side());
    assert.equal(b.state.requests.length, 2);
    pool.leave('1');
    assert.equal((await pool.enter('2', 'y', () => undefined))!.url, 'http://b');
    pool.leave('2');
    // a comes back when it answers its health check again.
    a.state.reachable = true;
    await pool.refresh();
    assert.equal(pool.status[0].up, true);
    pool.close();
  });

  test('a round and a check failing on the same dead server at once move the turn once, and both are answered', async () => {
    // The hang of a stopped server: each failed call moved the turn on its own, and the second
    // waited for the slot the first had just taken for the same turn, forever.
    const a = server('http://a', { slots: 2 });
    const b = server('http://b', { slots: 2 });
    const pool = new ModelPool([a, b]);
    const lease = (await pool.enter('1', 'x', () => undefined))!;
    assert.equal(lease.url, 'http://a');
    a.state.failures.push({ error: unreachable() }, { error: unreachable() });
    const [round, check] = await Promise.all([lease.model.chat(conversation(), { onDelta: () => undefined }), lease.model.chat(side())]);
    assert.equal(round.content, 'answer from http://b');
    assert.equal(check.content, 'answer from http://b');
    assert.deepEqual(b.state.requests.map(idSlot), [0, 1], "the round on b's turn slot, the check on its side slot");
    assert.deepEqual(pool.stats, { running: 1, waiting: 0, slots: 1 });
    pool.leave('1');
    assert.deepEqual(pool.stats, { running: 0, waiting: 0, slots: 1 });
    pool.close();
  });

  test('a call that fails after its turn left the pool takes no slot again', async () => {
    const a = server('http://a', { slots: 1 });
    const b = server('http://b', { slots: 1 });
    const pool = new ModelPool([a, b]);
    const lease = (await pool.enter('1', 'x', () => undefined))!;
    pool.leave('1');
    a.state.failures.push({ error: unreachable() });
    await assert.rejects(lease.model.chat(side()), (e: unknown) => e instanceof HearthError && e.code === 'model_unreachable');
    assert.equal(b.state.requests.length, 0);
    assert.deepEqual(pool.stats, { running: 0, waiting: 0, slots: 2 });
    pool.close();
  });

  test('a turn waiting to move off a failed server is let go at once when the last other server fails too', async () => {
    const a = server('http://a', { slots: 1 });
    const b = server('http://b', { slots: 1 });
    const pool = new ModelPool([a, b]);
    const onA = (await pool.enter('1', 'x', () => undefined))!;
    const onB = (await pool.enter('2', 'y', () => undefined))!;
    assert.deepEqual([onA.url, onB.url], ['http://a', 'http://b']);
    a.state.failures.push({ error: unreachable() });
    // 1 fails on a and waits for b's only slot, which 2 holds...
    const moving = onA.model.chat(conversation());
    await new Promise((r) => setImmediate(r));
    assert.equal(pool.stats.waiting, 1);
    // ...then 2 fails on b: nowhere is left, and both end now, not at the next health check.
    b.state.failures.push({ error: unreachable() });
    await assert.rejects(onB.model.chat(conversation()), (e: unknown) => e instanceof HearthError && e.code === 'model_unreachable');
    await assert.rejects(moving, (e: unknown) => e instanceof HearthError && e.code === 'model_unreachable');
    pool.leave('1');
    pool.leave('2');
    assert.deepEqual(pool.stats, { running: 0, waiting: 0, slots: 0 });
    pool.close();
  });

  test('background work that finds its server gone marks it down, and a call it answers marks it up', async () => {
    const a = server('http://a', { slots: 2 });
    const b = server('http://b', { slots: 2 });
    const pool = new ModelPool([a, b]);
    await pool.ready();
    const work = pool.idle()!;
    a.state.failures.push({ error: unreachable() });
    await assert.rejects(work.model.chat(side()));
    work.release();
    assert.deepEqual(
      pool.status.map((s) => s.up),
      [false, true],
    );
    // A turn that lands on a (every other server down, so it is placed anyway) and is answered brings it back.
    b.state.reachable = false;
    await pool.refresh();
    const lease = (await pool.enter('1', 'x', () => undefined))!;
    await lease.model.chat(conversation());
    assert.equal(pool.status.find((s) => s.url === lease.url)!.up, true);
    pool.close();
  });

  test('a stream that breaks after text reached the user is not retried elsewhere', async () => {
    const a = server('http://a', { slots: 1 });
    const b = server('http://b', { slots: 1 });
    const pool = new ModelPool([a, b]);
    const lease = (await pool.enter('1', 'x', () => undefined))!;
    a.state.failures.push({ error: new HearthError('model_stream_broken', 'cut'), afterDelta: 'Half an ans' });
    await assert.rejects(
      lease.model.chat(conversation(), { onDelta: () => undefined }),
      (e: unknown) => e instanceof HearthError && e.code === 'model_stream_broken',
    );
    assert.equal(b.state.requests.length, 0);
    pool.close();
  });

  test('a request the server refused (an HTTP error) does not mark it down', async () => {
    const a = server('http://a', { slots: 1 });
    const pool = new ModelPool([a, server('http://b', { slots: 1 })]);
    const lease = (await pool.enter('1', 'x', () => undefined))!;
    a.state.failures.push({ error: new HearthError('context_overflow', 'too long') });
    await assert.rejects(lease.model.chat(conversation()));
    assert.equal(pool.status[0].up, true);
  });

  test('with every server down a turn is still placed, so it ends with a clear error rather than waiting', async () => {
    const a = server('http://a', { slots: 1 });
    a.state.reachable = false;
    const pool = new ModelPool([a]);
    const lease = await pool.enter('1', 'x', () => undefined);
    assert.ok(lease);
    a.state.failures.push({ error: unreachable() });
    await assert.rejects(lease.model.chat(conversation()), (e: unknown) => e instanceof HearthError && e.code === 'model_unreachable');
    pool.close();
  });

  test('combine: reachable while any server is; one server reports as itself', () => {
    const up = {
      url: 'http://a',
      reachable: true,
      id: 'm',
      contextSize: 8192,
      slots: 2,
      up: true,
      running: 0,
      conversationSlots: 1,
      sideSlot: true,
    };
    const down = { url: 'http://b', reachable: false, error: 'refused', up: false, running: 0, conversationSlots: 1, sideSlot: false };
    assert.deepEqual(ModelPool.combine([up]), { url: 'http://a', reachable: true, id: 'm', contextSize: 8192, slots: 2 });
    assert.deepEqual(ModelPool.combine([up, down]), {
      url: 'http://a, http://b',
      reachable: true,
      id: 'm',
      contextSize: 8192,
      slots: 2,
      vision: false,
    });
    assert.equal(
      ModelPool.combine([
        { ...up, vision: true },
        { ...up, url: 'http://c', vision: true },
      ]).vision,
      true,
      'vision when every reachable server sees images',
    );
    assert.equal(
      ModelPool.combine([
        { ...up, vision: true },
        { ...up, url: 'http://c' },
      ]).vision,
      false,
      'a turn may move to the one that does not',
    );
    const none = ModelPool.combine([{ ...up, reachable: false, error: 'x' }, down]);
    assert.equal(none.reachable, false);
    assert.match(none.error ?? '', /http:\/\/a: x; http:\/\/b: refused/);
  });
});

describe('models', () => {
  test('a turn goes to a server that offers its model, waits for one when those are busy, and asks for it by name', async () => {
    const a = server('http://a', { slots: 1, models: ['alpha'] });
    const b = server('http://b', { slots: 1, models: ['beta', 'gamma'] });
    const pool = new ModelPool([a, b]);
    await pool.ready();
    const first = await pool.enter('t1', 'x', () => undefined, { model: 'beta' });
    assert.equal(first!.url, 'http://b');
    assert.equal(first!.modelId, 'beta');
    await first!.model.chat(conversation());
    assert.equal(b.state.requests[0].model, 'beta');
    // b is busy and a does not offer gamma: the next gamma turn waits for b, though a is free.
    let heard = 0;
    const second = pool.enter('t2', 'y', (n) => (heard = n), { model: 'gamma' });
    await new Promise((r) => setImmediate(r));
    assert.equal(heard, 1);
    pool.leave('t1');
    assert.equal((await second)!.url, 'http://b');
    // A model no server lists is placed anyway: its server's refusal ends the turn.
    const lost = await pool.enter('t3', 'z', () => undefined, { model: 'nobody' });
    assert.equal(lost!.url, 'http://a');
    await lost!.model.chat(conversation());
    assert.equal(a.state.requests.at(-1)!.model, 'nobody');
    pool.close();
  });

  test('side calls ask for the checks model: on the turn server when it has it, else on a server that does; conversation calls keep the turn model', async () => {
    const a = server('http://a', { slots: 2, models: ['big'] });
    const b = server('http://b', { slots: 2, models: ['small'] });
    const pool = new ModelPool([a, b], { checksModel: 'small' });
    await pool.ready();
    const lease = await pool.enter('t', 'x', () => undefined, { model: 'big' });
    assert.equal(lease!.url, 'http://a');
    await lease!.model.chat(conversation());
    await lease!.model.chat(side());
    assert.deepEqual(
      a.state.requests.map((r) => r.model),
      ['big'],
    );
    assert.deepEqual(
      b.state.requests.map((r) => [r.model, idSlot(r)]),
      [['small', 1]],
      "on b's side slot",
    );
    pool.leave('t');
    // Background work (titles) asks for it too.
    const idle = pool.idle()!;
    await idle.model.chat(side());
    idle.release();
    assert.equal(b.state.requests.at(-1)!.model, 'small');
    pool.close();
  });

  test('a cold model behind a router is said to load until its first words, once per turn and model', async () => {
    const a = server('http://a', { models: ['warm', 'cold'] });
    const asked: string[] = [];
    const pool = new ModelPool([a], { loadState: async (_url, model) => (asked.push(model), model === 'cold' ? 'unloaded' : 'loaded') });
    await pool.ready();
    const heard: string[] = [];
    const lease = await pool.enter('t', 'x', () => undefined, { model: 'cold', onLoading: (m, loading) => heard.push(`${m}:${loading}`) });
    const deltas: string[] = [];
    await lease!.model.chat(conversation(), { onDelta: () => (deltas.push(`${heard.length}`), undefined) });
    assert.deepEqual(heard, ['cold:true', 'cold:false'], 'loading, then loaded when the first words came');
    assert.deepEqual(deltas, ['2'], 'the words came after it was said to be loaded');
    await lease!.model.chat(conversation());
    assert.deepEqual(asked, ['cold'], 'asked once per turn');
    assert.equal(heard.length, 2);
    pool.leave('t');
    const warm = await pool.enter('u', 'y', () => undefined, {
      model: 'warm',
      onLoading: () => assert.fail('a warm model is not loading'),
    });
    await warm!.model.chat(conversation());
    pool.close();
  });
});

describe('exact values of the queue, the placement and the health', () => {
  test('a turn leaving from the middle of the queue moves only those behind it up, each told its new place', async () => {
    const pool = new ModelPool([server('http://a', { slots: 1 })]);
    await pool.enter('run', 't0', () => undefined);
    const heard = new Map<string, number[]>();
    const waiting = ['w1', 'w2', 'w3', 'w4'].map((id) => pool.enter(id, `t-${id}`, (p) => heard.set(id, [...(heard.get(id) ?? []), p])));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual([...heard.values()], [[1], [2], [3], [4]]);
    pool.leave('w2');
    assert.equal(await waiting[1], null);
    assert.deepEqual(Object.fromEntries(heard), { w1: [1, 1], w2: [2], w3: [3, 2], w4: [4, 3] });
    assert.deepEqual(pool.stats, { running: 1, waiting: 3, slots: 1 });
    pool.leave('run');
    assert.ok(await waiting[0], 'the head goes first');
    assert.deepEqual([heard.get('w3')!.at(-1), heard.get('w4')!.at(-1)], [1, 2]);
  });

  test('a new turn goes to the server with the most free conversation slots; between equals, the first listed', async () => {
    // /props slots 3, 4 and 2: conversation slots 2, 3 and 1 (the last of two or more is for side calls).
    const [a, b, c] = [server('http://a', { slots: 3 }), server('http://b', { slots: 4 }), server('http://c', { slots: 2 })];
    const pool = new ModelPool([a, b, c]);
    assert.deepEqual(
      (await pool.ready()).map((s) => [s.url, s.conversationSlots, s.sideSlot]),
      [
        ['http://a', 2, true],
        ['http://b', 3, true],
        ['http://c', 1, true],
      ],
    );
    assert.equal(pool.stats.slots, 6);
    const urls: string[] = [];
    for (let i = 0; i < 6; i++) urls.push((await pool.enter(`t${i}`, `thread${i}`, () => undefined))!.url);
    // free (2,3,1) → b; (2,2,1) → a (first of equals); (1,2,1) → b; (1,1,1) → a; (0,1,1) → b; (0,0,1) → c.
    assert.deepEqual(urls, ['http://b', 'http://a', 'http://b', 'http://a', 'http://b', 'http://c']);
  });

  test('the slots setting (MODEL_SLOTS) wins over what /props says', async () => {
    const pool = new ModelPool([server('http://a', { slots: 8 })], { slots: 3 });
    const [s] = await pool.ready();
    assert.deepEqual([s.conversationSlots, s.sideSlot], [2, true]);
    assert.equal(pool.stats.slots, 2);
    const one = new ModelPool([server('http://a', { slots: 8 })], { slots: 1 });
    assert.deepEqual(
      (await one.ready()).map((x) => [x.conversationSlots, x.sideSlot]),
      [[1, false]],
    );
  });

  test('a down server is asked again every recheckMs, not before, and takes turns once it answers', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const a = server('http://a', { slots: 1 });
    const b = server('http://b', { slots: 1 });
    b.state.reachable = false;
    let asked = 0;
    const health = b.client.health.bind(b.client);
    b.client.health = () => {
      asked++;
      return health();
    };
    const pool = new ModelPool([a, b], { recheckMs: 5_000 });
    await pool.ready();
    assert.equal(asked, 1, 'the first check');
    t.mock.timers.tick(4_999);
    await new Promise((r) => setImmediate(r));
    assert.equal(asked, 1, 'not before the interval');
    t.mock.timers.tick(1);
    await new Promise((r) => setImmediate(r));
    assert.equal(asked, 2, 'again at 5 s');
    b.state.reachable = true;
    t.mock.timers.tick(5_000);
    await new Promise((r) => setImmediate(r));
    assert.equal(asked, 3);
    assert.deepEqual(
      pool.status.map((s) => [s.url, s.up]),
      [
        ['http://a', true],
        ['http://b', true],
      ],
    );
    t.mock.timers.tick(20_000);
    await new Promise((r) => setImmediate(r));
    assert.equal(asked, 3, 'with every server up, nothing is asked in the background');
  });

  test('combined health: the smallest context of those reachable, the slots of all, the first reachable model; none reachable keeps the status', () => {
    const base = { reachable: true, up: true, running: 0, conversationSlots: 1, sideSlot: true };
    const combined = ModelPool.combine([
      { ...base, url: 'http://a', reachable: false, up: false, slots: 4, contextSize: 2048, error: 'refused' },
      { ...base, url: 'http://b', id: 'qwen', contextSize: 16384, slots: 2 },
      { ...base, url: 'http://c', id: 'llama', contextSize: 8192, slots: 3 },
    ]);
    assert.deepEqual(combined, {
      url: 'http://a, http://b, http://c',
      reachable: true,
      id: 'qwen',
      contextSize: 8192,
      slots: 9,
      vision: false,
    });
    const none = ModelPool.combine([
      { ...base, url: 'http://a', reachable: false, error: 'loading', answeredStatus: 503 },
      { ...base, url: 'http://b', reachable: false },
    ]);
    assert.deepEqual(none, {
      url: 'http://a, http://b',
      reachable: false,
      slots: 0,
      vision: false,
      error: 'http://a: loading; http://b: no answer',
      answeredStatus: 503,
    });
  });
});
