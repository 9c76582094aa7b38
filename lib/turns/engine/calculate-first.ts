import type { ContextRuntime } from '@/lib/turns/context/layers';
import { saidYes } from '@/lib/contract/decisions';
import type { ChatMessage } from '@/lib/models/types';
import { arithmeticStep, planAndCompute, type PlanOutcome } from './arithmetic';
import type { GatheredCalculation } from './compiled';
import { exactResultNote } from './prompts';
import type { TurnIO } from './turn-io';

export type CalculatedFirst = {
  calculation: GatheredCalculation;
  /** Tells the model the exact result to answer with. */
  note: ChatMessage;
  /** The calculation as the gate's verdict reads it. */
  forGate: string;
};

/**
 * Program-decided arithmetic, before the first round (see arithmetic.ts): when the decide step
 * says the question is arithmetic, the model writes only the plan and the program computes it.
 * Null when it is not arithmetic or the plan could not be computed (said in the diagnostics).
 */
export async function calculateFirst(io: TurnIO, question: string, context: ContextRuntime): Promise<CalculatedFirst | null> {
  io.emit({ type: 'status', stage: 'checking' });
  const record = await io.decide(arithmeticStep, question, context);
  if (!saidYes(record.answers.is_arithmetic)) return null;
  const { value: plan } = await io.steps.step<PlanOutcome>('plan', () => planAndCompute(io.model, question, io.signal));
  if (!plan.ok) {
    io.diagnostics.push(`calculation skipped: ${plan.diagnostic}`);
    return null;
  }
  const c = plan.calculation;
  const calculation = { expression: c.expression, result: c.fraction ? `${c.result} (exactly ${c.fraction})` : c.result };
  io.emit({
    type: 'calculation',
    expression: c.expression,
    result: c.result,
    exact: c.exact,
    ...(c.fraction ? { fraction: c.fraction } : {}),
  });
  return {
    calculation,
    note: { role: 'user', content: exactResultNote(calculation.result, c.expression) },
    forGate: `calculation: ${c.expression} = ${c.result}`,
  };
}
