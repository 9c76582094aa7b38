import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createToolRegistry } from './registry';
import { nowTool } from './now';
import type { Tool, ToolDeps } from './types';

/** The `now` tool, in the user's timezone by default and in any other on request (docs/tools.md). */

// Tuesday 1 December 2026, 23:30 UTC: already Wednesday in Tokyo, still Tuesday in New York.
const AT = Date.UTC(2026, 11, 1, 23, 30);
const deps = (timezone: string): ToolDeps => ({ now: () => AT, timezone, threadId: 't' });
const registry = createToolRegistry([nowTool as Tool]);

test("without arguments it answers in the user's own timezone", async () => {
  const r = await registry.run('now', '{}', deps('Asia/Tokyo'), new AbortController().signal);
  assert.ok(r.ok);
  const data = r.data as { iso: string; timezone: string; local: string };
  assert.equal(data.iso, '2026-12-01T23:30:00.000Z');
  assert.equal(data.timezone, 'Asia/Tokyo');
  assert.match(data.local, /^Wednesday,? 2 December 2026(,| at) 08:30 GMT\+9$/);
});

test('another place on request; a zone that does not exist is an error that says so', async () => {
  const r = await registry.run('now', '{"timezone": "America/New_York"}', deps('Asia/Tokyo'), new AbortController().signal);
  assert.ok(r.ok);
  assert.match((r.data as { local: string }).local, /^Tuesday,? 1 December 2026(,| at) 18:30 (EST|GMT-5)$/);
  const bad = await registry.run('now', '{"timezone": "Mars/Olympus"}', deps('UTC'), new AbortController().signal);
  assert.ok(!bad.ok && /not an IANA timezone/.test(bad.error));
});
