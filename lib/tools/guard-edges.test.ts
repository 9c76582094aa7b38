import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { memoryHosts } from '@/lib/dev/testing/memory-hosts';
import { nowTool } from './now';
import { createHostPacer, restingMessage } from './politeness';
import { capResultJson, createToolRegistry } from './registry';
import { defineTool, type Tool } from './types';

/** Edges of the host pacer, the tool registry's argument errors and result cap, and the clock tool, counted by hand. */

const deps = { now: () => Date.UTC(2026, 11, 1, 12), timezone: 'Europe/Paris', threadId: 't' };
const live = () => new AbortController().signal;

test('a host’s minute: a request exactly a minute old no longer counts; a full minute rests the host for a minute from now', async () => {
  let t = 1_000_000;
  const pacer = createHostPacer(memoryHosts(), () => t, {}, { minGapMs: 0, perMinute: 2, perHour: 100, perDay: 100 });
  assert.ok((await pacer.admit('h')).ok);
  t += 1;
  assert.ok((await pacer.admit('h')).ok);
  t += 10;
  assert.deepEqual(await pacer.admit('h'), { ok: false, reason: 'rate budget for this minute is used up', until: t + 60_000 });
  t = 1_000_000 + 60_000;
  assert.ok((await pacer.admit('h')).ok, 'the first request is a minute old: it no longer counts');
});

test('the gap is measured from the latest request, not the first', async () => {
  let t = 1_000_000;
  const pacer = createHostPacer(memoryHosts(), () => t, {}, { minGapMs: 1000, perMinute: 60, perHour: 900, perDay: 8000 });
  await pacer.admit('h');
  t += 5000;
  assert.deepEqual(await pacer.admit('h'), { ok: true, waitMs: 0 });
  t += 300;
  assert.deepEqual(await pacer.admit('h'), { ok: true, waitMs: 700 });
});

test('a resting host is said with its minutes left, rounded, and never under one', () => {
  const says = (untilMs: number) =>
    restingMessage('a.example', { reason: 'it answered HTTP 429', until: 10_000_000 + untilMs }, 10_000_000);
  assert.equal(
    says(6 * 60 * 60_000),
    'a.example is resting for about 360 minute(s) (it answered HTTP 429). Do not call it again in this turn: answer with what you have and say plainly what could not be checked.',
  );
  assert.match(says(90_000), /about 2 minute\(s\)/);
  assert.match(says(10_000), /about 1 minute\(s\)/);
});

const nested = defineTool({
  name: 'nested',
  description: 'takes an object',
  params: z.object({ where: z.object({ city: z.string() }) }),
  cost: 1,
  timeoutMs: 1000,
  async run() {
    // A bare undefined thrown: nothing to read a message from.
    throw undefined;
  },
}) as Tool;
const plain = defineTool({ name: 'a_plain', description: 'x', params: z.object({}), cost: 1, timeoutMs: 1000, run: async () => 1 }) as Tool;

test('argument errors name the path inside an object; a thrown undefined is still said', async () => {
  const registry = createToolRegistry([nested, plain]);
  const bad = await registry.run('nested', '{"where":{"city":5}}', deps, live());
  assert.ok(!bad.ok && bad.error.startsWith('invalid arguments for nested: where.city: '), JSON.stringify(bad));
  const thrown = await registry.run('nested', '{"where":{"city":"Lyon"}}', deps, live());
  assert.deepEqual(thrown, { ok: false, error: 'nested failed unexpectedly (undefined); answer with what you have and say so' });
});

test('the registry keeps its tools in the order given; only the schemas are sorted by name', () => {
  const registry = createToolRegistry([nested, plain]);
  assert.deepEqual(
    registry.tools.map((t) => t.name),
    ['nested', 'a_plain'],
  );
  assert.deepEqual(
    registry.schemas().map((s) => s.function.name),
    ['a_plain', 'nested'],
  );
});

test('the result cap at its edges: a shrunk result exactly at the cap, a string exactly at the step, depth 20 kept and 21 dropped', () => {
  const page = { title: 'Opening hours', text: 'y'.repeat(5000) };
  const atFirstStep = JSON.stringify({ title: 'Opening hours', text: `${'y'.repeat(4000)}…[cut]`, truncated: true });
  assert.equal(capResultJson(page, Buffer.byteLength(atFirstStep)), atFirstStep, 'exactly at the cap after the first step');
  assert.deepEqual(
    JSON.parse(capResultJson({ whole: 'w'.repeat(4000), big: 'b'.repeat(20_000) })).whole,
    'w'.repeat(4000),
    'a string of exactly 4000 is not cut',
  );

  type Nest = { n: Nest | string };
  let deep: Nest = { n: 'bottom' };
  for (let i = 0; i < 24; i++) deep = { n: deep };
  const kept = JSON.parse(capResultJson({ big: 'b'.repeat(20_000), deep })) as { deep: Nest };
  const at = (levels: number) => {
    let v: unknown = kept.deep;
    for (let i = 0; i < levels; i++) v = (v as Nest).n;
    return v;
  };
  // The result is depth 0, deep is 1: the object 19 levels below deep is at depth 20, the next at 21.
  assert.equal(typeof at(19), 'object');
  assert.equal(at(20), null);

  let list: unknown = ['bottom'];
  for (let i = 0; i < 24; i++) list = [list];
  const lists = JSON.parse(capResultJson({ big: 'b'.repeat(20_000), list })) as { list: unknown[] };
  let v: unknown = lists.list;
  for (let i = 0; i < 19; i++) v = (v as unknown[])[0];
  assert.ok(Array.isArray(v), 'lists count their depth too');
  assert.equal((v as unknown[])[0], null);
});

test('shrinking leaves numbers, booleans and null as they are; a string or a list is wrapped to carry the mark', () => {
  assert.deepEqual(JSON.parse(capResultJson({ big: 'b'.repeat(20_000), n: 5, ok: true, none: null })), {
    big: `${'b'.repeat(4000)}…[cut]`,
    n: 5,
    ok: true,
    none: null,
    truncated: true,
  });
  assert.deepEqual(JSON.parse(capResultJson('s'.repeat(20_000))), { truncated: true, value: `${'s'.repeat(4000)}…[cut]` });
});

test('the clock: a timezone with spaces around it is that timezone; a blank one is the user’s', async () => {
  const tokyo = (await nowTool.run({ timezone: '  Asia/Tokyo ' }, deps, live())) as { timezone: string };
  assert.equal(tokyo.timezone, 'Asia/Tokyo');
  const blank = (await nowTool.run({ timezone: '   ' }, deps, live())) as { timezone: string };
  assert.equal(blank.timezone, 'Europe/Paris');
});
