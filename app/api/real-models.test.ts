import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { promptTokens, renderAnswer, renderPrompt } from '@/e2e/double/slots';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { setRuntime } from '@/lib/services/runtime';
import { addMemory } from '@/lib/services/memories';
import { getThread, makeRuntime, newThread, rounds, send, turnRequests, type Ev } from './harness';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';

/**
 * Hearth against what real small models and a real llama-server do (issue: every turn that
 * gathered something ends with an answer, the prompt cache survives from turn to turn, turns
 * spread over several servers), through the route handlers against the llama-server double.
 */

let searx: SearxDouble;
const doubles: LlamaDouble[] = [];

async function double(options: Parameters<typeof startLlamaDouble>[0] = {}): Promise<LlamaDouble> {
  const d = await startLlamaDouble(options);
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

const answerOf = (evs: Ev[]) => {
  const m = evs.find((e) => e.type === 'message');
  return m?.type === 'message' ? m.content : '';
};
const last = (evs: Ev[]) => evs.at(-1)!;

/** A small model that searches first, then fills the round without tools with `lastRound`, every time it is asked. */
function searchThen(lastRound: DoubleReply) {
  return (req: DoubleRequest): DoubleReply => {
    if (req.schema) return persona(req);
    if (req.toolChoice === 'auto' && !req.messages.some((m) => m.role === 'tool'))
      return { toolCalls: [{ name: 'web_search', arguments: { query: 'bitcoin price today' } }] };
    return lastRound;
  };
}

describe('every turn that gathered something ends with an answer', () => {
  for (const [what, lastRound] of [
    [
      'only tool markup (a tool that exists)',
      { content: '<tool_call>\n{"name": "web_search", "arguments": {"query": "bitcoin price"}}\n</tool_call>' },
    ],
    [
      'only markup for a tool that does not exist',
      { content: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' },
    ],
    ['empty', { content: '' }],
    ['only reasoning', { content: '', reasoning: 'I need to search again for the price.' }],
  ] as [string, DoubleReply][]) {
    test(`a round without tools that is ${what}, even when asked again, ends with an answer compiled from what was found`, async () => {
      const d = await double({ script: searchThen(lastRound) });
      await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, env: { MAX_ROUNDS: '2' } });
      const id = await newThread();
      const evs = await send(id, 'What is the bitcoin price today?');
      assert.equal(last(evs).type, 'done', JSON.stringify(last(evs)));
      const answer = answerOf(evs);
      assert.match(answer, /Hearth compiled this from what its tools found/);
      assert.match(answer, /web search for “bitcoin price today”/);
      assert.match(
        answer,
        /\[Latest on bitcoin price today\]\(https:\/\/example\.org\/bitcoin-price-today\): Fresh facts about bitcoin price today: the figure today is 42\./,
      );
      assert.doesNotMatch(answer, /tool_call/);
      const done = last(evs);
      assert.ok(done.type === 'done' && done.stats.compiled === true);
      // The last attempt saw the results as plain text, with no tools and no tool-call messages.
      const attempt = rounds(d).at(-1)!;
      assert.equal(attempt.tools.length, 0);
      assert.ok(!attempt.messages.some((m) => m.role === 'tool' || m.tool_calls));
      assert.match(
        String(attempt.messages.at(-1)!.content),
        /What the tools found in this turn:[\s\S]*Fresh facts about bitcoin price today/,
      );
      const { body } = await getThread(id);
      assert.equal(body.messages[1].status, 'complete');
      assert.equal(body.messages[1].content, answer);
    });
  }

  test('the plain-text retry is taken when the model answers it', async () => {
    const d = await double({
      script: (req) => {
        if (req.tools.length === 0 && !req.schema) return { content: 'Bitcoin is at 42 today, according to example.org.' };
        return searchThen({ content: '<tool_call>{"name": "web_search", "arguments": {}}</tool_call>' })(req);
      },
    });
    await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, env: { MAX_ROUNDS: '2' } });
    const evs = await send(await newThread(), 'What is the bitcoin price today?');
    assert.equal(answerOf(evs), 'Bitcoin is at 42 today, according to example.org.');
    assert.ok(last(evs).type === 'done' && !(last(evs) as Extract<Ev, { type: 'done' }>).stats.compiled);
  });

  test('a tool the model invented gets an {error} naming the real tools, and the turn goes on to an answer', async () => {
    const d = await double({
      script: (req) => {
        if (req.schema) return persona(req);
        const result = req.messages.find((m) => m.role === 'tool');
        if (!result) return { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
        return { content: `I could not check: ${String(result.content)}` };
      },
    });
    await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url });
    const evs = await send(await newThread(), 'Will it rain in Paris?');
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result' && !result.ok);
    assert.match(result.error ?? '', /there is no tool called "get_weather"; the tools are: .*web_search/);
    assert.equal(last(evs).type, 'done');
    assert.match(answerOf(evs), /no tool called/);
  });
});

describe('the prompt cache survives from turn to turn', () => {
  test('over five turns with a memory fact and decisions, each turn repeats at least 95% of the previous prompt and answer', async () => {
    const d = await double({ slots: 2, metrics: true });
    // A clock that ticks but stays within one hour: the identity block carries the hour.
    let clock = Date.UTC(2026, 11, 1, 9, 0);
    const rt = await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, now: () => clock++, env: { MODEL_SLOTS: '' } });
    await addMemory(rt, 'I am vegetarian and cook for two');
    const id = await newThread();
    const questions = [
      'Suggest a vegetarian breakfast for two.',
      'And a vegetarian lunch we can cook together?',
      'What about a dinner that two people can cook in twenty minutes?',
      'Which vegetarian dish keeps best for leftovers?',
      'Thanks! Can you cook that dinner in one pan?',
    ];
    const firstCalls: DoubleRequest[] = [];
    const answers: string[] = [];
    for (const q of questions) {
      const seen = d.requests.length;
      const evs = await send(id, q);
      assert.equal(last(evs).type, 'done');
      answers.push(answerOf(evs));
      firstCalls.push(d.requests.slice(seen).find((r) => !r.schema && !isTitleRequest(r))!);
    }
    const { body } = await getThread(id);
    assert.ok(body.decisions.length >= 5, 'decisions were recorded along the way');
    const figures: string[] = [];
    for (let n = 1; n < firstCalls.length; n++) {
      // What the slot held after turn n-1: its first prompt and the answer after it.
      const before = [
        ...promptTokens(renderPrompt(firstCalls[n - 1].messages, firstCalls[n - 1].tools)),
        ...promptTokens(renderAnswer(answers[n - 1], [])),
        '<|im_end|>',
      ];
      const now = firstCalls[n].cache!;
      assert.equal(now.slot, firstCalls[n - 1].cache!.slot, 'the conversation stays on its slot');
      const reused = now.cached / before.length;
      figures.push(`${Math.round(reused * 1000) / 10}%`);
      assert.ok(reused >= 0.95, `turn ${n + 1} reused ${figures.at(-1)} of turn ${n}'s prompt and answer`);
      // The fact stands in the system block; the decisions come as context before each question.
      assert.match(String(firstCalls[n].messages[0].content), /What you know about the user[^\n]*\n- I am vegetarian and cook for two$/);
      assert.match(String(firstCalls[n].messages.at(-1)!.content), /\[Context from Hearth[\s\S]*Decisions so far:/);
    }
    // The server's own counters agree with what each request reported.
    const metrics = await (await fetch(`${d.baseUrl}/metrics`)).text();
    const counter = (name: string) => Number(new RegExp(`^llamacpp:${name} (\\d+)$`, 'm').exec(metrics)![1]);
    const sum = (f: (c: NonNullable<DoubleRequest['cache']>) => number) => d.requests.reduce((n, r) => n + (r.cache ? f(r.cache) : 0), 0);
    assert.equal(
      counter('prompt_tokens_cached_total'),
      sum((c) => c.cached),
    );
    assert.equal(
      counter('prompt_tokens_total'),
      sum((c) => c.promptTokens - c.cached),
    );
    console.log(`prompt reuse, turn by turn: ${figures.join(', ')}`);
  });

  test('with two slots, rounds go to the conversation slot and side calls to the other', async () => {
    const d = await double({ slots: 2, metrics: true });
    await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, env: { MODEL_SLOTS: '' } });
    await send(await newThread(), 'What is the weather today in Lyon?');
    assert.ok(
      d.requests.some((r) => r.schema),
      'the turn asked decide steps',
    );
    for (const r of turnRequests(d)) assert.equal(r.body.id_slot, r.schema ? 1 : 0, `${r.schema ? 'side call' : 'round'} on its slot`);
    const titles = d.requests.filter(isTitleRequest);
    assert.equal(titles.length, 1, 'the first exchange was titled');
    assert.equal(titles[0].body.id_slot, 1, 'the title call went to the side slot, away from the conversation');
    assert.ok(d.requests.every((r) => r.cache?.slot === r.body.id_slot));
  });

  test('with one slot, the title call between two turns does not cost the next turn its prompt cache (--cache-ram)', async () => {
    const d = await double({ slots: 1, metrics: true });
    await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, env: { MODEL_SLOTS: '' } });
    const id = await newThread();
    await send(id, 'Explain how a heat pump works.');
    assert.equal(d.requests.at(-1) && isTitleRequest(d.requests.at(-1)!), true, 'the title was written after the first exchange');
    const seen = d.requests.length;
    await send(id, 'And how efficient is one in winter?');
    const round = d.requests.slice(seen).find((r) => !r.schema && !isTitleRequest(r))!;
    const firstRound = rounds(d)[0];
    assert.ok(
      round.cache!.cached > firstRound.cache!.promptTokens,
      `the second turn reused more than the whole first prompt (${round.cache!.cached} of ${round.cache!.promptTokens})`,
    );
  });

  test('with one slot, nothing is sent before the round the user waits for', async () => {
    const d = await double({ slots: 1 });
    await makeRuntime({ llamaUrl: d.url, searxUrl: searx.url, env: { MODEL_SLOTS: '' } });
    await send(await newThread(), 'Explain how tides work.');
    assert.equal(d.requests[0].schema, null, 'the first request is the round, not a side call');
    assert.ok(
      d.requests.some((r) => r.schema),
      'the checks ran after the draft',
    );
  });
});

describe('several model servers', () => {
  test('two llama-servers behind LLAMA_URL, one stopped half-way: every turn is still answered', async () => {
    const a = await double({ slots: 1 });
    const b = await double({ slots: 1 });
    const rt = await makeRuntime({ llamaUrl: `${a.url},${b.url}`, searxUrl: searx.url, env: { MODEL_SLOTS: '' } });
    const id = await newThread();
    for (let i = 0; i < 6; i++) {
      if (i === 3) await a.close();
      const evs = await send(id, `Tell me fact number ${i + 1} about owls.`);
      assert.equal(last(evs).type, 'done', `turn ${i + 1}: ${JSON.stringify(last(evs))}`);
      assert.match(answerOf(evs), new RegExp(`fact number ${i + 1} about owls`));
    }
    assert.ok(rounds(a).length >= 3, 'the thread ran on the first server while it was up');
    assert.ok(rounds(b).length >= 3, 'and moved to the second when it stopped');
    const status = rt.models.status;
    assert.deepEqual(
      status.map((s) => s.up),
      [false, true],
    );
    rt.models.close();
  });
});
