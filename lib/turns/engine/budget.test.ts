import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnBudget } from './budget';

/** The turn budget on its own, against literal figures: fuel spent to the last unit, quotas, and what the refusal says. */

const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    const e = err as { code?: string; message: string; detail?: Record<string, unknown> };
    return { code: e.code, message: e.message, detail: e.detail };
  }
  assert.fail('expected budget_exhausted');
};

test('fuel can be spent to exactly its limit; the next call is refused before it is made, saying how much was used', () => {
  const budget = new TurnBudget({ fuel: 300, modelCalls: 10, modelCallCost: 100 });
  budget.chargeModelCall();
  budget.chargeModelCall();
  budget.chargeModelCall();
  assert.deepEqual([budget.fuelUsed, budget.modelCalls], [300, 3]);
  assert.deepEqual(
    refusal(() => budget.chargeModelCall()),
    {
      code: 'budget_exhausted',
      message: 'This turn ran out of fuel (300 of 300 used) before a model call.',
      detail: { fuelUsed: 300 },
    },
  );
  assert.deepEqual([budget.fuelUsed, budget.modelCalls], [300, 3], 'a refused call costs nothing');
});

test('the model-call quota is checked before fuel', () => {
  const budget = new TurnBudget({ fuel: 10_000, modelCalls: 2, modelCallCost: 100 });
  budget.chargeModelCall();
  budget.chargeModelCall();
  assert.deepEqual(
    refusal(() => budget.chargeModelCall()),
    { code: 'budget_exhausted', message: 'This turn reached its limit of 2 model calls.', detail: { fuelUsed: 200 } },
  );
  assert.equal(budget.modelCalls, 2);
});

test('tool runs cost their own fuel, are counted, and are refused by name', () => {
  const budget = new TurnBudget({ fuel: 107, modelCalls: 5, modelCallCost: 100 });
  budget.chargeModelCall();
  budget.chargeToolRun(5, 'web_search');
  budget.chargeToolRun(2, 'calculator');
  assert.deepEqual([budget.fuelUsed, budget.toolRuns], [107, 2]);
  assert.deepEqual(
    refusal(() => budget.chargeToolRun(1, 'now')),
    { code: 'budget_exhausted', message: 'This turn ran out of fuel (107 of 107 used) before the now tool.', detail: { fuelUsed: 107 } },
  );
  assert.equal(budget.toolRuns, 2, 'a refused run is not counted');
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
