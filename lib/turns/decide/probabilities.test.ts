import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argmax, valueDistribution } from './probabilities';

/** Reading a field's value distribution from grammar-aware token probabilities, case by case, with literal figures. */

const tok = (token: string, top: [string, number][] = [], prob = 1) => ({ token, prob, top: top.map(([t, p]) => ({ token: t, prob: p })) });
const near = (actual: Record<string, number> | null, expected: Record<string, number>) => {
  assert.ok(actual, 'a distribution');
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected)) assert.ok(Math.abs(actual[k] - v) < 1e-9, `${k}: ${actual[k]} against ${v}`);
};

test('the value starting at the token after the marker: its candidates share the mass', () => {
  const tokens = [
    tok('{"verdict": "'),
    tok('yes', [
      ['yes', 0.7],
      ['no', 0.3],
    ]),
    tok('"}'),
  ];
  near(valueDistribution(tokens, 'verdict', ['yes', 'no'], true), { yes: 0.7, no: 0.3 });
});

test('the marker and the start of the value in one token: each candidate is read past the marker', () => {
  const tokens = [
    tok('{"verdict": "ye', [
      ['{"verdict": "ye', 0.6],
      ['{"verdict": "n', 0.4],
    ]),
    tok('s"}'),
  ];
  near(valueDistribution(tokens, 'verdict', ['yes', 'no'], true), { yes: 0.6, no: 0.4 });
});

test('a candidate that could begin two values gives each half; candidates that fit no value do not count', () => {
  const tokens = [
    tok('{"a": "'),
    tok('n', [
      ['n', 0.5],
      ['yes', 0.3],
      ['zzz', 0.2],
    ]),
  ];
  near(valueDistribution(tokens, 'a', ['yes', 'no', 'not_sure'], true), { yes: 0.3 / 0.8, no: 0.25 / 0.8, not_sure: 0.25 / 0.8 });
});

test('unquoted values (booleans) are read without a quote after the colon', () => {
  const tokens = [
    tok('{"ok":'),
    tok(' '),
    tok('true', [
      ['true', 0.8],
      ['false', 0.2],
    ]),
    tok('}'),
  ];
  near(valueDistribution(tokens, 'ok', ['true', 'false'], false), { true: 0.8, false: 0.2 });
});

test('without candidates the chosen token counts whole; with none fitting, or no marker, there is no distribution', () => {
  near(valueDistribution([tok('{"v": "'), tok('no', [], 0)], 'v', ['yes', 'no'], true), { yes: 0, no: 1 });
  assert.equal(valueDistribution([tok('{"v": "'), tok('maybe', [['maybe', 1]])], 'v', ['yes', 'no'], true), null);
  assert.equal(valueDistribution([tok('{"other": "'), tok('yes', [['yes', 1]])], 'v', ['yes', 'no'], true), null);
  // The key is matched as written, not as a pattern: "a.b" is not "axb".
  assert.equal(valueDistribution([tok('{"axb": "'), tok('yes', [['yes', 1]])], 'a.b', ['yes', 'no'], true), null);
  near(valueDistribution([tok('{"a.b": "'), tok('yes', [['yes', 1]])], 'a.b', ['yes', 'no'], true), { yes: 1, no: 0 });
});

test('argmax takes the most probable value, and the earlier one on a tie', () => {
  assert.equal(argmax({ yes: 0.2, no: 0.8 }, ['yes', 'no']), 'no');
  assert.equal(argmax({ yes: 0.5, no: 0.5 }, ['yes', 'no']), 'yes');
  assert.equal(argmax({ yes: 0.5, no: 0.5 }, ['no', 'yes']), 'no');
});
