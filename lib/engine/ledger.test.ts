import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalArguments, RepeatLedger } from './ledger';
import { MarkupHoldback, salvageToolCalls, stripToolMarkup } from './salvage';
import { TurnBudget } from './budget';

test('canonical arguments: keys sorted, size-only arguments dropped, case folded', () => {
  assert.equal(canonicalArguments('{"b":1,"query":"Bitcoin","limit":5}'), canonicalArguments('{"query":"bitcoin ","b":1,"n":9}'));
  assert.notEqual(canonicalArguments('{"query":"a"}'), canonicalArguments('{"query":"b"}'));
  assert.equal(canonicalArguments('not json '), 'not json');
});

test('the ledger answers a repeat with the earlier result and a note', () => {
  const l = new RepeatLedger();
  l.remember('web_search', '{"query":"x"}', { name: 'web_search', ok: true, content: '{"results":[1]}' });
  const hit = l.lookup('web_search', '{"query":"X","limit":3}');
  assert.ok(hit);
  const msg = JSON.parse(l.repeatMessage(hit!));
  assert.equal(msg.repeat, true);
  assert.deepEqual(msg.result, { results: [1] });
  assert.equal(l.lookup('now', '{"query":"x"}'), undefined);
});

test('salvage: both markup forms become calls, invented names too (the registry answers those); junk names do not', () => {
  const a = salvageToolCalls('<tool_call>{"name":"web_search","arguments":{"query":"q"}}</tool_call>');
  assert.deepEqual(JSON.parse(a[0].arguments), { query: 'q' });
  const b = salvageToolCalls('<tool_call> <function=fetch_url> <parameter=url> https://x.org </parameter> </function>');
  assert.equal(b[0].name, 'fetch_url');
  assert.deepEqual(JSON.parse(b[0].arguments), { url: 'https://x.org' });
  const invented = salvageToolCalls('<tool_call>{"name": "get_weather", "arguments": {"city": "Lyon"}}</tool_call>');
  assert.deepEqual(invented.map((c) => [c.name, JSON.parse(c.arguments)]), [['get_weather', { city: 'Lyon' }]]);
  assert.deepEqual(salvageToolCalls('<tool_call>{"name":"rm -rf /","arguments":{}}</tool_call>'), []);
  assert.equal(stripToolMarkup('Hi <tool_call>{"name":"x"}</tool_call> there'), 'Hi  there');
});

test('holdback keeps back a streamed tail that may start tool-call markup', () => {
  const h = new MarkupHoldback();
  assert.equal(h.push('Hello <tool_'), 'Hello ');
  assert.equal(h.push('call>{"name"'), '');
  assert.equal(h.flush(), '');
  const h2 = new MarkupHoldback();
  assert.equal(h2.push('a <b'), 'a <b');
  assert.equal(h2.push(' <'), ' ');
  assert.equal(h2.flush(), '<');
});

test('budget: quota before fuel, and nothing is charged for a blocked call', () => {
  const b = new TurnBudget({ fuel: 250, modelCalls: 2, modelCallCost: 100 });
  b.chargeModelCall();
  b.chargeModelCall();
  assert.throws(() => b.chargeModelCall(), /limit of 2 model calls/);
  assert.equal(b.fuelUsed, 200);
  assert.throws(() => b.chargeToolRun(60, 'x'), /ran out of fuel/);
  assert.equal(b.fuelUsed, 200);
});

test('canonical arguments, exactly: sorted keys, every size-only argument dropped, strings trimmed, all lower case', () => {
  assert.equal(
    canonicalArguments('{"z":" Two ","a":1,"n":1,"limit":2,"max_chars":3,"top":4,"days":5,"max_results":6,"count":7,"m":"X"}'),
    '{"a":1,"m":"x","z":"two"}',
  );
  assert.equal(canonicalArguments('{"b":1,"a":2,"a2":3}'), '{"a":2,"a2":3,"b":1}');
  assert.equal(canonicalArguments('["B", 1]'), '["b",1]', 'an array is kept whole, lower case');
  assert.equal(canonicalArguments('"Q"'), '"q"');
  assert.equal(canonicalArguments('null'), 'null');
  assert.equal(canonicalArguments('  Not JSON  '), 'not json');
});

test('the ledger: a repeat of a failed call says so; raw text results are passed as text; keys keep tools apart', () => {
  const l = new RepeatLedger();
  assert.equal(l.key('a', '{"x":1}'), 'a\u0000{"x":1}');
  assert.deepEqual(JSON.parse(l.repeatMessage({ name: 'a', ok: false, content: 'plain words' })), {
    repeat: true,
    note: 'You already called this tool with these exact arguments in this turn. The result is below and it will not change. Do not call it again: use it, try different arguments, or answer and say what is missing.',
    result: 'plain words',
  });
  l.remember('a', '{"x":1}', { name: 'a', ok: true, content: '1' });
  assert.equal(l.lookup('b', '{"x":1}'), undefined);
  assert.equal(l.repeats, 0, 'looking up does not count as a repeat (the engine counts)');
});
