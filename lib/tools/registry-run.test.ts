import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { HearthError } from '@/lib/shared/errors';
import { capResultJson, createToolRegistry } from './registry';
import { defineTool, ToolError, type Tool } from './types';

/**
 * Running a call the model made: each way it can go wrong, in the words the model reads back,
 * and how a large result is cut while staying JSON. Expectations are written out by hand.
 */

const deps = { now: () => 0, timezone: 'UTC', threadId: 't' };
const live = () => new AbortController().signal;

const echo = defineTool({
  name: 'echo',
  description: 'says it back',
  params: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  cost: 1,
  timeoutMs: 1000,
  async run({ text, times }) {
    if (text === 'tool error') throw new ToolError('the site said no');
    if (text === 'crash') throw new TypeError('x is undefined');
    if (text === 'string') throw 'plain';
    return { said: text.repeat(times ?? 1) };
  },
}) as Tool;

const ping = defineTool({
  name: 'ping',
  description: 'no arguments',
  params: z.object({}),
  cost: 1,
  timeoutMs: 1000,
  research: true,
  run: async () => ({ pong: true }),
}) as Tool;

const registry = createToolRegistry([echo, ping]);

test('the registry: its tools by name, whether one researches, JSON schemas without $schema', () => {
  assert.equal(registry.has('echo'), true);
  assert.equal(registry.has('nope'), false);
  assert.equal(registry.get('ping'), ping);
  assert.equal(registry.get('nope'), undefined);
  assert.equal(registry.hasResearchTool(), true);
  assert.equal(createToolRegistry([echo]).hasResearchTool(), false);
  const schema = registry.schemas().find((s) => s.function.name === 'echo');
  assert.deepEqual(schema, {
    type: 'function',
    function: {
      name: 'echo',
      description: 'says it back',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
        required: ['text'],
      },
    },
  });
});

test('a call runs with its arguments; empty arguments are an empty object', async () => {
  assert.deepEqual(await registry.run('echo', '{"text":"ab","times":2}', deps, live()), { ok: true, data: { said: 'abab' } });
  assert.deepEqual(await registry.run('ping', '', deps, live()), { ok: true, data: { pong: true } });
  assert.deepEqual(await registry.run('ping', '  ', deps, live()), { ok: true, data: { pong: true } });
});

test('each failure is advice the model can act on', async () => {
  const error = async (name: string, args: string) => {
    const result = await registry.run(name, args, deps, live());
    assert.equal(result.ok, false);
    return result.ok ? '' : result.error;
  };
  assert.equal(await error('nope', '{}'), 'there is no tool called "nope"; the tools are: echo, ping');
  assert.equal(await error('echo', '{"text":'), 'the arguments were not valid JSON; call echo again with a JSON object');
  assert.equal(
    await error('echo', '{"times":0}'),
    'invalid arguments for echo: text: Invalid input: expected string, received undefined; times: Too small: expected number to be >=1; fix them and call again',
  );
  assert.equal(
    await error('echo', '[1]'),
    'invalid arguments for echo: arguments: Invalid input: expected object, received array; fix them and call again',
  );
  assert.equal(await error('echo', '{"text":"tool error"}'), 'the site said no');
  assert.equal(await error('echo', '{"text":"crash"}'), 'echo failed unexpectedly (x is undefined); answer with what you have and say so');
  assert.equal(await error('echo', '{"text":"string"}'), 'echo failed unexpectedly (plain); answer with what you have and say so');
});

test('at most four problems with the arguments are named', async () => {
  const wide = defineTool({
    name: 'wide',
    description: 'd',
    params: z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() }),
    cost: 1,
    timeoutMs: 1000,
    run: async () => ({}),
  }) as Tool;
  const result = await createToolRegistry([wide]).run('wide', '{}', deps, live());
  assert.ok(!result.ok);
  assert.deepEqual(result.error.match(/\b[a-e]: /g), ['a: ', 'b: ', 'c: ', 'd: ']);
});

test('a tool that takes too long is stopped, saying after how long, even when it stops on the signal with an error of its own', async () => {
  const slow = defineTool({
    name: 'slow',
    description: 'd',
    params: z.object({}),
    cost: 1,
    timeoutMs: 50,
    run: (_args, _deps, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
  }) as Tool;
  const stopped = new AbortController();
  const running = createToolRegistry([slow]).run('slow', '{}', deps, stopped.signal);
  // The turn is not stopped: only the tool's own time ran out (nothing else can end the call, so this waits, it does not race).
  const result = await running;
  assert.deepEqual(result, { ok: false, error: 'slow took longer than 0.05 s and was stopped; answer with what you have' });
});

test('a Stop during a call ends the turn: the call throws the Stop, it is no tool failure', async () => {
  const waiting = defineTool({
    name: 'waiting',
    description: 'd',
    params: z.object({}),
    cost: 1,
    timeoutMs: 60_000,
    run: () => new Promise(() => undefined),
  }) as Tool;
  const stop = new AbortController();
  const running = createToolRegistry([waiting]).run('waiting', '{}', deps, stop.signal);
  const reason = new HearthError('cancelled', 'Stopped.');
  stop.abort(reason);
  await assert.rejects(running, (err: unknown) => err === reason);
  const already = new AbortController();
  already.abort(reason);
  await assert.rejects(createToolRegistry([waiting]).run('waiting', '{}', deps, already.signal), (err: unknown) => err === reason);
});

test('a result within the cap is its JSON; undefined is null', () => {
  assert.equal(capResultJson({ a: 'x'.repeat(10) }, 20), '{"a":"xxxxxxxxxx"}');
  assert.equal(capResultJson(undefined), 'null');
  const exactly = { a: 'x'.repeat(14_000 - 8) };
  assert.equal(Buffer.byteLength(JSON.stringify(exactly)), 14_000);
  assert.equal(capResultJson(exactly), JSON.stringify(exactly), 'exactly 14,000 bytes is not cut');
});

test('a large result: its strings cut step by step, lists shortened, marked truncated', () => {
  const page = { title: 'Opening hours', text: 'y'.repeat(5000) };
  assert.deepEqual(JSON.parse(capResultJson(page, 4100)), { title: 'Opening hours', text: `${'y'.repeat(4000)}…[cut]`, truncated: true });
  assert.deepEqual(JSON.parse(capResultJson(page, 4000)), { title: 'Opening hours', text: `${'y'.repeat(2000)}…[cut]`, truncated: true });
  const list = { items: Array.from({ length: 300 }, (_, i) => i) };
  assert.equal(JSON.parse(capResultJson(list, 1000)).items.length, 200, 'a list keeps limit/20 items at the 4000 step');
  const strings = Array.from({ length: 300 }, () => 'z'.repeat(100));
  assert.deepEqual(
    JSON.parse(capResultJson(strings, 1100)),
    { truncated: true, value: Array.from({ length: 10 }, () => 'z'.repeat(100)) },
    'a list is wrapped to carry the mark',
  );
  assert.deepEqual(
    JSON.parse(capResultJson(strings, 900)),
    { truncated: true, value: Array.from({ length: 5 }, () => `${'z'.repeat(80)}…[cut]`) },
    'never fewer than 5 items',
  );
});

test('a result too deep or too large for every step is cut whole, as JSON', () => {
  type Nest = { n?: Nest; s: string };
  let deep: Nest = { s: 'bottom' };
  for (let i = 0; i < 30; i++) deep = { n: deep, s: 'x'.repeat(10) };
  const text = capResultJson(deep, 320);
  const parsed = JSON.parse(text);
  assert.equal(parsed.truncated, true);
  assert.ok(!text.includes('bottom'), 'levels past 20 are dropped');
  const hopeless = capResultJson(
    Array.from({ length: 5000 }, (_, i) => i),
    30,
  );
  assert.deepEqual(Object.keys(JSON.parse(hopeless)), ['truncated', 'note', 'partial']);
  assert.equal(JSON.parse(hopeless).note, 'The result was too large and was cut.');
  assert.equal(JSON.parse(hopeless).partial, JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)).slice(0, 15));
});
