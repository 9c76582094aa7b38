import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type DoubleReply, type LlamaDouble } from './llama-double';

/**
 * The double must speak the real server's wire format. For every exchange captured from a
 * real server in ./samples, the same request goes to the double (scripted to give the same
 * kind of reply) and the answer must have the sample's status and the same shape: the same
 * keys and value types, chunk by chunk for streams.
 */

const dir = path.resolve(import.meta.dirname, 'samples');
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

type Shape = string | { [k: string]: Shape } | Shape[];
function shape(v: unknown): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  }
  return typeof v;
}

function sseChunks(text: string): { chunks: unknown[]; done: boolean } {
  const body = text.replace(/^HTTP[^\n]*\n/, '');
  const datas = body
    .split('\n\n')
    .map((f) =>
      f
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join(''),
    )
    .filter(Boolean);
  return { chunks: datas.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d)), done: datas.at(-1) === '[DONE]' };
}

/** Labels each chunk by what it carries, so a sample and a double's stream can be compared kind by kind. */
function chunkKinds(chunks: unknown[]): Map<string, Shape> {
  const kinds = new Map<string, Shape>();
  for (const c of chunks as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown }[]) {
    const choice = c.choices[0];
    let kind = 'usage';
    if (choice) {
      const d = choice.delta;
      if (choice.finish_reason) kind = 'finish';
      else if ('role' in d) kind = 'role';
      else if (d.tool_calls) kind = (d.tool_calls as { id?: string }[])[0].id ? 'tool-first' : 'tool-fragment';
      else kind = 'content';
    }
    if (!kinds.has(kind)) kinds.set(kind, shape(c));
  }
  return kinds;
}

/** The reply the sample's server gave, as a script for the double. */
function replyOf(response: unknown): DoubleReply {
  const r = response as {
    choices: {
      finish_reason: DoubleReply['finishReason'];
      message: { content: string; tool_calls?: { function: { name: string; arguments: string } }[] };
    }[];
  };
  const m = r.choices[0].message;
  return {
    content: m.content,
    toolCalls: m.tool_calls?.map((c) => ({ name: c.function.name, arguments: c.function.arguments })),
    finishReason: r.choices[0].finish_reason,
  };
}
function replyOfStream(chunks: unknown[]): DoubleReply {
  let content = '';
  const calls: { name: string; arguments: string }[] = [];
  let finish: DoubleReply['finishReason'];
  for (const c of chunks as {
    choices: {
      delta: { content?: string | null; tool_calls?: { index: number; function: { name?: string; arguments?: string } }[] };
      finish_reason: DoubleReply['finishReason'] | null;
    }[];
  }[]) {
    const ch = c.choices[0];
    if (!ch) continue;
    if (ch.delta.content) content += ch.delta.content;
    for (const t of ch.delta.tool_calls ?? []) {
      calls[t.index] ??= { name: '', arguments: '' };
      if (t.function.name) calls[t.index].name = t.function.name;
      calls[t.index].arguments += t.function.arguments ?? '';
    }
    if (ch.finish_reason) finish = ch.finish_reason;
  }
  return { content, toolCalls: calls.length ? calls : undefined, finishReason: finish };
}

let double: LlamaDouble;
let noJinja: LlamaDouble;
let next: DoubleReply = {};
before(async () => {
  // The samples came from a server started with -c 2048.
  double = await startLlamaDouble({ nCtx: 2048, slots: 4, script: () => next });
  noJinja = await startLlamaDouble({ nCtx: 2048, jinja: false, script: () => next });
});
after(async () => {
  await double.close();
  await noJinja.close();
});

const post = (d: LlamaDouble, body: string) =>
  fetch(`${d.url}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

const jsonSamples = [
  '10-chat-plain',
  '12-chat-plain-length',
  '20-tools-required',
  '22-tools-auto-text-answer',
  '24-tool-result-roundtrip',
  '25-tool-choice-named-object',
  '26-tools-none',
  '30-verdict-json-schema-logprobs',
  '31-verdict-post-sampling-probs',
  '33-json-object-with-schema',
  '34-top-level-json-schema-enum',
];
const errorSamples = [
  '40-error-bad-schema-type',
  '41-error-bad-schema-ref',
  '42-error-context-overflow',
  '43-error-context-overflow-stream',
  '44-error-response-format-type',
  '45-error-logprobs-tools-stream',
  '46-error-invalid-grammar',
  '47-error-top-logprobs-without-logprobs',
  '48-error-bad-tool-choice-string',
  '49-error-no-messages',
  '4a-error-grammar-with-tools',
];
const streamSamples = [
  '11-chat-plain-stream',
  '21-tools-required-stream',
  '27-tools-auto-content-then-call-stream',
  '32-verdict-stream-logprobs',
];

describe('the double answers like the captured llama-server', () => {
  for (const name of jsonSamples) {
    test(name, async () => {
      const sample = JSON.parse(read(`${name}.response.json`));
      next = replyOf(sample);
      const res = await post(double, read(`${name}.request.json`));
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.deepEqual(shape(body), shape(sample));
      assert.equal(body.choices[0].finish_reason, sample.choices[0].finish_reason);
    });
  }

  for (const name of errorSamples) {
    test(name, async () => {
      const sample = JSON.parse(read(`${name}.response.json`));
      const res = await post(double, read(`${name}.request.json`));
      assert.equal(res.status, sample.error.code);
      const body = await res.json();
      assert.deepEqual(shape(body), shape(sample));
      assert.equal(body.error.type, sample.error.type);
      if (sample.error.type !== 'exceed_context_size_error') assert.equal(body.error.message, sample.error.message);
    });
  }

  for (const name of ['4c-error-tools-without-jinja', '4d-no-jinja-tool-choice-required']) {
    test(`${name} (server without jinja)`, async () => {
      const sample = JSON.parse(read(`${name}.response.json`));
      const res = await post(noJinja, read(`${name}.request.json`));
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), sample);
    });
  }

  test('4e-no-jinja-json-schema (schemas still work without jinja)', async () => {
    const sample = JSON.parse(read('4e-no-jinja-json-schema.response.json'));
    next = replyOf(sample);
    const res = await post(noJinja, read('4e-no-jinja-json-schema.request.json'));
    assert.equal(res.status, 200);
    assert.deepEqual(shape(await res.json()), shape(sample));
  });

  test('4b-error-unknown-route', async () => {
    const sample = JSON.parse(read('4b-error-unknown-route.response.json'));
    const res = await fetch(`${double.baseUrl}/v1/nothing-here`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), sample);
  });

  for (const name of streamSamples) {
    test(name, async () => {
      const sample = sseChunks(read(`${name}.sse`));
      next = replyOfStream(sample.chunks);
      const res = await post(double, read(`${name}.request.json`));
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
      const mine = sseChunks(await res.text());
      assert.equal(mine.done, sample.done);
      const want = chunkKinds(sample.chunks);
      const got = chunkKinds(mine.chunks);
      assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
      for (const [kind, s] of want) assert.deepEqual(got.get(kind), s, `chunk kind ${kind}`);
    });
  }

  test('health, models, props and slots have the sample shapes', async () => {
    for (const [route, file] of [
      ['/health', '00-health.response.json'],
      ['/v1/models', '01-v1-models.response.json'],
      ['/slots', '03-slots.response.json'],
    ] as const) {
      const res = await fetch(`${double.baseUrl}${route}`);
      assert.equal(res.status, 200);
      assert.deepEqual(shape(await res.json()), shape(JSON.parse(read(file))), route);
    }
    const props = await (await fetch(`${double.baseUrl}/props`)).json();
    const sampleProps = JSON.parse(read('02-props.response.json'));
    for (const key of ['total_slots', 'model_alias', 'build_info']) assert.equal(typeof props[key], typeof sampleProps[key], key);
    assert.equal(typeof props.default_generation_settings.n_ctx, typeof sampleProps.default_generation_settings.n_ctx);
  });
});
