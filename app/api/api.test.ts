import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { deferralFor } from '@/e2e/double/persona';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { createLlamaClient } from '@/lib/models/client';
import { STANDING_COUNT } from '@/lib/data/memory/facts';
import type { ModelClient } from '@/lib/models/types';
import { readSse } from '@/lib/contract/sse';
import { applyEvent, newTurnState, type LiveTurnState } from '@/lib/contract/turn-state';
import { setRuntime, type Runtime } from '@/lib/services/runtime';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { tinyPdf } from '@/lib/dev/testing/pdf';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import {
  base,
  events,
  getThread,
  makeRuntime as makeTestRuntime,
  newThread,
  params,
  req,
  rounds,
  send,
  serverLog,
  type Ev,
} from './harness';
import * as health from './health/route';
import * as attachmentsRoute from './attachments/route';
import * as attachmentRoute from './attachments/[id]/route';
import * as memoriesRoute from './memories/route';
import * as memoryRoute from './memories/[id]/route';
import * as search from './search/route';
import * as threadsRoute from './threads/route';
import * as threadRoute from './threads/[id]/route';
import * as exportRoute from './threads/[id]/export/route';
import * as messagesRoute from './threads/[id]/messages/route';
import * as cancelRoute from './threads/[id]/turns/[turnId]/cancel/route';
import * as eventsRoute from './threads/[id]/turns/[turnId]/events/route';
import { testEngine } from '@/lib/dev/testing/store';

/**
 * API tests: the route handlers called in-process, as Next calls them, over a temporary
 * database, with the llama-server double and the SearXNG stand-in on 127.0.0.1.
 */

let double: LlamaDouble;
let searx: SearxDouble;
let rt: Runtime;
/** This test's data folder: a runtime made again in the same test is a restart over the same database. */
let dataDir: string;

function makeRuntime(opts: { llamaUrl?: string; searx?: boolean; model?: ModelClient } = {}): Promise<Runtime> {
  const llamaUrl = opts.llamaUrl ?? double.url;
  return makeTestRuntime({
    llamaUrl,
    dataDir,
    searxUrl: opts.searx ? searx.url : undefined,
    model: opts.model ?? createLlamaClient({ baseURL: llamaUrl, timeoutMs: 5000 }),
  });
}

before(async () => {
  double = await startLlamaDouble();
  searx = await startSearxDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
  await searx.close();
});
beforeEach(async () => {
  dataDir = makeTempDir('hearth-api');
  double.setScript(undefined);
  rt = await makeRuntime();
});

describe('threads', () => {
  test('create, list with a cursor, rename, pin, read and delete', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await newThread());
    const page1 = await (await threadsRoute.GET(req('GET', '/api/threads?limit=2'))).json();
    assert.equal(page1.threads.length, 2);
    assert.ok(page1.nextCursor);
    const page2 = await (await threadsRoute.GET(req('GET', `/api/threads?limit=2&cursor=${page1.nextCursor}`))).json();
    assert.equal(page2.threads.length, 1);
    assert.equal(page2.nextCursor, null);
    assert.deepEqual(new Set([...page1.threads, ...page2.threads].map((t: { id: string }) => t.id)), new Set(ids));

    const patched = await threadRoute.PATCH(
      req('PATCH', `/api/threads/${ids[0]}`, { title: 'Renamed', pinned: true }),
      params({ id: ids[0] }),
    );
    assert.equal(patched.status, 200);
    assert.equal((await patched.json()).title, 'Renamed');
    const first = await (await threadsRoute.GET(req('GET', '/api/threads'))).json();
    assert.equal(first.threads[0].id, ids[0], 'pinned threads come first');

    const del = await threadRoute.DELETE(req('DELETE', `/api/threads/${ids[1]}`), params({ id: ids[1] }));
    assert.equal(del.status, 204);
    assert.equal((await getThread(ids[1])).status, 404);
  });

  test('bad input gets a clear JSON error with the right status', async () => {
    const id = await newThread();
    const cases: [Promise<Response>, number, string][] = [
      [threadsRoute.POST(req('POST', '/api/threads', '{"title": ')), 400, 'invalid_json'],
      [threadsRoute.POST(req('POST', '/api/threads', { title: 'x', extra: 1 })), 400, 'bad_request'],
      [threadsRoute.GET(req('GET', '/api/threads?limit=abc')), 400, 'bad_request'],
      [threadsRoute.GET(req('GET', '/api/threads?cursor=zzz')), 400, 'bad_request'],
      [threadRoute.GET(req('GET', '/api/threads/nope'), params({ id: 'nope' })), 404, 'not_found'],
      [threadRoute.GET(req('GET', '/api/threads/x'), params({ id: '00000000-0000-4000-8000-000000000000' })), 404, 'not_found'],
      [threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, { pinned: 'yes' }), params({ id })), 400, 'bad_request'],
      [threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, {}), params({ id })), 400, 'bad_request'],
      [
        threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, 'x', { 'Content-Type': 'text/plain' }), params({ id })),
        415,
        'unsupported_type',
      ],
      [messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, { content: 'x'.repeat(100_001) }), params({ id })), 413, 'too_large'],
      [messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, { content: '   ' }), params({ id })), 400, 'bad_request'],
      [messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, '{oops'), params({ id })), 400, 'invalid_json'],
      [
        messagesRoute.POST(
          req('POST', '/api/threads/x/messages', { content: 'hi' }),
          params({ id: '00000000-0000-4000-8000-000000000000' }),
        ),
        404,
        'not_found',
      ],
      [search.GET(req('GET', '/api/search?q=')), 400, 'bad_request'],
      [exportRoute.GET(req('GET', `/api/threads/${id}/export?format=pdf`), params({ id })), 400, 'bad_request'],
    ];
    for (const [p, status, code] of cases) {
      const res = await p;
      const body = await res.json();
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(body.error.code, code);
      assert.equal(typeof body.error.message, 'string');
    }
    assert.equal((await getThread(id)).body.messages.length, 0, 'nothing was stored by refused requests');
  });
});

describe('turns', () => {
  test('a message streams its turn: turn first, deltas, message, done last; everything is stored', async () => {
    const id = await newThread();
    const evs = await send(id, 'Hello there');
    assert.equal(evs[0].type, 'turn');
    assert.equal(evs.at(-1)!.type, 'done');
    assert.deepEqual(
      evs.map((e) => e.seq),
      evs.map((_, i) => i + 1),
    );
    const text = evs
      .filter((e) => e.type === 'delta')
      .map((e) => (e.type === 'delta' ? e.text : ''))
      .join('');
    const message = evs.find((e) => e.type === 'message');
    assert.ok(message?.type === 'message');
    assert.equal(message.content, text.trim());
    const { body } = await getThread(id);
    // The first words at once, then the model's title, written in the background after the exchange.
    assert.equal(body.title, 'Hello There Conversation');
    assert.deepEqual(
      body.messages.map((m: { role: string; status: string }) => `${m.role}:${m.status}`),
      ['user:complete', 'assistant:complete'],
    );
    assert.equal(body.messages[1].content, message.content);
  });

  test('replay of a finished turn with ?after=N gives the rest, nothing twice, and the same turn', async () => {
    const id = await newThread();
    const evs = await send(id, 'Hello there, tell me something');
    const turnId = (evs[0] as Extract<Ev, { type: 'turn' }>).turnId;
    const seen = (s: LiveTurnState) => ({
      draft: s.draft,
      final: s.final,
      decisions: s.decisions,
      toolCalls: s.toolCalls,
      setAside: s.setAside,
      stats: s.stats,
      ended: s.ended,
    });
    const whole = evs.reduce(applyEvent, newTurnState(turnId));
    for (const after of [0, 3, 5, evs.length - 2]) {
      const res = await eventsRoute.GET(req('GET', `/api/threads/${id}/turns/${turnId}/events?after=${after}`), params({ id, turnId }));
      const rest = await events(res);
      assert.ok(
        rest.every((e, i) => e.seq > after && (i === 0 || e.seq > rest[i - 1].seq)),
        `after=${after}: ${rest.map((e) => e.seq)}`,
      );
      const client = rest.reduce(applyEvent, evs.filter((e) => e.seq <= after).reduce(applyEvent, newTurnState(turnId)));
      assert.deepEqual(seen(client), seen(whole), `after=${after}`);
    }
    // The stored log was compacted: one row per streamed word no longer.
    assert.ok((await rt.store.eventsAfter({ turnId, after: 0 })).length < evs.filter((e) => e.type !== 'delta').length + 2);
    const bad = await eventsRoute.GET(req('GET', `/x?after=-1`), params({ id, turnId }));
    assert.equal(bad.status, 400);
  });

  test('a second message while a turn runs gets 409; closing the stream does not stop the turn; cancel keeps the partial answer', async () => {
    double.setScript(() => ({ content: Array.from({ length: 150 }, (_, i) => `w${i}`).join(' '), tokenDelayMs: 20 }));
    const id = await newThread();
    const abort = new AbortController();
    const first = await messagesRoute.POST(
      new Request(`${base}/api/threads/${id}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'Explain closures.' }),
        signal: abort.signal,
      }),
      params({ id }),
    );
    const reader = first.body!.getReader();
    await reader.read();
    const busy = await messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, { content: 'again' }), params({ id }));
    assert.equal(busy.status, 409);
    assert.equal((await busy.json()).error.code, 'turn_running');
    // Closing the tab: the stream ends, the turn goes on.
    abort.abort();
    await reader.cancel().catch(() => undefined);
    const view = (await getThread(id)).body;
    const turnId = view.activeTurn.id;
    assert.ok(turnId, 'the turn is still running');
    // Re-attach, wait for some text, then stop it.
    const follow = await eventsRoute.GET(req('GET', `/api/threads/${id}/turns/${turnId}/events?after=0`), params({ id, turnId }));
    const seen: Ev[] = [];
    let cancelled = false;
    for await (const frame of readSse(follow.body!)) {
      const e = JSON.parse(frame.data) as Ev;
      seen.push(e);
      if (!cancelled && seen.filter((x) => x.type === 'delta').length >= 5) {
        cancelled = true;
        const c = await cancelRoute.POST(req('POST', '/x'), params({ id, turnId }));
        assert.equal(c.status, 202);
      }
    }
    const last = seen.at(-1)!;
    assert.ok(last.type === 'error' && last.code === 'cancelled');
    const after = (await getThread(id)).body;
    const assistant = after.messages[1];
    assert.equal(assistant.status, 'interrupted');
    assert.match(assistant.content, /^w0 w1 w2 w3/);
    assert.equal(after.activeTurn, null);
  });

  test('with one model slot a second thread waits in the queue and is told its place; a queued turn can be stopped', async () => {
    double.setScript((r) =>
      r.schema
        ? { content: '{"needs_fresh": false, "query": "", "verdict": "answered"}' }
        : { content: 'a b c d e f g h i j', tokenDelayMs: 20 },
    );
    const a = await newThread();
    const b = await newThread();
    const c = await newThread();
    const first = await messagesRoute.POST(req('POST', `/api/threads/${a}/messages`, { content: 'Explain A.' }), params({ id: a }));
    const firstReader = first.body!.getReader();
    await firstReader.read();
    // The second is in the queue before the third is sent: two requests at once may reach it in either order.
    const second = await messagesRoute.POST(req('POST', `/api/threads/${b}/messages`, { content: 'Explain B.' }), params({ id: b }));
    const secondFrames = readSse(second.body!)[Symbol.asyncIterator]();
    const evsB: Ev[] = [];
    while (!evsB.some((e) => e.type === 'status' && e.stage === 'queued')) {
      const frame = await secondFrames.next();
      assert.ok(!frame.done, 'the second turn is queued');
      evsB.push(JSON.parse(frame.value.data) as Ev);
    }
    const third = await messagesRoute.POST(req('POST', `/api/threads/${c}/messages`, { content: 'Explain C.' }), params({ id: c }));
    const thirdReader = third.body!.getReader();
    let thirdText = '';
    while (!thirdText.includes('"queued"')) thirdText += new TextDecoder().decode((await thirdReader.read()).value);
    assert.match(thirdText, /"queuePosition":2/);
    const cTurn = (await getThread(c)).body.activeTurn.id;
    assert.equal((await cancelRoute.POST(req('POST', '/x'), params({ id: c, turnId: cTurn }))).status, 202);
    while ((await firstReader.read()).done === false);
    for (let frame = await secondFrames.next(); !frame.done; frame = await secondFrames.next())
      evsB.push(JSON.parse(frame.value.data) as Ev);
    const queued = evsB.find((e) => e.type === 'status' && e.stage === 'queued');
    assert.ok(queued?.type === 'status' && queued.queuePosition === 1, JSON.stringify(queued));
    assert.equal(evsB.at(-1)!.type, 'done');
    assert.equal((await getThread(c)).body.messages[1].status, 'interrupted');
  });

  test('deleting a thread while its turn runs stops the turn and the server carries on, storing nothing more of it', async () => {
    const logged = serverLog.length;
    double.setScript(() => ({ content: Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '), tokenDelayMs: 10 }));
    const id = await newThread();
    const res = await messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, { content: 'Explain deletion.' }), params({ id }));
    const reader = res.body!.getReader();
    await reader.read();
    assert.equal((await threadRoute.DELETE(req('DELETE', '/x'), params({ id }))).status, 204);
    while (!(await reader.read()).done);
    await rt.turns.idle();
    assert.equal((await getThread(id)).status, 404);
    // Its ending was not written for rows that are gone (it was: "could not store a error event: FOREIGN KEY").
    assert.deepEqual(
      serverLog.slice(logged).filter((m) => /could not store/.test(m)),
      [],
    );
    double.setScript(undefined);
    const other = await newThread();
    const evs = await send(other, 'Still there?');
    assert.equal(evs.at(-1)!.type, 'done');
  });

  // "At once" without a clock: the model timeout is an hour, so a turn that waited for it instead
  // of failing on the refused connection would meet this test's own timeout and fail.
  test('model server down: the message is stored and the turn ends with model_unreachable at once', { timeout: 60_000 }, async () => {
    rt = await makeRuntime({
      llamaUrl: 'http://127.0.0.1:9/v1',
      model: createLlamaClient({ baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 3_600_000 }),
    });
    const id = await newThread();
    const evs = await send(id, 'Anyone there?');
    const last = evs.at(-1)!;
    assert.ok(last.type === 'error' && last.code === 'model_unreachable', JSON.stringify(last));
    const { body } = await getThread(id);
    assert.equal(body.messages[0].content, 'Anyone there?');
    assert.equal(body.messages[1].status, 'error');
    const h = await (await health.GET(req('GET', '/api/health'))).json();
    assert.equal(h.model.reachable, false);
  });

  test('health reports the model and the database, naming its engine and how it searches by meaning', async () => {
    const res = await health.GET(req('GET', '/api/health'));
    const body = await res.json();
    assert.equal(res.status, 200);
    assert.deepEqual(
      { ok: body.ok, db: body.db, engine: body.engine, reachable: body.model.reachable, id: body.model.id },
      { ok: true, db: true, engine: testEngine, reachable: true, id: 'tiny-toy' },
    );
    // How passages are found by meaning: sqlite-vec's scan, or PostgreSQL's pgvector where the server has it, else its scan.
    assert.match(body.vectors, testEngine === 'sqlite' ? /^sqlite-vec$/ : /^(pgvector \d+\.\d+(\.\d+)?|scan)$/);
  });

  test('a deferral, in whichever phrasing, is set aside and web_search through SearXNG answers instead', async () => {
    rt = await makeRuntime({ searx: true });
    // Three questions the double defers on in three different ways.
    const questions = ['What is the price of bitcoin today?', 'What is the weather in Paris today?', 'What is the price of gold today?'];
    assert.equal(new Set(questions.map(deferralFor)).size, 3, 'three phrasings');
    for (const question of questions) {
      const id = await newThread();
      const before = searx.queries.length;
      const evs = await send(id, question);
      const rejected = evs.find((e) => e.type === 'draft_rejected');
      assert.ok(rejected?.type === 'draft_rejected' && rejected.reason === 'deferral', question);
      const result = evs.find((e) => e.type === 'tool_result');
      assert.ok(result?.type === 'tool_result' && result.name === 'web_search' && result.ok, question);
      assert.equal(searx.queries.length - before, 1);
      const message = evs.find((e) => e.type === 'message');
      assert.ok(message?.type === 'message' && message.content.includes('example.org/'), question);
      const { body } = await getThread(id);
      assert.equal(body.messages[1].toolCalls[0].name, 'web_search');
      assert.equal(body.messages[1].setAside[0].reason, 'deferral');
      assert.equal(body.messages[1].setAside[0].text, deferralFor(question), 'the set-aside draft is the deferral, word for word');
    }
    const roundAfterNudge = rounds(double)
      .filter((r) => r.tools.length > 0)
      .at(-2)!;
    assert.equal(roundAfterNudge.toolChoice, 'required');
  });

  test('with web search off, a deferral gets one nudge to answer from what the model knows', async () => {
    const id = await newThread();
    const evs = await send(id, 'What is the price of bitcoin today?');
    const rejected = evs.filter((e) => e.type === 'draft_rejected');
    assert.equal(rejected.length, 1);
    assert.ok(rejected[0].type === 'draft_rejected' && rejected[0].reason === 'no_research');
    assert.ok(!evs.some((e) => e.type === 'decision' && e.record.stepId === 'freshness'), 'freshness is not asked');
    const message = evs.find((e) => e.type === 'message');
    assert.ok(message?.type === 'message' && /Web search is off/.test(message.content));
    const round = rounds(double).at(-1)!;
    assert.notEqual(round.toolChoice, 'required');
    assert.match(String(round.messages[0].content), /Web search is off on this machine/);
  });

  test('decision records stream, are stored with the turn, come back with the thread and survive a restart', async () => {
    rt = await makeRuntime({ searx: true });
    const id = await newThread();
    const evs = await send(id, 'Explain how tides work.');
    const streamed = evs.filter((e) => e.type === 'decision').map((e) => (e.type === 'decision' ? e.record.stepId : ''));
    // The classifier reads the draft as no deferral; freshness is asked, then the verdict judges it, and who accepted it is recorded.
    assert.deepEqual(streamed.sort(), ['acceptance', 'deferral_classifier', 'freshness', 'verdict']);
    const freshness = evs.find((e) => e.type === 'decision' && e.record.stepId === 'freshness');
    assert.ok(freshness?.type === 'decision' && freshness.record.source === 'native');
    const judged = evs.find((e) => e.type === 'decision' && e.record.stepId === 'deferral_classifier');
    assert.ok(judged?.type === 'decision' && judged.record.source === 'classifier');
    // A restart: a new runtime over the same database file.
    rt = await makeRuntime({ searx: true });
    const { body } = await getThread(id);
    assert.deepEqual(body.decisions.map((d: { stepId: string }) => d.stepId).sort(), [
      'acceptance',
      'deferral_classifier',
      'freshness',
      'verdict',
    ]);
    assert.equal(body.messages[1].decisions.length, 4);
    // A later turn in the thread sees the summary in its model call: after the history, with the question.
    await send(id, 'And why are there two a day?');
    const lastRound = rounds(double).at(-1)!;
    const question = lastRound.messages.at(-1)!;
    assert.equal(question.role, 'user');
    assert.match(
      String(question.content),
      /^\[Context from Hearth[^\n]*\n[\s\S]*Decisions so far:\n- freshness[\s\S]*\[End of context\]\n\nAnd why are there two a day\?$/,
    );
    assert.doesNotMatch(String(question.content), /deferral_classifier/, "the classifier's records are shown, not summarised to the model");
    assert.doesNotMatch(String(question.content), /acceptance/, "the program's records are shown, not summarised to the model");
    assert.doesNotMatch(String(lastRound.messages[0].content), /Decisions so far/, 'not in the system block');
  });

  test('program-decided arithmetic shows the plan and the exact result', async () => {
    const id = await newThread();
    const evs = await send(id, 'What is 23 * 47 + 156?');
    const calc = evs.find((e) => e.type === 'calculation');
    assert.ok(calc?.type === 'calculation' && calc.result === '1237' && calc.expression === '23 * 47 + 156');
    const message = evs.find((e) => e.type === 'message');
    assert.ok(message?.type === 'message' && message.content.includes('1237'));
    assert.deepEqual((await getThread(id)).body.messages[1].calculation, { expression: '23 * 47 + 156', result: '1237', exact: true });
  });

  test('a turn running when the server stopped resumes from its step journal without redoing steps', async () => {
    // First server: the round calls the `now` tool, then the next model call never returns (the crash).
    let calls = 0;
    const hanging: ModelClient = {
      health: async () => ({ url: 'x', reachable: true, slots: 1 }),
      chat: async (request) => {
        calls++;
        if (request.jsonSchema)
          return {
            content: '{"verdict":"answered","query":""}',
            reasoning: '',
            toolCalls: [],
            finishReason: 'stop',
            usage: { promptTokens: 1, completionTokens: 1 },
            tokenProbs: null,
            model: 'm',
          };
        if (calls === 1)
          return {
            content: '',
            reasoning: '',
            toolCalls: [{ id: 'c1', name: 'now', arguments: '{}' }],
            finishReason: 'tool_calls',
            usage: { promptTokens: 1, completionTokens: 1 },
            tokenProbs: null,
            model: 'm',
          };
        return new Promise(() => undefined);
      },
    };
    rt = await makeRuntime({ model: hanging });
    const id = await newThread();
    const res = await messagesRoute.POST(
      req('POST', `/api/threads/${id}/messages`, { content: 'Explain what day it is.' }),
      params({ id }),
    );
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"tool_result"')) text += decoder.decode((await reader.read()).value);
    // The tool step is written to the ledger before its tool_result event is sent.
    void reader.cancel();
    const turnId = (await getThread(id)).body.activeTurn.id;
    const eventsBefore = await rt.store.lastEventSeq({ turnId });

    // Second server over the same file.
    const seenByDouble = double.requests.length;
    rt = await makeRuntime();
    const { resumed } = await rt.turns.resumeUnfinished();
    assert.deepEqual(resumed, [turnId]);
    await rt.turns.idle();
    const newRequests = double.requests.slice(seenByDouble);
    assert.equal(newRequests.filter((r) => !r.schema).length, 1, 'only the unfinished round called the model');
    assert.ok(
      newRequests.filter((r) => !r.schema)[0].messages.some((m) => m.role === 'tool'),
      'the stored tool result was replayed into the round',
    );
    const { body } = await getThread(id);
    assert.equal(body.messages[1].status, 'complete');
    assert.equal(body.messages[1].toolCalls.length, 1, 'the tool ran once');
    const replay = await events(await eventsRoute.GET(req('GET', `/x?after=${eventsBefore}`), params({ id, turnId })));
    assert.equal(replay[0].seq, eventsBefore + 1, 'event numbers continue');
    assert.equal(replay.at(-1)!.type, 'done');
  });
});

describe('search and export', () => {
  test('search finds stored messages; export gives markdown and lossless JSON', async () => {
    const id = await newThread();
    await send(id, 'Tell me about the zebra crossing rules');
    const found = await (await search.GET(req('GET', '/api/search?q=zebra'))).json();
    assert.equal(found.results[0].threadId, id);
    assert.match(found.results[0].snippet, /zebra/i);
    const md = await exportRoute.GET(req('GET', `/x?format=md`), params({ id }));
    assert.match(md.headers.get('content-type') ?? '', /markdown/);
    assert.match(await md.text(), /## You .*\n\nTell me about the zebra crossing rules/);
    const js = await (await exportRoute.GET(req('GET', `/x?format=json`), params({ id }))).json();
    // The thread as the page shows it, and every other branch (none here).
    assert.deepEqual(js, { ...(await getThread(id)).body, otherMessages: [] });
  });

  test('export as one web page: code highlighted, math typeset with its fonts inside, tool calls folded, nothing that runs or fetches', async () => {
    const answer = [
      'Here is the code:',
      '```js',
      'const total = items.reduce((a, b) => a + b, 0);',
      '```',
      'and the formula $$E = mc^2$$.',
      '![a chart](https://tracker.example/pixel.png) <script>alert(1)</script> <img src=x onerror=alert(1)>',
    ].join('\n');
    double.setScript((r) => {
      if (r.schema) return { content: '{"needs_fresh": false, "query": "", "verdict": "answered"}' };
      if (isTitleRequest(r)) return { content: 'Totals' };
      return r.messages.some((m) => m.role === 'tool')
        ? { content: answer }
        : { toolCalls: [{ name: 'calculator', arguments: { expression: '2+2' } }] };
    });
    const id = await newThread();
    await send(id, 'Sum my items <b>please</b>');
    double.setScript(undefined);
    const res = await exportRoute.GET(req('GET', `/x?format=html`), params({ id }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename=".*\.html"/);
    const page = await res.text();
    assert.match(page, /^<!doctype html>/);
    assert.match(
      page,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:/,
    );
    assert.match(page, /<span class="hljs-keyword">const<\/span>/, 'code highlighted');
    assert.match(page, /class="katex/, 'math typeset');
    assert.match(page, /@font-face\{[^}]*src:url\(data:font\/woff2;base64,/, "KaTeX's fonts inside the page");
    assert.doesNotMatch(page, /url\(fonts\//, 'no font fetched');
    assert.match(page, /<details class="fold tool"><summary>Calculated 2\+2<\/summary>/, 'the tool call folded, in words');
    assert.match(page, /\[image: a chart \(https:\/\/tracker\.example\/pixel\.png\)\]/, 'an image is its address, not loaded');
    // The model's raw HTML is there only as text; no tag runs or loads anything.
    assert.ok(!/<script|<img|<iframe|<link|<[^>]*\s(src|on\w+)=|href="javascript/i.test(page), 'nothing that runs or loads');
    assert.match(page, /&#x3C;script>alert\(1\)&#x3C;\/script>/, "the model's HTML shown as text");
    assert.match(page, /Sum my items &lt;b&gt;please&lt;\/b&gt;/, 'the question as text');
  });

  test('search answers with kind, title, snippet and highlights; filters narrow it; odd queries are plain text, bad filters 400', async () => {
    const a = await newThread();
    await send(a, 'Compare the Loire castles: Chambord or Chenonceau?');
    const b = await newThread();
    await send(b, 'Which castle near Edinburgh is worth a visit?');
    const get = async (qs: string) => {
      const res = await search.GET(req('GET', `/api/search?${qs}`));
      return { status: res.status, body: await res.json() };
    };
    const all = await get('q=castle');
    assert.equal(all.status, 200);
    const hit = all.body.results.find((r: { threadId: string; role: string }) => r.threadId === b && r.role === 'user');
    assert.equal(hit.kind, 'message');
    assert.equal(hit.title, 'Which Castle Near Edinburgh Is', 'the title the model wrote');
    assert.deepEqual(
      hit.highlights.map(([s, e]: [number, number]) => hit.snippet.slice(s, e)),
      ['castle'],
    );
    assert.ok(
      all.body.results.some((r: { threadId: string }) => r.threadId === a),
      'castles matches castle as a prefix of the last word',
    );
    assert.ok((await get(`q=castle&threadId=${a}`)).body.results.every((r: { threadId: string }) => r.threadId === a));
    assert.ok((await get('q=castle&role=assistant')).body.results.every((r: { role: string }) => r.role === 'assistant'));
    assert.deepEqual((await get('q=castle&to=2000-01-01')).body.results, []);
    assert.ok((await get('q=castle&from=2000-01-01')).body.results.length > 0);
    for (const odd of ['"', 'NOT', 'castle)', '(castle', 'NEAR(a', '*', 'c++', '%22%22', '東京', '🙂']) {
      assert.equal((await get(`q=${encodeURIComponent(odd)}`)).status, 200, odd);
    }
    for (const bad of [
      'q=x&role=system',
      'q=x&from=yesterday',
      'q=x&threadId=nope',
      'q=x&from=2026-12-02&to=2026-12-01',
      'q=x&from=2026-02-31',
    ]) {
      assert.equal((await get(bad)).status, 400, bad);
    }
  });

  test('search_conversations finds an earlier thread (never the current one), notes it is not current fact', async () => {
    const earlier = await newThread();
    await send(earlier, 'Remind me: the zebra crossing rules in the UK');
    const now = await newThread();
    const evs = await send(now, 'Earlier, what was said about zebra crossings?');
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result' && result.name === 'search_conversations' && result.ok, String(JSON.stringify(result)));
    const data = result.result as { note: string; results: { threadId: string; excerpt: string; reply?: string }[] };
    assert.match(data.note, /not current facts/);
    assert.deepEqual([...new Set(data.results.map((r) => r.threadId))], [earlier]);
    assert.ok(data.results.some((r) => /zebra crossing rules/.test(r.excerpt)));
  });

  test('search_conversations puts the more recent of two equally good matches first', async () => {
    const older = await newThread();
    await send(older, 'Remind me: the heron feeding grounds near the lake');
    const newer = await newThread();
    await send(newer, 'Remind me: the heron feeding grounds near the lake');
    const evs = await send(await newThread(), 'Earlier, what was said about heron feeding grounds?');
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result' && result.ok, String(JSON.stringify(result)));
    const data = result.result as { results: { threadId: string }[] };
    assert.deepEqual([...new Set(data.results.map((r) => r.threadId))], [newer, older]);
  });
});

describe('memory', () => {
  test('facts are kept, refused with a reason, recalled into a model call, and forgotten', async () => {
    // The first facts kept apply to every turn from the system block; a fact past them is recalled by its words.
    for (let i = 0; i < STANDING_COUNT; i++)
      await rt.store.insertMemory({ id: randomUUID(), text: `The user owns a plant called P${i}`, now: 0 });
    const add = await memoriesRoute.POST(req('POST', '/api/memories', { text: 'I live in Lyon and cycle to work' }));
    assert.equal(add.status, 201);
    const fact = await add.json();
    const refused = await memoriesRoute.POST(req('POST', '/api/memories', { text: 'my api key is abc' }));
    assert.equal(refused.status, 400);
    const err = (await refused.json()).error;
    assert.equal(err.code, 'refused');
    assert.match(err.message, /key or token/);
    const dup = await memoriesRoute.POST(req('POST', '/api/memories', { text: 'I live in Lyon and cycle to work' }));
    assert.equal(dup.status, 400);

    const id = await newThread();
    await send(id, 'Any good cycle routes in Lyon?');
    const round = rounds(double).at(-1)!;
    assert.match(
      String(round.messages.at(-1)!.content),
      /What you remember about the user[\s\S]*- I live in Lyon and cycle to work[\s\S]*\[End of context\]\n\nAny good cycle routes in Lyon\?$/,
    );
    assert.doesNotMatch(String(round.messages[0].content), /Lyon/, 'recalled memory is not in the system block');

    const edited = await memoryRoute.PATCH(req('PATCH', '/x', { text: 'I live in Lyon' }), params({ id: fact.id }));
    assert.equal((await edited.json()).text, 'I live in Lyon');
    assert.equal((await memoryRoute.DELETE(req('DELETE', '/x'), params({ id: fact.id }))).status, 204);
    assert.equal((await memoryRoute.DELETE(req('DELETE', '/x'), params({ id: fact.id }))).status, 404);
    assert.deepEqual(
      (await (await memoriesRoute.GET(req('GET', '/api/memories'))).json()).memories.filter(
        (m: { text: string }) => !m.text.startsWith('The user owns a plant'),
      ),
      [],
    );
    // Forgetting means forgetting: the fact also leaves the block stored with the earlier question.
    await send(id, 'Thanks!');
    const after = rounds(double).at(-1)!;
    assert.doesNotMatch(after.messages.map((m) => String(m.content)).join('\n'), /cycle to work/);
  });
});

describe('attachments', () => {
  const upload = (name: string, bytes: Uint8Array, type: string) => {
    const form = new FormData();
    form.set('file', new File([Buffer.from(bytes)], name, { type }));
    return attachmentsRoute.POST(new Request(`${base}/api/attachments`, { method: 'POST', body: form }));
  };

  test('?part=text serves the text Hearth read from a file, for the page to open: a text file as it is, a PDF its extracted text', async () => {
    const text = await (await upload('notes.md', new TextEncoder().encode('# Notes\nbuy milk ✓\n'), 'text/markdown')).json();
    const pdf = await (await upload('invoice.pdf', tinyPdf(), 'application/pdf')).json();
    const get = (id: string, query = '?part=text') => attachmentRoute.GET(req('GET', `/api/attachments/${id}${query}`), params({ id }));
    const md = await get(text.id);
    assert.equal(md.status, 200);
    assert.equal(md.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(md.headers.get('content-disposition') ?? '', /^inline/);
    assert.equal(await md.text(), '# Notes\nbuy milk ✓\n');
    const read = await get(pdf.id);
    assert.match(await read.text(), /Invoice total 42 EUR/);
    const original = await get(pdf.id, '');
    assert.equal(original.headers.get('content-type'), 'application/pdf', 'without part: the file as it came');
    assert.match(original.headers.get('content-disposition') ?? '', /^attachment; filename="invoice.pdf"/);
    const bad = await get(pdf.id, '?part=everything');
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error.message, /part: give 'original'/);
  });

  test('an uploaded PDF is read, sent with a message, and reaches the model with that message', async () => {
    const res = await upload('invoice.pdf', tinyPdf(), 'application/pdf');
    assert.equal(res.status, 201);
    const file = await res.json();
    assert.equal(file.name, 'invoice.pdf');
    assert.ok(file.chars > 10);
    const id = await newThread();
    const sent = await messagesRoute.POST(
      req('POST', `/api/threads/${id}/messages`, { content: 'What does the attached file say?', attachmentIds: [file.id] }),
      params({ id }),
    );
    const evs = await events(sent);
    const message = evs.find((e) => e.type === 'message');
    assert.ok(message?.type === 'message' && /invoice\.pdf/.test(message.content), String(JSON.stringify(message)));
    const round = rounds(double).at(-1)!;
    assert.match(
      String(round.messages.at(-1)!.content),
      /The user attached 1 file to this message[\s\S]*--- invoice\.pdf \(application\/pdf, \d+ bytes, 1 line, id [0-9a-f-]{36}\) ---\nInvoice total 42 EUR[\s\S]*What does the attached file say\?$/,
    );
    const { body } = await getThread(id);
    assert.equal(body.messages[0].attachments[0].name, 'invoice.pdf');
    // The same attachment cannot be sent twice, and nothing is half-stored.
    const again = await messagesRoute.POST(
      req('POST', `/api/threads/${id}/messages`, { content: 'again', attachmentIds: [file.id] }),
      params({ id }),
    );
    assert.equal(again.status, 400);
    assert.equal((await getThread(id)).body.messages.length, 2);
  });

  test('uploads that are not files Hearth can read are refused clearly', async () => {
    const png = await upload('pic.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'image/png');
    assert.equal(png.status, 415);
    assert.equal((await png.json()).error.code, 'unsupported_type');
    const notForm = await attachmentsRoute.POST(req('POST', '/api/attachments', { file: 'x' }));
    assert.equal(notForm.status, 415);
    const form = new FormData();
    form.set('other', 'x');
    const missing = await attachmentsRoute.POST(new Request(`${base}/api/attachments`, { method: 'POST', body: form }));
    assert.equal(missing.status, 400);
  });
});
