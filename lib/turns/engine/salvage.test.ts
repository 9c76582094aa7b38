import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MarkupHoldback, salvageToolCalls, stripToolMarkup } from './salvage';

/** Tool calls written as text, read back exactly; the markup kept from the user, chunk by chunk. */

const calls = (text: string) => salvageToolCalls(text).map((c) => [c.name, JSON.parse(c.arguments), c.id]);

test('salvage: the JSON form with arguments as an object, as a string, or as "parameters"', () => {
  assert.deepEqual(calls('<tool_call>{"name": "web_search", "arguments": {"query": "q"}}</tool_call>'), [
    ['web_search', { query: 'q' }, ''],
  ]);
  assert.deepEqual(calls('<tool_call>{"name": "now", "arguments": "{\\"tz\\": \\"UTC\\"}"}</tool_call>'), [['now', { tz: 'UTC' }, '']]);
  assert.deepEqual(calls('<tool_call>{"name": "now", "parameters": {"tz": "UTC"}}</tool_call>'), [['now', { tz: 'UTC' }, '']]);
  assert.deepEqual(calls('<tool_call>{"name": "now"}</tool_call>'), [['now', {}, '']], 'no arguments: an empty object');
  assert.deepEqual(
    calls('<tool_call>{"name": "now", "arguments": 5}</tool_call>'),
    [['now', {}, '']],
    'arguments that are no object are dropped',
  );
});

test('salvage: two calls in one reply, an unclosed last one, and the tag form with several parameters', () => {
  assert.deepEqual(calls('<tool_call>{"name": "a", "arguments": {}}</tool_call> then <tool_call>{"name": "b", "arguments": {"x": 1}}'), [
    ['a', {}, ''],
    ['b', { x: 1 }, ''],
  ]);
  assert.deepEqual(
    calls('<function=fetch_url>\n<parameter=url>\nhttps://x.org/a\n</parameter>\n<parameter=max_chars>\n500\n</parameter>\n</function>'),
    [['fetch_url', { url: 'https://x.org/a', max_chars: '500' }, '']],
  );
  assert.deepEqual(
    calls('<function=a><parameter=q>one<parameter=r>two</function><function=b><parameter=s>three'),
    [
      ['a', { q: 'one', r: 'two' }, ''],
      ['b', { s: 'three' }, ''],
    ],
    'a parameter ends at the next parameter, the end of its function, or the end of the text',
  );
});

test('salvage: broken JSON falls back to the tag form; names must look like tool names', () => {
  assert.deepEqual(calls('<tool_call><function=now> {not json} </function></tool_call>'), [['now', {}, '']]);
  assert.deepEqual(calls('<tool_call>{"name": "a b"}</tool_call>'), [], 'a space');
  assert.deepEqual(calls(`<tool_call>{"name": "${'x'.repeat(65)}"}</tool_call>`), [], 'over 64 characters');
  assert.deepEqual(calls(`<tool_call>{"name": "${'x'.repeat(64)}"}</tool_call>`).length, 1, '64 characters');
  assert.deepEqual(calls('<tool_call>{"name": 7}</tool_call>'), [], 'a name that is no string');
  assert.deepEqual(calls('no markup at all {"name": "now"}'), []);
  assert.deepEqual(calls('<tool_call>{"name": "x.y-z_1"}</tool_call>'), [['x.y-z_1', {}, '']], 'dots, dashes and underscores');
});

test('strip: every form of markup goes, the words around it stay, blank runs fold', () => {
  assert.equal(stripToolMarkup('Hi <tool_call>{"name":"x"}</tool_call> there'), 'Hi  there');
  assert.equal(stripToolMarkup('Before\n<tool_call>{"name": "x"'), 'Before', 'an unclosed call runs to the end');
  assert.equal(stripToolMarkup('A <function=x><parameter=y>1</parameter></function> B'), 'A  B');
  assert.equal(stripToolMarkup('A <function=x> unclosed'), 'A');
  assert.equal(stripToolMarkup('stray </tool_call> and </parameter> and <function>'), 'stray  and  and');
  assert.equal(stripToolMarkup('one\n\n\n\n\ntwo'), 'one\n\ntwo');
  assert.equal(stripToolMarkup('  plain  '), 'plain');
});

test('holdback: the words before a marker pass at once, everything after it is kept back for good', () => {
  const h = new MarkupHoldback();
  assert.equal(h.push('Answer: '), 'Answer: ');
  assert.equal(h.push('yes <function=now>'), 'yes ');
  assert.equal(h.push(' more words'), '', 'once markup began, nothing more is shown');
  assert.equal(h.flush(), '');
});

test('holdback: a tail that could start either marker waits; one that cannot is let go', () => {
  const h = new MarkupHoldback();
  assert.equal(h.push('x <func'), 'x ');
  assert.equal(h.push('tional'), '<functional', 'not a marker after all');
  assert.equal(h.push(' <'), ' ');
  assert.equal(h.push('t'), '', '"<t" may start <tool_call');
  assert.equal(h.push('ea'), '<tea');
  assert.equal(h.push(' <tool_cal'), ' ');
  assert.equal(h.flush(), '<tool_cal', 'at the end, a tail held only because it might have been markup is shown');
  assert.equal(h.flush(), '', 'and only once');
  const lone = new MarkupHoldback();
  assert.equal(lone.push('a <b'), 'a <b', '"<b" starts no marker');
  assert.equal(lone.push(' <'), ' ');
  assert.equal(lone.flush(), '<');
});

test('salvage and strip at their edges: a function tag without its closing bracket, a value with spaces, a stray parameter tag', () => {
  const [call] = salvageToolCalls('<function=lookup\n<parameter=q>\nParis France\n</parameter>\n</function>');
  assert.deepEqual([call?.name, JSON.parse(call?.arguments ?? '{}')], ['lookup', { q: 'Paris France' }]);
  assert.equal(stripToolMarkup('Hello <parameter=city>Paris'), 'Hello Paris');
});

test('holdback: once a marker is held, the end of the stream lets nothing out (whole, or completed across pushes)', () => {
  const h = new MarkupHoldback();
  assert.equal(h.push('Sure <tool_call>{"name"'), 'Sure ');
  assert.equal(h.push(': "x"}</tool_call> and more'), '');
  assert.equal(h.flush(), '');
  const split = new MarkupHoldback();
  assert.equal(split.push('Hello <tool_'), 'Hello ');
  assert.equal(split.push('call>{"name"'), '');
  assert.equal(split.flush(), '');
});

test('salvage: both markup forms become calls, invented names too (the registry answers those); junk names do not', () => {
  const a = salvageToolCalls('<tool_call>{"name":"web_search","arguments":{"query":"q"}}</tool_call>');
  assert.deepEqual(JSON.parse(a[0].arguments), { query: 'q' });
  const b = salvageToolCalls('<tool_call> <function=fetch_url> <parameter=url> https://x.org </parameter> </function>');
  assert.equal(b[0].name, 'fetch_url');
  assert.deepEqual(JSON.parse(b[0].arguments), { url: 'https://x.org' });
  const invented = salvageToolCalls('<tool_call>{"name": "get_weather", "arguments": {"city": "Lyon"}}</tool_call>');
  assert.deepEqual(
    invented.map((c) => [c.name, JSON.parse(c.arguments)]),
    [['get_weather', { city: 'Lyon' }]],
  );
  assert.deepEqual(salvageToolCalls('<tool_call>{"name":"rm -rf /","arguments":{}}</tool_call>'), []);
  assert.equal(stripToolMarkup('Hi <tool_call>{"name":"x"}</tool_call> there'), 'Hi  there');
});
