import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { capResultJson, createToolRegistry } from './registry';
import { defineTool, type Tool } from './types';

test('a capped result stays valid JSON, under the limit, with a truncation mark', () => {
  const big = { title: 'page', text: 'x'.repeat(50_000), items: Array.from({ length: 500 }, (_, i) => ({ i, s: 'y'.repeat(100) })) };
  const capped = capResultJson(big, 14_000);
  assert.ok(Buffer.byteLength(capped) <= 14_000);
  const parsed = JSON.parse(capped);
  assert.equal(parsed.truncated, true);
  assert.equal(parsed.title, 'page');
  assert.equal(capResultJson({ a: 1 }), '{"a":1}');
  // By default about 14 KB, as the manual says.
  const byDefault = capResultJson(big);
  assert.ok(Buffer.byteLength(byDefault) <= 14_000 && Buffer.byteLength(byDefault) > 12_000, `${Buffer.byteLength(byDefault)} bytes`);
  const hopeless = capResultJson(
    Array.from({ length: 5000 }, (_, i) => i),
    200,
  );
  assert.ok(Buffer.byteLength(hopeless) <= 200 + 100);
  assert.equal(JSON.parse(hopeless).truncated, true);
});

test('schemas are JSON schema from zod, sorted by name; a slow tool is stopped with advice', async () => {
  const slow = defineTool({
    name: 'slow',
    description: 'never ends',
    params: z.object({ q: z.string().describe('what') }),
    cost: 1,
    timeoutMs: 30,
    run: () => new Promise(() => undefined),
  }) as Tool;
  const fast = defineTool({
    name: 'a_fast',
    description: 'd',
    params: z.object({}),
    cost: 1,
    timeoutMs: 100,
    run: async () => ({ ok: 1 }),
  }) as Tool;
  const reg = createToolRegistry([slow, fast]);
  assert.deepEqual(
    reg.schemas().map((s) => s.function.name),
    ['a_fast', 'slow'],
  );
  const params = reg.schemas()[1].function.parameters as { properties: { q: { type: string; description: string } }; required: string[] };
  assert.equal(params.properties.q.type, 'string');
  assert.deepEqual(params.required, ['q']);
  const r = await reg.run('slow', '{"q":"x"}', { now: () => 0, timezone: 'UTC', threadId: 't' }, new AbortController().signal);
  assert.ok(!r.ok && /took longer than/.test(r.error));
});
