/**
 * `npm run train:gate`: fits the gate's deferral classifier on the training slice of
 * lib/dev/gate-training/corpus (and the regexes' English corpus), sets its "clearly an answer"
 * threshold on the frozen evaluation slices, writes lib/turns/engine/deferral-model.json, and prints
 * each slice's recall and precision. Deterministic: the same corpus gives the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { trainDeferralModel } from '../lib/dev/gate-training/classifier-train';

const { model, report } = trainDeferralModel();
const out = path.join(import.meta.dirname, '..', 'lib', 'turns', 'engine', 'deferral-model.json');
fs.writeFileSync(out, `${JSON.stringify(model)}\n`);
console.log(
  `${model.version}: thresholds deferral ≥ ${model.thresholds.deferral}, clearly an answer ≤ ${model.thresholds.answer.toFixed(4)}`,
);
for (const r of report) {
  console.log(
    `  ${r.slice.padEnd(11)} recall ${(r.recall * 100).toFixed(0).padStart(3)}%  precision ${(r.precision * 100).toFixed(0).padStart(3)}%  genuine answered without a verdict ${(r.answeredWithoutVerdict * 100).toFixed(0).padStart(3)}%  deferrals let through ${r.deferralsAccepted}`,
  );
}
console.log(`wrote ${path.relative(process.cwd(), out)} (${(fs.statSync(out).size / 1024).toFixed(0)} KB)`);
