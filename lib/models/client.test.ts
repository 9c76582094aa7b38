import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { APIConnectionError } from 'openai';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { HearthError } from '@/lib/shared/errors';
import { createLlamaClient, deadlineFetch, mapModelError, unreachableReason } from './client';

const dir = path.resolve(import.meta.dirname, '../../e2e/double/samples');
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

/** Serves captured bodies byte for byte: the real server's words replayed through our client. */
let replay: http.Server;
let replayUrl = '';
const queue: { status: number; type: string; body: string }[] = [];
let replayRequests = 0;
const serve = (status: number, type: string, body: string) => queue.push({ status, type, body });
const serveSample = (name: string, status = 200) => serve(status, 'application/json', read(name));
const serveSse = (name: string) => serve(200, 'text/event-stream', read(name).replace(/^HTTP[^\n]*\n/, ''));

let double: LlamaDouble;
before(async () => {
  replay = http.createServer((req, res) => {
    replayRequests++;
    req.resume();
    req.on('end', () => {
      const next = queue.shift();
      if (!next) return void res.writeHead(500).end('no sample queued');
      res.writeHead(next.status, { 'Content-Type': next.type }).end(next.body);
    });
  });
  await new Promise<void>((r) => replay.listen(0, '127.0.0.1', r));
  replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}/v1`;
  double = await startLlamaDouble();
});
after(async () => {
  await new Promise((r) => replay.close(r));
  await double.close();
});

// A test that scripts the double leaves it as it found it, even when it fails.
afterEach(() => double?.setScript(undefined));

const replayClient = () => createLlamaClient({ baseURL: replayUrl, timeoutMs: 5000 });
const msgs = [{ role: 'user' as const, content: 'hi' }];
async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (err) {
    assert.ok(err instanceof HearthError, String(err));
    return err.code;
  }
}

describe('model client against the captured samples', () => {
  test('plain, non-streamed (10)', async () => {
    serveSample('10-chat-plain.response.json');
    const r = await replayClient().chat({ messages: msgs });
    assert.equal(r.content, JSON.parse(read('10-chat-plain.response.json')).choices[0].message.content);
    assert.equal(r.finishReason, 'stop');
    assert.deepEqual(r.usage, { promptTokens: 31, completionTokens: 19, cachedTokens: 0 });
    assert.equal(r.model, 'tiny-toy');
    // llama.cpp's own timings, as captured: 19 tokens in 49.127 ms.
    assert.deepEqual(
      [r.timings?.predictedTokens, r.timings?.predictedMs, Math.round(r.timings?.predictedPerSecond ?? 0)],
      [19, 49.127, 366],
    );
  });

  test('streamed content is assembled and reported as it arrives (11)', async () => {
    serveSse('11-chat-plain-stream.sse');
    const pieces: string[] = [];
    const r = await replayClient().chat({ messages: msgs }, { onDelta: (t) => pieces.push(t) });
    assert.equal(r.content, JSON.parse(read('10-chat-plain.response.json')).choices[0].message.content);
    const contentChunks = read('11-chat-plain-stream.sse').match(/"delta":\{"content":"/g)?.length;
    assert.equal(pieces.length, contentChunks);
    assert.deepEqual(r.usage, { promptTokens: 31, completionTokens: 19, cachedTokens: 30 });
    // The timings come with the last chunk: 30 of 31 prompt tokens were in the cache.
    assert.deepEqual([r.timings?.cachedTokens, r.timings?.promptTokens, Math.round(r.timings?.predictedPerSecond ?? 0)], [30, 1, 303]);
  });

  test('streamed tool-call deltas assemble into whole calls (21, 27)', async () => {
    serveSse('21-tools-required-stream.sse');
    const r = await replayClient().chat({ messages: msgs }, { onDelta: () => undefined });
    assert.equal(r.finishReason, 'tool_calls');
    assert.equal(r.toolCalls.length, 1);
    assert.equal(r.toolCalls[0].name, 'get_time');
    assert.equal(r.toolCalls[0].id.length, 32);
    assert.doesNotThrow(() => JSON.parse(r.toolCalls[0].arguments));
    serveSse('27-tools-auto-content-then-call-stream.sse');
    const r27 = await replayClient().chat({ messages: msgs }, { onDelta: () => undefined });
    assert.ok(r27.content.length > 0, 'content came before the call');
    assert.equal(r27.toolCalls.length, 1);
  });

  test('non-streamed tool calls (20) and grammar-aware probabilities (31)', async () => {
    serveSample('20-tools-required.response.json');
    const r = await replayClient().chat({ messages: msgs });
    assert.equal(r.content, '');
    assert.equal(r.toolCalls[0].name, 'get_time');
    serveSample('31-verdict-post-sampling-probs.response.json');
    const p = await replayClient().chat({ messages: msgs, jsonSchema: { type: 'object' }, tokenProbs: 10 });
    assert.ok(p.tokenProbs && p.tokenProbs.length > 5);
    assert.equal(p.tokenProbs[0].token, '{"');
  });

  test('error bodies map to typed errors, and a 500 is not retried', async () => {
    serveSample('42-error-context-overflow.response.json', 400);
    assert.equal(await code(replayClient().chat({ messages: msgs })), 'context_overflow');
    serveSample('45-error-logprobs-tools-stream.response.json', 400);
    assert.equal(await code(replayClient().chat({ messages: msgs })), 'model_error');
    const before = replayRequests;
    serveSample('4c-error-tools-without-jinja.response.json', 500);
    const err = await replayClient()
      .chat({ messages: msgs })
      .then(
        () => assert.fail('expected an error'),
        (e: unknown) => e as HearthError,
      );
    assert.equal(err.code, 'model_error');
    assert.match(err.message, /tools param requires --jinja flag/);
    assert.equal(replayRequests - before, 1, 'deterministic 500s are not retried');
  });

  test('health reads /models and /props (01, 02)', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/v1/models') res.writeHead(200, { 'Content-Type': 'application/json' }).end(read('01-v1-models.response.json'));
      else if (req.url === '/props') res.writeHead(200, { 'Content-Type': 'application/json' }).end(read('02-props.response.json'));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const h = await createLlamaClient({ baseURL: url, timeoutMs: 1000 }).health();
    server.close();
    assert.equal(h.reachable, true);
    assert.equal(h.id, 'tiny-toy');
    assert.equal(h.contextSize, 2048);
    assert.equal(h.slots, 4);
  });
});

describe('model client against the double', () => {
  test("llama.cpp's own request fields reach the server", async () => {
    double.setScript(() => ({ content: '{"ok": true}' }));
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 5000 });
    await client.chat({
      messages: msgs,
      jsonSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      tokenProbs: 20,
      extra: { chat_template_kwargs: { enable_thinking: false } },
    });
    const body = double.requests.at(-1)!.body;
    assert.equal(body.post_sampling_probs, true);
    assert.equal(body.top_logprobs, 20);
    assert.equal(body.top_k, 0);
    assert.equal(body.min_p, 0);
    assert.deepEqual(body.chat_template_kwargs, { enable_thinking: false });
    assert.deepEqual((body.response_format as { type: string }).type, 'json_schema');
    await client.chat(
      {
        messages: msgs,
        tools: [{ type: 'function', function: { name: 'now', description: 'd', parameters: { type: 'object' } } }],
        toolChoice: 'required',
      },
      { onDelta: () => undefined },
    );
    const streamed = double.requests.at(-1)!.body;
    assert.equal(streamed.tool_choice, 'required');
    assert.equal(streamed.logprobs, undefined, 'no logprobs on a streamed round with tools');
    await client.chat({ messages: msgs }, { onDelta: () => undefined });
    assert.equal(double.requests.at(-1)!.body.tool_choice, undefined, 'tool_choice is never sent without tools');
    double.setScript(undefined);
  });

  test('the model name and API key reach the server', async () => {
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 5000, apiKey: 'sekrit', model: 'qwen-9b' });
    await client.chat({ messages: msgs });
    assert.equal(double.requests.at(-1)!.body.model, 'qwen-9b');
    assert.equal(double.requests.at(-1)!.authorization, 'Bearer sekrit');
    const plain = createLlamaClient({ baseURL: double.url, timeoutMs: 5000 });
    await plain.health();
    await plain.chat({ messages: msgs });
    assert.equal(double.requests.at(-1)!.body.model, 'tiny-toy', 'the id /models reported');
  });

  test('tools and a schema never go in one request', async () => {
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 5000 });
    await assert.rejects(
      client.chat({
        messages: msgs,
        jsonSchema: {},
        tools: [{ type: 'function', function: { name: 'x', description: '', parameters: {} } }],
      }),
    );
  });

  test('a dead server is model_unreachable, at once', async () => {
    const dead = createLlamaClient({ baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 5000 });
    assert.equal(await code(dead.chat({ messages: msgs })), 'model_unreachable');
    const h = await dead.health();
    assert.equal(h.reachable, false);
    assert.match(h.error ?? '', /port 9 is one that fetch refuses to use.*such as 8080/);
    // What was tried and what to check, never fetch's bare "fetch failed".
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await createLlamaClient({ baseURL: `http://127.0.0.1:${port}/v1`, timeoutMs: 5000 }).health();
    assert.equal(
      refused.error,
      `Tried GET http://127.0.0.1:${port}/v1/models: nothing is listening at 127.0.0.1:${port}. Check that llama-server is running and that its --host and --port match this address.`,
    );
  });

  test('why a server could not be asked, for each way it fails', () => {
    const failed = (code: string, message = 'x') => Object.assign(new TypeError('fetch failed'), { cause: { code, message } });
    const url = 'http://gpu-box:8080/v1/models';
    assert.match(unreachableReason(failed('ENOTFOUND'), url, 3000), /the host name gpu-box was not found/);
    assert.match(unreachableReason(failed('UND_ERR_CONNECT_TIMEOUT'), url, 3000), /no answer within 3 s.*port 8080/);
    assert.match(unreachableReason(Object.assign(new Error('timed out'), { name: 'TimeoutError' }), url, 2500), /no answer within 2\.5 s/);
    assert.match(unreachableReason(failed('ECONNRESET'), url, 3000), /closed before an answer/);
    assert.match(unreachableReason(failed('EHOSTUNREACH'), url, 3000), /network cannot reach gpu-box:8080/);
    assert.match(
      unreachableReason(failed('ERR_TLS_CERT_ALTNAME_INVALID', 'bad cert'), url, 3000),
      /TLS certificate was refused \(bad cert\)/,
    );
    assert.match(
      unreachableReason(failed('EWHATEVER', 'something odd'), url, 3000),
      /^Tried GET http:\/\/gpu-box:8080\/v1\/models: something odd\./,
    );
  });

  test('a slow server times out as model_unreachable', async () => {
    double.setScript(() => ({ content: 'late', delayMs: 2000 }));
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 200 });
    assert.equal(await code(client.chat({ messages: msgs })), 'model_unreachable');
    double.setScript(undefined);
  });

  test('a server that takes the connection and says nothing misses the first-byte deadline: model_unreachable, in words', async () => {
    // A rebooted box behind a pooled keep-alive connection looks like this: connected, silent.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket.on('data', () => undefined)));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    try {
      const client = createLlamaClient({ baseURL: url, timeoutMs: 60_000, firstByteTimeoutMs: 150 });
      for (const onDelta of [undefined, () => undefined]) {
        const err = await client.chat({ messages: msgs }, { onDelta }).then(
          () => assert.fail('expected an error'),
          (e: unknown) => e as HearthError,
        );
        assert.equal(err.code, 'model_unreachable');
        assert.match(err.message, /sent nothing back within 150 ms\.$/);
      }
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  test('a stream that goes silent misses the deadline between its bytes: model_stream_broken', async () => {
    double.setScript(() => ({ content: 'one two three', tokenDelayMs: 2000 }));
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 60_000, firstByteTimeoutMs: 150 });
    const err = await client.chat({ messages: msgs }, { onDelta: () => undefined }).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e as HearthError,
    );
    assert.equal(err.code, 'model_stream_broken');
    assert.match(err.message, /the server sent nothing more in time/);
  });

  test('a connection that could not be made in time is model_unreachable, in words', async () => {
    // undici's own connect deadline, as it fails: the fetch rethrows it marked with its words.
    const connectTimeout = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
    });
    const failing = deadlineFetch({ connectMs: 5000, firstByteMs: 120_000 }, () => Promise.reject(connectTimeout));
    const thrown = await failing('http://gpu:8080/v1/models').then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    const err = mapModelError(new APIConnectionError({ cause: thrown as Error }), 'http://gpu:8080/v1');
    assert.equal(err.code, 'model_unreachable');
    assert.equal(err.message, 'The model server at http://gpu:8080/v1 could not be connected to within 5 s.');
  });

  test('a stream that stops early is model_stream_broken; an error after streaming began is model_error', async () => {
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 5000 });
    double.setScript(() => ({ content: 'one two three four', dropAfterTokens: 2 }));
    const seen: string[] = [];
    assert.equal(await code(client.chat({ messages: msgs }, { onDelta: (t) => seen.push(t) })), 'model_stream_broken');
    assert.equal(seen.join(''), 'one two');
    double.setScript(() => ({ content: 'partial', errorAfterContent: { code: 500, type: 'server_error', message: 'slot crashed' } }));
    const err = await client.chat({ messages: msgs }, { onDelta: () => undefined }).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e as HearthError,
    );
    assert.equal(err.code, 'model_error');
    assert.match(err.message, /slot crashed/);
    double.setScript(undefined);
  });

  test('the caller can stop a call', async () => {
    double.setScript(() => ({ content: 'a b c d e f g h', tokenDelayMs: 100 }));
    const client = createLlamaClient({ baseURL: double.url, timeoutMs: 5000 });
    const abort = new AbortController();
    const p = client.chat({ messages: msgs }, { signal: abort.signal, onDelta: () => abort.abort() });
    assert.equal(await code(p), 'cancelled');
    double.setScript(undefined);
  });
});

describe('model client against a thinking double', () => {
  let thinker: LlamaDouble;
  let inline: LlamaDouble;
  before(async () => {
    thinker = await startLlamaDouble({ thinking: true });
    inline = await startLlamaDouble({ thinking: true, reasoningFormat: 'none' });
  });
  after(async () => {
    await thinker.close();
    await inline.close();
  });

  /** What one streamed call reported, in order: thinking (t), answer (a), taken back (r). */
  async function streamed(d: LlamaDouble, request: Parameters<ReturnType<typeof createLlamaClient>['chat']>[0] = { messages: msgs }) {
    const client = createLlamaClient({ baseURL: d.url, timeoutMs: 5000 });
    const order: string[] = [];
    const result = await client.chat(request, {
      onReasoning: (t) => order.push(`t:${t}`),
      onDelta: (t) => order.push(`a:${t}`),
      onRetract: (t) => order.push(`r:${t}`),
    });
    return { result, order };
  }

  test('reasoning_content streams before the answer, never as its text, and is kept apart in the result', async () => {
    thinker.setScript(() => ({ reasoning: 'Two and two make four.', content: 'It is 4.' }));
    const { result, order } = await streamed(thinker);
    const firstAnswer = order.findIndex((o) => o.startsWith('a:'));
    assert.ok(order.slice(0, firstAnswer).every((o) => o.startsWith('t:')) && firstAnswer > 0, order.join('|'));
    assert.equal(result.reasoning, 'Two and two make four.');
    assert.equal(result.content, 'It is 4.');
    thinker.setScript(undefined);
  });

  test('inline <think> (reasoning_format none) is split from the answer as it streams', async () => {
    inline.setScript(() => ({ reasoning: 'Two and two make four.', content: 'It is 4.' }));
    const { result, order } = await streamed(inline);
    assert.equal(result.content, 'It is 4.');
    assert.equal(result.reasoning, 'Two and two make four.\n');
    assert.ok(!order.some((o) => o.startsWith('a:') && /think/.test(o)), 'no marker is ever answer text');
    // Cut across deltas: a marker split anywhere is found (every cut is tried in thinking.test.ts).
    inline.setScript(() => ({ content: '<thi' }));
    const client = createLlamaClient({ baseURL: inline.url, timeoutMs: 5000 });
    const cut = await client.chat(
      { messages: msgs, extra: { chat_template_kwargs: { enable_thinking: false } } },
      { onDelta: () => undefined },
    );
    assert.equal(cut.content, '<thi', 'text that only began like a marker is the answer at the end');
    inline.setScript(undefined);
  });

  test('an unclosed <think> leaves no answer; a closing marker alone takes back what was streamed', async () => {
    thinker.setScript(() => ({ content: '<think>I keep thinking and never', reasoning: undefined }));
    const open = await streamed(thinker, { messages: msgs, extra: { chat_template_kwargs: { enable_thinking: false } } });
    assert.equal(open.result.content, '');
    assert.equal(open.result.reasoning, 'I keep thinking and never');
    thinker.setScript(() => ({ content: 'Opened by the prompt.</think>\n\nThe answer.' }));
    const forced = await streamed(thinker, { messages: msgs, extra: { chat_template_kwargs: { enable_thinking: false } } });
    assert.equal(forced.result.content, 'The answer.');
    assert.equal(forced.result.reasoning, 'Opened by the prompt.');
    // The double streams word by word: the words before the marker's own went out, and come back.
    assert.deepEqual(
      forced.order.filter((o) => o.startsWith('r:')),
      ['r:Opened by the'],
      forced.order.join('|'),
    );
    thinker.setScript(undefined);
  });

  test('a request that turns thinking off gets none; a non-streamed reply is split the same way', async () => {
    const off = await streamed(thinker, { messages: msgs, extra: { chat_template_kwargs: { enable_thinking: false } } });
    assert.equal(off.result.reasoning, '');
    assert.ok(!off.order.some((o) => o.startsWith('t:')));
    const client = createLlamaClient({ baseURL: inline.url, timeoutMs: 5000 });
    inline.setScript(() => ({ reasoning: 'Hmm.', content: 'Yes.' }));
    const whole = await client.chat({ messages: msgs });
    assert.deepEqual([whole.content, whole.reasoning], ['Yes.', 'Hmm.']);
    inline.setScript(undefined);
  });
});
