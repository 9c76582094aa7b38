import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { describeDecision, percent } from './decisions';

const record = (stepId: string, answers: Record<string, unknown>) => ({
  stepId,
  at: 0,
  modelId: 'm',
  source: 'native' as const,
  answers: answers as never,
});

test('checks read as sentences with their probability, not as raw values', () => {
  assert.deepEqual(
    describeDecision(record('freshness', { needs_fresh: { kind: 'boolean', value: false, p: 0.88 }, query: { kind: 'text', value: '' } })),
    [{ label: 'Needs current information', text: 'no', p: 0.88 }],
  );
  assert.deepEqual(
    describeDecision(
      record('verdict', { verdict: { kind: 'choice', value: 'research', p: 0.8 }, query: { kind: 'text', value: 'bitcoin price today' } }),
    ),
    [
      { label: 'Answers the question', text: 'no, it needs a search', p: 0.8 },
      { label: 'Still to look up', text: '“bitcoin price today”' },
    ],
  );
  assert.equal(percent(0.876), '88%');
});

test('a refusal is "no answer from the model"; an unknown step falls back to its field names', () => {
  assert.deepEqual(describeDecision(record('verdict', { verdict: { refused: true, reason: 'schema' } })), [
    { label: 'Answers the question', text: 'no answer from the model' },
  ]);
  assert.deepEqual(describeDecision(record('tone', { is_polite: { kind: 'boolean', value: true, p: 0.6 } })), [
    { label: 'is polite', text: 'yes', p: 0.6 },
  ]);
});

test('a check that found the answer complete says nothing is still to look up; one that asks for a search names it', () => {
  const verdict = (value: string, query: string): DecisionRecord => ({
    stepId: 'verdict',
    at: 1,
    modelId: 'm',
    source: 'native',
    answers: { verdict: { kind: 'choice', value, p: 0.9 }, query: { kind: 'text', value: query } },
  });
  assert.deepEqual(
    describeDecision(verdict('answered', 'bitcoin price')).map((l) => l.label),
    ['Answers the question'],
  );
  assert.deepEqual(
    describeDecision(verdict('research', 'bitcoin price')).map((l) => [l.label, l.text]),
    [
      ['Answers the question', 'no, it needs a search'],
      ['Still to look up', '“bitcoin price”'],
    ],
  );
});
