import assert from 'node:assert/strict';
import net from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { setRuntime, type Runtime } from '@/lib/services/runtime';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { makeRuntime, newThread, rounds, send, serverLog, type Ev } from './harness';

/**
 * Two llama-servers behind LLAMA_URL, each with a side slot (so checks run beside the rounds),
 * and one of them stopping while nothing runs: a GPU box rebooted, a llama-swap restart. The
 * turns of its threads move to the other at once, queued turns run, a turn with every server
 * down ends with a clear error, and a server that comes back is used again. Every test bounds
 * itself with the deadlines it sets (MODEL_TIMEOUT_MS), never with a sleep.
 */

let searx: SearxDouble;
let doubles: LlamaDouble[] = [];
let runtime: Runtime | undefined;

before(async () => {
  searx = await startSearxDouble();
});
afterEach(async () => {
  runtime?.models.close();
  runtime = undefined;
  setRuntime(undefined);
  await Promise.all(doubles.map((d) => d.close().catch(() => undefined)));
  doubles = [];
});
after(() => searx.close());

async function double(port = 0): Promise<LlamaDouble> {
  const d = await startLlamaDouble({ slots: 2 }, port);
  doubles.push(d);
  return d;
}

/** Hearth on both doubles, slots read from their /props (two each: one for turns, one for checks). */
async function hearthOn(servers: LlamaDouble[], env: Record<string, string> = {}): Promise<Runtime> {
  runtime = await makeRuntime({
    llamaUrl: servers.map((d) => d.url).join(','),
    searxUrl: searx.url,
    env: { MODEL_SLOTS: '', MODEL_TIMEOUT_MS: '20000', HEARTH_TITLES: 'first-words', ...env },
  });
  return runtime;
}

const last = (evs: Ev[]) => evs.at(-1)!;
/** Resolves once `ok()` holds, asking every 20 ms; fails past `deadlineMs`. */
async function until(ok: () => boolean, deadlineMs: number) {
  const end = Date.now() + deadlineMs;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`not so within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const answered = (evs: Ev[], what: string) => assert.equal(last(evs).type, 'done', `${what}: ${JSON.stringify(last(evs))}`);
/** The conversation rounds a double was sent for one thread's question. */
const roundsAbout = (d: LlamaDouble, words: string) => rounds(d).filter((r) => JSON.stringify(r.messages).includes(words));
const sideCalls = (d: LlamaDouble) => d.requests.filter((r) => r.schema && !isTitleRequest(r));

/** Two threads answered at the same time, so each starts on its own server; returns them as [on a, on b]. */
async function threadsOnBoth(a: LlamaDouble, b: LlamaDouble): Promise<[string, string]> {
  const [x, y] = [await newThread(), await newThread()];
  const [ex, ey] = await Promise.all([send(x, 'What is the weather today in Oslo?'), send(y, 'What is the weather today in Lima?')]);
  answered(ex, 'first turn of x');
  answered(ey, 'first turn of y');
  const xOnA = roundsAbout(a, 'Oslo').length > 0;
  assert.equal(xOnA, roundsAbout(b, 'Lima').length > 0, 'the two threads started on different servers');
  return xOnA ? [x, y] : [y, x];
}

/**
 * A double behind a TCP relay that can go silent: connections stay open (new ones are still
 * accepted) but nothing more passes either way, as when the box behind a pooled keep-alive
 * connection loses power. `url` stands for the server.
 */
async function silenceable(target: LlamaDouble) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(target.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (c) => void (silent || upstream.write(c)));
    upstream.on('data', (c) => void (silent || client.write(c)));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}/v1`;
  return {
    url,
    silence: () => void (silent = true),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => relay.close(r));
    },
  };
}

describe('a model server that stops between turns', () => {
  test('one that goes silent (connected, answering nothing) misses its deadline and its threads move', async (t) => {
    const warned = t.mock.method(console, 'warn');
    const [a, b] = [await double(), await double()];
    const relay = await silenceable(a);
    try {
      runtime = await makeRuntime({
        llamaUrl: `${relay.url},${b.url}`,
        searxUrl: searx.url,
        env: { MODEL_SLOTS: '', MODEL_TIMEOUT_MS: '60000', MODEL_FIRST_BYTE_TIMEOUT_MS: '300', HEARTH_TITLES: 'first-words' },
      });
      const [onA] = await threadsOnBoth(a, b);
      relay.silence();
      const evs = await send(onA, 'Tell me about owls today.');
      answered(evs, 'the turn after the silence');
      assert.ok(roundsAbout(b, 'owls').length > 0, 'answered by the other server');
      assert.deepEqual(
        runtime.models.status.map((s) => s.up),
        [false, true],
      );
      assert.match(runtime.models.status[0].error ?? '', /sent nothing back within 300 ms/);
      // Said in the server's log, which a test keeps out of the run's output (it printed there before).
      assert.ok(serverLog.some((m) => new RegExp(`model server ${relay.url} is down .*turns go to the others`).test(m)));
      assert.equal(warned.mock.callCount(), 0, 'nothing the test expects is printed');
    } finally {
      await relay.close();
    }
  });

  test('the next turns of its threads are answered by the other at once, and turns queued behind them run', async () => {
    const [a, b] = [await double(), await double()];
    await hearthOn([a, b]);
    const [onA, onB] = await threadsOnBoth(a, b);
    // A third thread, alone: it starts on the first server with a free slot, a.
    const alsoOnA = await newThread();
    answered(await send(alsoOnA, 'What is the weather today in Rome?'), 'first turn of the third thread');
    assert.ok(roundsAbout(a, 'Rome').length > 0, 'the third thread started on a');
    await a.close();
    const before = rounds(b).length;
    // Three turns at once with one conversation slot left: two wait in the queue and must still run.
    const turns = await Promise.all([
      send(onA, 'Tell me about owls today.'),
      send(onB, 'Tell me about foxes today.'),
      send(alsoOnA, 'And about bats today?'),
    ]);
    turns.forEach((evs, i) => answered(evs, `turn ${i + 1} after the stop`));
    assert.ok(rounds(b).length >= before + 3, 'every turn ran on the server still up');
    assert.ok(
      turns.some((evs) => evs.some((e) => e.type === 'status' && e.stage === 'queued')),
      'some waited their turn',
    );
    assert.deepEqual(
      runtime!.models.status.map((s) => s.up),
      [false, true],
    );
    assert.deepEqual(runtime!.models.stats, { running: 0, waiting: 0, slots: 1 }, 'every slot was given back');
  });

  test('a check under way when its server stops moves with the turn; its side slot is not waited for', async () => {
    const [a, b] = [await double(), await double()];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let checkArrived!: () => void;
    const checkSeen = new Promise<void>((r) => (checkArrived = r));
    // The next check on a is held until a stops: the side call is in flight when the server goes.
    a.setScript((req) => {
      if (req.schema && !isTitleRequest(req)) {
        checkArrived();
        return { content: '{}', hold: { afterTokens: 0, until: held } };
      }
      return { content: 'An answer from a.' };
    });
    await hearthOn([a, b]);
    const id = await newThread();
    const turn = send(id, 'Tell me about the news today.');
    await checkSeen;
    await a.close();
    release();
    const evs = await turn;
    answered(evs, 'the turn whose check was cut');
    assert.ok(sideCalls(b).length > 0, 'the check was asked again on b');
    assert.deepEqual(runtime!.models.stats, { running: 0, waiting: 0, slots: 1 });
  });

  test('with both servers stopped a turn ends at once with the clear error, and the queue is empty after it', async () => {
    const [a, b] = [await double(), await double()];
    await hearthOn([a, b]);
    const [onA, onB] = await threadsOnBoth(a, b);
    await Promise.all([a.close(), b.close()]);
    const turns = await Promise.all([send(onA, 'Anything new today?'), send(onB, 'Anything new today?')]);
    for (const evs of turns) {
      const end = last(evs);
      assert.equal(end.type, 'error', JSON.stringify(end));
      assert.ok(end.type === 'error' && end.code === 'model_unreachable', JSON.stringify(end));
    }
    assert.deepEqual(runtime!.models.stats, { running: 0, waiting: 0, slots: 0 });
  });

  test('a server that comes back is used again after the background check', async () => {
    const [a, b] = [await double(), await double()];
    const rt = await hearthOn([a, b], { MODEL_RECHECK_MS: '50' });
    const [onA] = await threadsOnBoth(a, b);
    const port = a.port;
    await a.close();
    answered(await send(onA, 'Tell me about owls today.'), 'the turn after the stop');
    assert.equal(rt.models.status[0].up, false);
    const back = await double(port);
    // The background check runs every 50 ms: it has seen the server again well within 5 s.
    await until(() => rt.models.status[0].up, 5000);
    // The moved thread stays where its prompt cache now is; a new thread starts on the server that came back.
    answered(await send(await newThread(), 'Tell me about moths today.'), 'a new thread after the return');
    assert.ok(roundsAbout(back, 'moths').length > 0, 'the server that came back answered it');
  });
});
