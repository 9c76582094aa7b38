import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scoreNote } from './score-note';

const scorecard = { completed: 14, runs: 16, met: 40, total: 48, deferralsLeft: 1, tokensPerSecond: 41.6, at: '2026-12-01T00:00:00Z' };
const gate = { recall: 0.917, precision: 0.968, msPerJudgement: 181.4, drafts: 220, languages: 7, at: '2026-12-02T00:00:00Z' };

test('the picker’s note: the scenario headline, the model as the gate’s judge, both, or nothing', () => {
  assert.equal(scoreNote({}), '');
  assert.equal(scoreNote({ scorecard }), ' — 14/16 answered · 1 deferral left · 42 tok/s');
  assert.equal(scoreNote({ gate }), ' — as judge: catches 92% of deferrals, 97% right, 181 ms');
  assert.equal(
    scoreNote({ scorecard: { ...scorecard, deferralsLeft: 2, tokensPerSecond: null }, gate: { ...gate, precision: null } }),
    ' — 14/16 answered · 2 deferrals left · as judge: catches 92% of deferrals, – right, 181 ms',
  );
});

test('the thumbs the model’s answers got here come last, alone or after the eval', () => {
  assert.equal(scoreNote({ ratings: { up: 3, down: 1 } }), ' — your thumbs: 3 up, 1 down');
  assert.equal(
    scoreNote({ scorecard, ratings: { up: 0, down: 2 } }),
    ' — 14/16 answered · 1 deferral left · 42 tok/s · your thumbs: 0 up, 2 down',
  );
});
