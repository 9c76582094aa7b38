import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { mock, test } from 'node:test';
import { FileStore, type FileKind } from '@/lib/data/file-store';
import { parseConfig } from '@/lib/shared/config';
import { freshStore, seedExchange } from '@/lib/dev/testing/store';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { createHostPacer } from './politeness';
import { createToolSet } from './toolset';
import type { MemoryBook } from './types';
import { z } from 'zod';

const filesDir = (dataDir: string) => FileStore.of(dataDir).root;
const textPath = (dir: string, file: { sha256: string; kind: FileKind }) => new FileStore(dir).textPathOf(file);

/**
 * The tool set a turn gets, over a real database: which tools are in it, when research counts
 * as available, and what the tools' dependencies give them (the user's timezone, a file of
 * this thread only, earlier conversations with the other side of each exchange).
 */

const memory: MemoryBook = {
  list: () => [],
  add: (text) => ({ id: 'm', text }),
  edit: (id, text) => ({ id, text }),
  forget: () => undefined,
};
const SEARX = 'http://127.0.0.1:8888';

test('remember only with a memory; tools left out are gone, and research with web_search', async () => {
  const store = freshStore();
  const names = (set: ReturnType<typeof createToolSet>) => set.registry.tools.map((t) => t.name).sort();
  const plain = createToolSet({ config: parseConfig({}), store, now: () => 0 });
  assert.deepEqual(names(plain), [
    'calculator',
    'fetch_url',
    'grep_attachment',
    'now',
    'query_table',
    'read_attachment',
    'search_conversations',
  ]);
  const full = createToolSet({ config: parseConfig({ SEARXNG_URL: SEARX }), store, now: () => 0, memory });
  assert.deepEqual(names(full), [
    'calculator',
    'fetch_url',
    'grep_attachment',
    'now',
    'query_table',
    'read_attachment',
    'remember',
    'search_conversations',
    'web_search',
  ]);
  assert.equal(await full.researchAvailable(), true);
  const without = createToolSet({
    config: parseConfig({ SEARXNG_URL: SEARX }),
    store,
    now: () => 0,
    without: ['web_search', 'calculator'],
  });
  assert.ok(!without.registry.has('web_search') && !without.registry.has('calculator'));
  assert.equal(await without.researchAvailable(), false, 'no research without web_search');
});

test('research is unavailable while the SearXNG host rests, and available again after', async () => {
  const store = freshStore();
  let t = 1000;
  const set = createToolSet({ config: parseConfig({ SEARXNG_URL: SEARX }), store, now: () => t });
  await store.setPenalty({ host: '127.0.0.1:8888', until: 5000, reason: 'it answered HTTP 429 (too many requests)' });
  assert.equal(await set.researchAvailable(), false);
  t = 5000;
  assert.equal(await set.researchAvailable(), true);
});

test('a turn’s tool dependencies: the clock, the user’s timezone, the thread, the memory', () => {
  const now = () => 42;
  const deps = createToolSet({ config: parseConfig({ HEARTH_TIMEZONE: 'Asia/Tokyo' }), store: freshStore(), now, memory }).deps('th');
  assert.equal(deps.now, now);
  assert.equal(deps.timezone, 'Asia/Tokyo');
  assert.equal(deps.threadId, 'th');
  assert.equal(deps.memory, memory);
});

test('a file is read from this thread only, from disk when its text is kept there', async () => {
  const store = freshStore();
  const dataDir = makeTempDir('hearth-toolset');
  const mine = await seedExchange(store, { thread: 'th' });
  const theirs = await seedExchange(store, { thread: 'other' });
  await store.insertAttachment({
    id: 'notes',
    name: 'notes.txt',
    mime: 'text/plain',
    size: 9,
    sha256: 'a1'.repeat(32),
    text: 'line one\nline two',
    now: 1,
  });
  await store.insertAttachment({ id: 'old', name: 'old.txt', mime: 'text/plain', size: 3, sha256: 'b2'.repeat(32), text: 'old', now: 1 });
  await store.insertAttachment({
    id: 'foreign',
    name: 'f.txt',
    mime: 'text/plain',
    size: 3,
    sha256: 'c3'.repeat(32),
    text: 'not yours',
    now: 1,
  });
  await store.linkAttachments({ ids: ['notes', 'old'], messageId: mine.user });
  await store.linkAttachments({ ids: ['foreign'], messageId: theirs.user });
  const onDisk = textPath(filesDir(dataDir), { sha256: 'a1'.repeat(32), kind: 'text' });
  fs.mkdirSync(path.dirname(onDisk), { recursive: true });
  fs.writeFileSync(onDisk, 'line one\nline two');
  const deps = createToolSet({ config: parseConfig({ DATA_DIR: dataDir }), store, now: () => 0 }).deps('th');
  assert.deepEqual(await deps.attachmentText?.('notes'), {
    name: 'notes.txt',
    path: onDisk,
    text: 'line one\nline two',
    chars: 17,
    lines: 2,
  });
  assert.deepEqual(
    await deps.attachmentText?.('old'),
    { name: 'old.txt', path: null, text: 'old', chars: 3, lines: 1 },
    'a file attached before files were kept: its stored text',
  );
  assert.equal(await deps.attachmentText?.('foreign'), undefined, 'another thread’s file');
  assert.equal(await deps.attachmentText?.('missing'), undefined);
});

test('earlier conversations: all the words first, any word when none match all; the other side of each exchange, cut', async () => {
  const store = freshStore();
  const long = `Sourdough wants a warm place. ${'x'.repeat(700)}`;
  await seedExchange(store, { thread: 'bread' }, { question: 'How do I keep a sourdough starter alive?', answer: long, now: 10 });
  await seedExchange(store, { thread: 'here' }, { question: 'Sourdough starter again?', answer: 'Feed it.', now: 20 });
  await seedExchange(store, { thread: 'cake' }, { question: 'Is a cake starter a thing?', answer: 'Not really.', now: 15 });
  await store.setModelTitle({ id: 'bread', title: 'Sourdough care' });
  const deps = createToolSet({ config: parseConfig({}), store, now: () => 100 }).deps('here');
  const all = (await deps.searchConversations?.({ query: 'starter alive', limit: 5, excludeThreadId: 'here' })) ?? [];
  assert.equal(all.length, 1);
  assert.deepEqual([all[0].threadId, all[0].title, all[0].role, all[0].createdAt], ['bread', 'Sourdough care', 'user', 10]);
  assert.equal(all[0].other, long.slice(0, 600), 'the answer to the question found, cut to 600 characters');
  const anyWord = (await deps.searchConversations?.({ query: 'starter zebra', limit: 5, excludeThreadId: 'here' })) ?? [];
  assert.deepEqual(anyWord.map((h) => h.threadId).sort(), ['bread', 'cake'], 'no message has both words: any word finds them');
  const none = (await deps.searchConversations?.({ query: 'zebra', limit: 5 })) ?? [];
  assert.deepEqual(none, []);
});

test('the user’s own SearXNG is asked without a gap between searches; an outside site gets the default 400 ms', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const asked: string[] = [];
    const fetchImpl = (async (url: URL) => {
      asked.push(String(url));
      return Response.json({ results: [{ title: 'T', url: 'https://t.example/', content: 'c' }] });
    }) as unknown as typeof fetch;
    const set = createToolSet({ config: parseConfig({ SEARXNG_URL: SEARX }), store: freshStore(), now: () => 1000, fetchImpl });
    const deps = set.deps('th');
    const search = (q: string) => set.registry.run('web_search', JSON.stringify({ query: q }), deps, new AbortController().signal);
    assert.ok((await search('one')).ok);
    const second = search('two');
    await new Promise((r) => setImmediate(r));
    assert.equal(asked.length, 2, 'no wait for the second search');
    assert.ok((await second).ok);

    // Every other host has the pacer's default: a second request to it waits 400 ms.
    const pacer = createHostPacer(freshStore(), () => 1000);
    assert.deepEqual(await pacer.admit('site.example'), { ok: true, waitMs: 0 });
    assert.deepEqual(await pacer.admit('site.example'), { ok: true, waitMs: 400 });
  } finally {
    mock.timers.reset();
  }
});

test('a tool server marked as a source of information counts as research, even without SearXNG; a thread can leave tools out', async () => {
  const source = (research: boolean) => ({
    name: 'home__lookup',
    description: 'look something up',
    params: z.record(z.string(), z.unknown()),
    cost: 5,
    timeoutMs: 1000,
    research,
    async run() {
      return {};
    },
  });
  const config = parseConfig({ DATA_DIR: makeTempDir('hearth-toolset') });
  assert.equal(await createToolSet({ config, store: freshStore(), now: () => 0 }).researchAvailable(), false);
  assert.equal(await createToolSet({ config, store: freshStore(), now: () => 0, extra: [source(false)] }).researchAvailable(), false);
  const set = createToolSet({ config, store: freshStore(), now: () => 0, extra: [source(true)] });
  assert.equal(await set.researchAvailable(), true);
  assert.ok(set.registry.has('home__lookup'));
  const narrowed = set.without!(['home__lookup']);
  assert.equal(narrowed.registry.has('home__lookup'), false);
  assert.equal(await narrowed.researchAvailable(), false, 'without its only research tool, a thread has none');
  assert.equal(set.without!(['home__lookup']), narrowed, 'made once per choice');
  assert.equal(set.without!([]), set);
});
