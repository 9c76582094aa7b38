import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { setRuntime } from '@/lib/services/runtime';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { getThread, makeRuntime, newThread, params, req, rounds, send, type Ev } from './harness';
import * as settingsRoute from './settings/route';
import * as threadRoute from './threads/[id]/route';

/**
 * A thinking model through the route handlers, against the double thinking as Qwen3 does with
 * llama-server v0.5.0 (issue 28): reasoning_content before the answer or the call, inline
 * <think> for reasoning_format none, none when a request turns it off.
 */

let searx: SearxDouble;
const doubles: LlamaDouble[] = [];
async function double(options: Parameters<typeof startLlamaDouble>[0] = {}) {
  const d = await startLlamaDouble({ thinking: true, ...options });
  doubles.push(d);
  return d;
}
before(async () => {
  searx = await startSearxDouble();
});
after(async () => {
  setRuntime(undefined);
  await Promise.all(doubles.map((d) => d.close().catch(() => undefined)));
  await searx.close();
});

const kinds = (evs: Ev[]) =>
  evs.map((e) => e.type).filter((t, i, all) => t !== 'status' && t !== 'decision' && (i === 0 || all[i - 1] !== t));
type MessageView = { role: string; content: string; thinking: { text: string; toolCallsBefore: number; ms?: number; tokens?: number }[] };
const answerView = async (id: string) =>
  ((await getThread(id)).body as { messages: MessageView[] }).messages.filter((m) => m.role === 'assistant').at(-1)!;

/** Searches first, then answers: the double thinks before each. */
const searchThenAnswer = (req: DoubleRequest): DoubleReply => {
  if (req.schema) return persona(req);
  if (req.toolChoice === 'auto' && !req.messages.some((m) => m.role === 'tool'))
    return { toolCalls: [{ name: 'web_search', arguments: { query: 'lyon weather today' } }] };
  return { content: 'It is 18 degrees in Lyon today, says example.org.' };
};

describe('a thinking model through the API', () => {
  test('thinking, a tool call, thinking again and an answer: the second round carries the first round’s reasoning_content; side calls ask with thinking off', async () => {
    const d = await double({ script: searchThenAnswer, slots: 2 });
    await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, env: { MODEL_SLOTS: '2' } });
    const id = await newThread();
    const evs = await send(id, 'What is the weather in Lyon today?');
    assert.equal(evs.at(-1)!.type, 'done', JSON.stringify(evs.at(-1)));
    assert.deepEqual(kinds(evs).slice(1), [
      'thinking',
      'thought',
      'tool_call',
      'tool_result',
      'thinking',
      'thought',
      'delta',
      'message',
      'done',
    ]);
    const [first, second] = rounds(d);
    const call = second.messages.find((m) => m.role === 'assistant' && m.tool_calls);
    assert.match(String(call?.reasoning_content), /so I will call web_search\.$/);
    assert.equal(call?.content ?? null, null, "gpt-oss's template refuses text beside thinking in a tool call");
    assert.equal(first.body.chat_template_kwargs, undefined, 'the model’s default: no thinking field');
    const side = d.requests.filter((r) => r.schema || isTitleRequest(r));
    assert.ok(side.length >= 2, 'a check and the title');
    for (const r of side) assert.deepEqual([r.body.chat_template_kwargs, r.body.reasoning_effort], [{ enable_thinking: false }, 'none']);
    // Kept with the message, each round's beside its calls, and not its text.
    const answer = await answerView(id);
    assert.equal(answer.content, 'It is 18 degrees in Lyon today, says example.org.');
    assert.deepEqual(
      answer.thinking.map((b) => b.toolCallsBefore),
      [0, 1],
    );
    assert.ok(answer.thinking.every((b) => b.ms !== undefined && (b.tokens ?? 0) > 0));
  });

  test('inline <think> (reasoning_format none) is split off, and an unclosed one is asked again with thinking off', async () => {
    const d = await double({ reasoningFormat: 'none' });
    await makeRuntime({ llamaUrl: d.url });
    const id = await newThread();
    await send(id, 'Explain how tides work.');
    const answer = await answerView(id);
    assert.doesNotMatch(answer.content, /think>/);
    assert.match(answer.thinking[0].text, /^The user asks: "Explain how tides work\."/);
    let calls = 0;
    d.setScript((r) =>
      r.schema ? persona(r) : ++calls === 1 ? { content: '<think>I keep going and never stop' } : { content: 'Tides follow the Moon.' },
    );
    const evs = await send(id, 'And why twice a day?');
    assert.equal((evs.find((e) => e.type === 'message') as Extract<Ev, { type: 'message' }>).content, 'Tides follow the Moon.');
    assert.deepEqual(rounds(d).at(-1)!.body.chat_template_kwargs, { enable_thinking: false });
  });

  test('a thread set to think off asks so and gets no thinking; Settings can send earlier thinking back', async () => {
    const d = await double();
    await makeRuntime({ llamaUrl: d.url });
    const id = await newThread();
    await send(id, 'Explain how tides work.');
    const res = await threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, { thinking: 'off' }), params({ id }));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { thinking: string }).thinking, 'off');
    await send(id, 'And why twice a day?');
    const off = rounds(d).at(-1)!;
    assert.deepEqual([off.body.chat_template_kwargs, off.body.reasoning_effort], [{ enable_thinking: false }, 'none']);
    assert.deepEqual((await answerView(id)).thinking, []);
    const earlier = off.messages.filter((m) => m.role === 'assistant');
    assert.ok(
      earlier.every((m) => m.reasoning_content === undefined),
      'earlier answers go back without their thinking',
    );

    const patched = await settingsRoute.PATCH(req('PATCH', '/api/settings', { thinkingInHistory: true, thinking: 'on' }));
    assert.equal(patched.status, 200);
    await threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, { thinking: null }), params({ id }));
    await send(id, 'And what about the Sun?');
    const on = rounds(d).at(-1)!;
    assert.deepEqual(on.body.chat_template_kwargs, { enable_thinking: true }, 'Settings’ default, the thread following it');
    assert.match(String(on.messages.find((m) => m.role === 'assistant')?.reasoning_content), /^The user asks: "Explain how tides work\."/);
    const bad = await threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, { thinking: 'maybe' }), params({ id }));
    assert.equal(bad.status, 400);
  });
});
