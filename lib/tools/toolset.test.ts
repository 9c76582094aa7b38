import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { parseConfig } from '@/lib/shared/config';
import { memoryHosts } from '@/lib/dev/testing/memory-hosts';
import { createToolSet, type ToolStore } from './toolset';

let searx: SearxDouble;
before(async () => (searx = await startSearxDouble()));
after(() => searx.close());

function store(): ToolStore {
  return {
    ...memoryHosts(),
    attachmentOfThread: () => undefined,
    searchIndex: () => [],
    newestMatches: () => [],
    searchSources: () => ({ messages: [], attachments: [], threads: [] }),
    exchangeOf: () => [],
  };
}

test('web search is offered only with SEARXNG_URL; the own SearXNG gets its own budget under the key the tool uses', async () => {
  const off = createToolSet({ config: parseConfig({}), store: store(), now: () => 0 });
  assert.ok(!off.registry.has('web_search'));
  assert.equal(await off.researchAvailable(), false);
  assert.ok(
    off.registry.has('fetch_url') && off.registry.has('calculator') && off.registry.has('now') && off.registry.has('search_conversations'),
  );

  const s = store();
  const on = createToolSet({ config: parseConfig({ SEARXNG_URL: searx.url }), store: s, now: () => 1000 });
  assert.equal(await on.researchAvailable(), true);
  const deps = on.deps('t');
  for (const q of ['a one', 'b two', 'c three']) {
    const r = await on.registry.run('web_search', JSON.stringify({ query: q }), deps, new AbortController().signal);
    assert.ok(r.ok);
  }
  // The spend was recorded under host:port, the key the budget table uses.
  assert.equal((await s.spendSince({ host: new URL(searx.url).host, since: 0 })).length, 3);
});
