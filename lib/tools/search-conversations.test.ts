import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchConversationsTool, searchWords } from './search-conversations';
import { isToolError, type ConversationHit, type ToolDeps } from './types';

/** search_conversations alone: the words it searches for, what it asks the index, and what it tells the model. */

test('search words: lower case, two characters or more, common and conversational words dropped, no repeats, at most 8', () => {
  assert.deepEqual(searchWords('What did we say about the Boiler in Lyon last time?'), ['boiler', 'lyon']);
  assert.deepEqual(searchWords('a b c x1 Zürich ZÜRICH 東京 42'), ['x1', 'zürich', '東京', '42']);
  assert.deepEqual(searchWords('one two three four five six seven eight nine ten'), [
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
  ]);
  assert.deepEqual(searchWords('did we talk about it earlier, do you remember?'), []);
  assert.deepEqual(searchWords('conversation conversations discussed remember'), []);
});

function deps(hits: ConversationHit[], asked: unknown[]): ToolDeps {
  return {
    now: () => 0,
    timezone: 'UTC',
    threadId: 'current',
    searchConversations: async (args) => {
      asked.push(args);
      return hits;
    },
  };
}

const signal = new AbortController().signal;

test('search_conversations: asks the index for the words, six by default, never the current thread', async () => {
  const asked: unknown[] = [];
  await searchConversationsTool.run({ query: 'the Boiler repair' }, deps([], asked), signal);
  await searchConversationsTool.run({ query: 'boiler', limit: 15 }, deps([], asked), signal);
  assert.deepEqual(asked, [
    { query: 'boiler repair', limit: 6, excludeThreadId: 'current' },
    { query: 'boiler', limit: 15, excludeThreadId: 'current' },
  ]);
});

test('search_conversations: results carry the thread, its date, the side that matched and the other side cut to 600, with the not-current-facts note', async () => {
  const hits: ConversationHit[] = [
    {
      threadId: 't1',
      title: 'Boiler',
      role: 'user',
      excerpt: 'the boiler hums',
      createdAt: Date.UTC(2026, 10, 2, 23, 59),
      other: 'r'.repeat(700),
    },
    { threadId: 't2', title: '', role: null, excerpt: 'Boiler notes', createdAt: Date.UTC(2025, 0, 1) },
  ];
  const out = await searchConversationsTool.run({ query: 'the Boiler repair' }, deps(hits, []), signal);
  assert.deepEqual(out, {
    note: 'These are earlier conversations, not current facts: anything time-sensitive in them may have changed.',
    query: 'boiler repair',
    results: [
      { thread: 'Boiler', threadId: 't1', date: '2026-11-02', role: 'user', excerpt: 'the boiler hums', reply: 'r'.repeat(600) },
      { thread: '(untitled)', threadId: 't2', date: '2025-01-01', role: null, excerpt: 'Boiler notes' },
    ],
  });
});

test('search_conversations: no search here, or no word worth searching, is advice to the model', async () => {
  const without: ToolDeps = { now: () => 0, timezone: 'UTC', threadId: 'x' };
  await assert.rejects(
    searchConversationsTool.run({ query: 'boiler' }, without, signal),
    (err: unknown) => isToolError(err) && (err as Error).message === 'conversation search is not available here',
  );
  await assert.rejects(
    searchConversationsTool.run({ query: 'what did we say earlier?' }, deps([], []), signal),
    (err: unknown) => isToolError(err) && (err as Error).message === 'give one or more distinctive words to search for',
  );
  await assert.rejects(
    searchConversationsTool.run({ query: '?! …' }, deps([], []), signal),
    (err: unknown) => isToolError(err) && (err as Error).message === 'give one or more distinctive words to search for',
    'no letters or digits at all',
  );
});

test('search_conversations: its parameters (query 1 to 200 characters, limit 1 to 15) and cost', () => {
  const p = searchConversationsTool.params;
  assert.equal(p.safeParse({ query: '' }).success, false);
  assert.equal(p.safeParse({ query: 'x'.repeat(200) }).success, true);
  assert.equal(p.safeParse({ query: 'x'.repeat(201) }).success, false);
  assert.equal(p.safeParse({ query: 'x', limit: 0 }).success, false);
  assert.equal(p.safeParse({ query: 'x', limit: 15 }).success, true);
  assert.equal(p.safeParse({ query: 'x', limit: 16 }).success, false);
  assert.equal(p.safeParse({ query: 'x', limit: 2.5 }).success, false);
  assert.equal(searchConversationsTool.cost, 2);
  assert.equal(searchConversationsTool.timeoutMs, 3000);
  assert.equal(searchConversationsTool.research, undefined, 'earlier conversations are not research on current facts');
  assert.match(searchConversationsTool.description, /not current facts/);
});
