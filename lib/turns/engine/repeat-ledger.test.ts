import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalArguments, RepeatLedger } from './repeat-ledger';

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
