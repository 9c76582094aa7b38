import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolDoing, toolLabel } from '@/lib/shared/words/tools';
import { duration, resultPreview, speed, stageLine, thinkingLabel } from './turn-text';

const call = (name: string, args: unknown, rest: Record<string, unknown> = {}) => ({
  id: '1',
  name,
  arguments: JSON.stringify(args),
  ...rest,
});

test('the stage line names what runs now: the web search and its words, the page being read, the queue place', () => {
  assert.equal(
    stageLine('searching', [call('web_search', { query: 'bitcoin price today' })]),
    'Searching the web for “bitcoin price today”…',
  );
  assert.equal(stageLine('searching', [call('fetch_url', { url: 'https://www.example.org/a/b?c' })]), 'Reading a page on www.example.org…');
  assert.equal(
    stageLine('searching', [call('web_search', { query: 'x' }, { ok: true }), call('calculator', { expression: '1+1' })]),
    'Calculating 1+1…',
    'the call still running, not the one done',
  );
  assert.equal(stageLine('checking', [call('web_search', { query: 'x' }, { ok: true })]), 'Checking the answer…');
  assert.equal(stageLine('writing', []), 'Writing…');
  assert.equal(stageLine(null, []), 'Reading the conversation…');
  assert.equal(stageLine('queued', [], 3), 'Waiting for the model: 2 turns ahead…');
  assert.equal(stageLine('queued', [], 2), 'Waiting for the model: 1 turn ahead…');
  assert.equal(stageLine('queued', [], 1), 'Waiting for the model: next in line…');
  assert.equal(stageLine('resumed', []), 'Resuming after a restart…');
  assert.equal(stageLine('searching', []), 'Using tools…');
});

test('"Thinking…" only while a thinking model reasons; "Writing…" once the answer arrives (issue 46)', () => {
  assert.equal(stageLine('thinking', []), 'Reading the conversation…', 'no word yet: not thinking');
  assert.equal(stageLine('thinking', [], undefined, [], undefined, true), 'Writing…', 'a model that does not think, writing');
  assert.equal(stageLine(null, [], undefined, [], undefined, true), 'Writing…');
  const open = [{ text: 'hm', toolCallsBefore: 0, done: false, pieces: 3 }];
  assert.equal(stageLine('thinking', [], undefined, open), 'Thinking… 3 tokens', 'a thinking model reasoning');
  const folded = [{ text: 'hm', toolCallsBefore: 0, done: true }];
  assert.equal(stageLine('thinking', [], undefined, folded, undefined, true), 'Writing…', 'its answer, after it thought');
  assert.equal(
    stageLine('checking', [], undefined, [], undefined, true),
    'Checking the answer…',
    'a draft being checked is not being written',
  );
});

test('a tool in words, whatever its arguments', () => {
  assert.equal(
    toolDoing(call('search_conversations', { query: 'trip to Lyon' })),
    'Looking through earlier conversations for “trip to Lyon”',
  );
  assert.equal(toolDoing({ name: 'web_search', arguments: 'not json' }), 'Searching the web');
  assert.equal(toolDoing({ name: 'fetch_url', arguments: '{"url": "no url"}' }), 'Reading a page on no url');
  assert.equal(toolDoing(call('mystery', {})), 'Using mystery');
  // A tool server's tool and a knowledge search in words, not as raw names (issue 46).
  assert.equal(toolDoing(call('notes__add_note', { text: 'milk' }), true), 'Used the notes tool “add note”');
  assert.equal(toolDoing(call('search_documents', { query: 'warranty' }), true), 'Searched your documents for “warranty”');
  assert.equal(toolDoing(call('some_tool', {})), 'Using some tool');
  assert.equal(
    toolDoing(call('web_search', { query: 'bitcoin' }), true),
    'Searched the web for “bitcoin”',
    'a finished call in the past tense',
  );
  assert.equal(toolDoing(call('fetch_url', { url: 'https://a.org/x' }), true), 'Read a page on a.org');
  assert.equal(toolDoing(call('mystery', {}), true), 'Used mystery');
  assert.match(toolDoing(call('web_search', { query: 'q'.repeat(200) })), /^Searching the web for “q{79}…”$/);
});

test('a result preview in one line: titles found, the page read, the number computed, the failure', () => {
  assert.equal(
    resultPreview(
      call('web_search', {}, { ok: true, result: { results: [{ title: 'A' }, { title: 'B' }, { title: 'C' }, { title: 'D' }] } }),
    ),
    '4 results: A · B · C',
  );
  assert.equal(resultPreview(call('web_search', {}, { ok: true, result: { results: [] } })), '0 results');
  assert.equal(
    resultPreview(call('fetch_url', {}, { ok: true, result: { url: 'https://x.org/p', title: 'The page', text: 'abc'.repeat(1000) } })),
    'The page — 3,000 characters',
  );
  assert.equal(resultPreview(call('calculator', {}, { ok: true, result: { expression: '2^10', result: '1024', exact: true } })), '= 1024');
  assert.equal(
    resultPreview(call('web_search', {}, { ok: false, error: 'the search service did not answer' })),
    'failed: the search service did not answer',
  );
  assert.equal(resultPreview(call('now', {})), 'running…');
  assert.equal(resultPreview(call('now', {}, { ok: true, result: { iso: '2026-12-01T09:30:00Z' } })), '{"iso":"2026-12-01T09:30:00Z"}');
});

test('speed and durations as people read them', () => {
  assert.equal(speed(3300), '3300 tokens/s');
  assert.equal(speed(41.53), '41.5 tokens/s');
  assert.equal(speed(99.96), '100 tokens/s');
  assert.equal(duration(450.4), '450 ms');
  assert.equal(duration(12_440), '12.4 s');
  assert.equal(thinkingLabel({ done: true, ms: 12_440, tokens: 512 }), 'Thought for 12.4 s · 512 tokens');
  assert.equal(thinkingLabel({ done: false, pieces: 1 }), 'Thinking… 1 token');
});

test('a cold model loading: the stage line names it with the whole seconds so far', () => {
  assert.equal(stageLine('loading', [], undefined, [], { model: 'qwen3-30b', since: 1_000, now: 13_900 }), 'Loading qwen3-30b… 12 s');
  assert.equal(stageLine('loading', [], undefined, [], { model: 'qwen3-30b', since: 5_000, now: 4_000 }), 'Loading qwen3-30b… 0 s');
  assert.equal(stageLine('loading', []), 'Loading the model…', 'without its facts, the stage alone');
});

test('a tool named as people read it, never its raw name (issue 46)', () => {
  assert.equal(toolLabel('web_search'), 'web search');
  assert.equal(toolLabel('query_table'), 'table');
  assert.equal(toolLabel('notes__add_note'), 'notes: add note');
  assert.equal(toolLabel('new_tool'), 'new tool');
});
