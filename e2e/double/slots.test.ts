import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type DoubleReply, type LlamaDouble } from './llama-double';
import { promptTokens, renderPrompt } from './slots';

/**
 * The double's slots and prompt cache behave like llama-server's (tools/server/server-context.cpp):
 * the named slot or the most similar idle one, the common prefix reused but the last prompt
 * token read again, a busy slot waited for, and the counters on /metrics.
 */

type Msg = { role: string; content: string };
type Usage = { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } };
type Timings = { cache_n: number; prompt_n: number };

let double: LlamaDouble;
let next: DoubleReply = { content: 'Paris is the capital.' };

before(async () => {
  double = await startLlamaDouble({ slots: 2, metrics: true, script: () => next });
});
after(() => double.close());

async function chat(messages: Msg[], extra: Record<string, unknown> = {}) {
  const res = await fetch(`${double.url}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages, ...extra }),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { usage: Usage; timings: Timings; choices: { message: { content: string } }[] };
  return { usage: body.usage, timings: body.timings, content: body.choices[0].message.content };
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${double.baseUrl}/metrics`)).text();
  const m = new RegExp(`^llamacpp:${name} (\\d+)$`, 'm').exec(text);
  assert.ok(m, `${name} on /metrics`);
  return Number(m[1]);
}

const tokensOf = (messages: Msg[]) => promptTokens(renderPrompt(messages, [])).length;

describe('prompt cache', () => {
  test('the same prompt twice reuses all but its last token (as samples 10 and 12 show)', async () => {
    const messages = [{ role: 'user', content: 'What is the capital of France, and why?' }];
    const first = await chat(messages, { id_slot: 0 });
    assert.equal(first.usage.prompt_tokens_details.cached_tokens, 0);
    assert.equal(first.usage.prompt_tokens, tokensOf(messages));
    const again = await chat(messages, { id_slot: 0 });
    assert.equal(again.usage.prompt_tokens, first.usage.prompt_tokens);
    assert.equal(again.usage.prompt_tokens_details.cached_tokens, first.usage.prompt_tokens - 1);
    assert.equal(again.timings.cache_n, first.usage.prompt_tokens - 1);
    assert.equal(again.timings.prompt_n, 1);
  });

  test('the next turn reuses the previous prompt and the answer generated after it', async () => {
    const turn1 = [
      { role: 'system', content: 'You are Hearth.' },
      { role: 'user', content: 'Name a city in France.' },
    ];
    const first = await chat(turn1, { id_slot: 1 });
    const turn2 = [...turn1, { role: 'assistant', content: first.content }, { role: 'user', content: 'And one in Spain?' }];
    const second = await chat(turn2, { id_slot: 1 });
    // Everything up to the end of the answer repeats: prompt 1 + the answer + its end marker.
    assert.equal(second.usage.prompt_tokens_details.cached_tokens, first.usage.prompt_tokens + first.usage.completion_tokens);
    assert.equal(second.usage.prompt_tokens, tokensOf(turn2));
  });

  test('a prompt that changes near its start reuses only what comes before the change', async () => {
    const a = [
      { role: 'system', content: 'Facts: the user is vegetarian.' },
      { role: 'user', content: 'Plan a dinner for four people.' },
    ];
    const b = [
      { role: 'system', content: 'Facts: the user is vegan.' },
      { role: 'user', content: 'Plan a dinner for four people.' },
    ];
    await chat(a, { id_slot: 0 });
    const changed = await chat(b, { id_slot: 0 });
    // " vege|tari|an." and " vega|n." part at " vege": the prefix ends with " is".
    const shared = promptTokens('<|im_start|>system\nFacts: the user is').length;
    assert.equal(changed.usage.prompt_tokens_details.cached_tokens, shared);
  });

  test('without id_slot the idle slot sharing the longest prefix is chosen; a stranger gets the least recently used slot', async () => {
    const conversation = [{ role: 'user', content: 'Tell me about the history of the Loire valley castles in detail.' }];
    await chat(conversation, { id_slot: 0 });
    // Shares only the template's first tokens with the conversation (under 10 %): the least
    // recently used slot takes it, and slot 0 keeps the conversation.
    const side = [
      { role: 'system', content: 'Answer with one word only, yes or no, and nothing else.' },
      { role: 'user', content: 'Is water wet?' },
    ];
    await chat(side);
    const back = await chat(conversation); // similar to slot 0's tokens: slot 0, reused
    assert.equal(back.usage.prompt_tokens_details.cached_tokens, tokensOf(conversation) - 1);
    const sideAgain = await chat(side); // similar to slot 1
    assert.equal(sideAgain.usage.prompt_tokens_details.cached_tokens, tokensOf(side) - 1);
  });

  test('a short side call between two turns on the same slot: the host-memory cache (--cache-ram) brings the conversation back', async () => {
    const oneSlot = async (cacheRamTokens?: number) => {
      const d = await startLlamaDouble({
        slots: 1,
        cacheRamTokens,
        script: () => ({ content: 'The Loire castles were built over five centuries.' }),
      });
      try {
        const ask = async (messages: Msg[]) => {
          const res = await fetch(`${d.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages, id_slot: 0 }) });
          return (await res.json()) as { usage: Usage; choices: { message: { content: string } }[] };
        };
        const turn1 = [
          { role: 'system', content: 'You are Hearth, a helpful assistant running on this machine.' },
          { role: 'user', content: 'Tell me about the history of the Loire valley castles, in some detail please.' },
        ];
        const first = await ask(turn1);
        await ask([
          { role: 'system', content: 'You write short titles.' },
          { role: 'user', content: 'Title this: castles' },
        ]);
        const turn2 = [
          ...turn1,
          { role: 'assistant', content: first.choices[0].message.content },
          { role: 'user', content: 'Which one is the oldest?' },
        ];
        return {
          cached: (await ask(turn2)).usage.prompt_tokens_details.cached_tokens,
          held: first.usage.prompt_tokens + first.usage.completion_tokens,
        };
      } finally {
        await d.close();
      }
    };
    const restored = await oneSlot();
    assert.equal(restored.cached, restored.held, 'the conversation and its answer came back from host memory');
    const without = await oneSlot(0);
    assert.ok(without.cached < 10, `with --cache-ram 0 the side call's prompt displaced it (${without.cached} reused)`);
  });

  test('cache_prompt false reads the whole prompt', async () => {
    const messages = [{ role: 'user', content: 'Count to three.' }];
    await chat(messages, { id_slot: 0 });
    const uncached = await chat(messages, { id_slot: 0, cache_prompt: false });
    assert.equal(uncached.usage.prompt_tokens_details.cached_tokens, 0);
  });
});

describe('slots', () => {
  test('a request for a busy slot waits for it, and /metrics counts it as deferred meanwhile', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    next = { content: 'one two three four five', hold: { afterTokens: 2, until: held } };
    const first = fetch(`${double.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'first' }], id_slot: 0, stream: true }),
    });
    const firstRes = await first;
    // The first request has the slot (its stream has begun); the second must wait.
    next = { content: 'second answer' };
    let secondDone = false;
    const second = chat([{ role: 'user', content: 'second' }], { id_slot: 0 }).then((r) => {
      secondDone = true;
      return r;
    });
    while (double.slots.deferred === 0) await new Promise((r) => setImmediate(r));
    assert.equal(await metric('requests_deferred'), 1);
    assert.equal(await metric('requests_processing'), 1);
    assert.equal(secondDone, false);
    release();
    await firstRes.text();
    assert.equal((await second).content, 'second answer');
    assert.equal(await metric('requests_deferred'), 0);
    next = { content: 'Paris is the capital.' };
  });

  test('/metrics adds up what usage reported: tokens read and tokens reused', async () => {
    const read0 = await metric('prompt_tokens_total');
    const cached0 = await metric('prompt_tokens_cached_total');
    const messages = [{ role: 'user', content: 'A question asked twice, to see the counters move.' }];
    const a = await chat(messages, { id_slot: 1 });
    const b = await chat(messages, { id_slot: 1 });
    const used = [a, b];
    assert.equal(await metric('prompt_tokens_total'), read0 + used.reduce((n, r) => n + r.timings.prompt_n, 0));
    assert.equal(await metric('prompt_tokens_cached_total'), cached0 + used.reduce((n, r) => n + r.timings.cache_n, 0));
  });

  test('without --metrics, /metrics is 501 as on the real server', async () => {
    const plain = await startLlamaDouble();
    try {
      const res = await fetch(`${plain.baseUrl}/metrics`);
      assert.equal(res.status, 501);
      assert.equal(((await res.json()) as { error: { type: string } }).error.type, 'not_supported_error');
    } finally {
      await plain.close();
    }
  });
});
