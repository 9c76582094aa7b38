/**
 * The gate's classifier for `npm run bench`: its time per draft over every draft of the frozen
 * evaluation slices (each judged 20 times, the first round left out as warm-up), and the share
 * of their genuine answers it accepts with no verdict call.
 */
import { performance } from 'node:perf_hooks';
import { deferralClassifier } from '../lib/turns/engine/classifier';
import { evaluate, evaluationSlices } from '../lib/dev/gate-training/classifier-train';

export function measureClassifier(repeats = 20) {
  const c = deferralClassifier();
  const slices = evaluationSlices();
  const drafts = Object.values(slices).flatMap((s) => [...s.deferrals, ...s.genuine]);
  const ms: number[] = [];
  for (let r = 0; r < repeats; r++) {
    for (const d of drafts) {
      const t0 = performance.now();
      c.judge(d);
      if (r > 0) ms.push(performance.now() - t0);
    }
  }
  const report = evaluate(c.score, c.thresholds, slices);
  const genuine = report.reduce((n, x) => n + x.genuine, 0);
  const accepted = report.reduce((n, x) => n + x.answeredWithoutVerdict * x.genuine, 0);
  return { ms, drafts: drafts.length, answeredWithoutVerdict: accepted / genuine };
}
