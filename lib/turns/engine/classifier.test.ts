import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import shipped from './deferral-model.json' with { type: 'json' };
import frozen from '@/lib/dev/gate-training/corpus/eval.json' with { type: 'json' };
import { deferralClassifier, features, tokens, type DeferralModel } from './classifier';
import { evaluate, evaluationSlices, trainDeferralModel, trainingSlices } from '@/lib/dev/gate-training/classifier-train';

/**
 * The gate's classifier on text it was not trained on: the frozen evaluation slices (the
 * regexes' held-out English slice, a fresh English one, and one each in French, German,
 * Spanish, Portuguese, Italian and Chinese), each language on its own, against the targets:
 * recall ≥ 0.90 and precision ≥ 0.98 for "a deferral", and no deferral accepted without a
 * verdict. `npm test` prints the figures.
 */

/** The evaluation slices as written (their JSON's SHA-256): a change would make them a training set. Write a new slice instead. */
const FROZEN_SHA256 = '8bb5bc3d7cd22eab15a23a328a7ab774d1d9662f6e712bbcad5478778a324f07';

test('the evaluation slices are frozen and never trained on', () => {
  assert.equal(createHash('sha256').update(JSON.stringify(frozen)).digest('hex'), FROZEN_SHA256, 'the frozen slices changed');
  const trained = new Set(Object.values(trainingSlices()).flatMap((s) => [...s.deferrals, ...s.genuine]));
  for (const [name, s] of Object.entries(evaluationSlices())) {
    assert.ok(s.deferrals.length >= 15 && s.genuine.length >= 15, `${name} has 15 of each at least`);
    for (const d of [...s.deferrals, ...s.genuine]) assert.ok(!trained.has(d), `${name}: in the training slice too: ${d}`);
  }
  assert.deepEqual(Object.keys(evaluationSlices()).sort(), ['de', 'en-fresh', 'en-heldout', 'es', 'fr', 'it', 'pt', 'zh']);
});

test('on every frozen slice, each language on its own: recall ≥ 0.90, precision ≥ 0.98, and no deferral accepted without a verdict', () => {
  const c = deferralClassifier();
  const report = evaluate(c.score, c.thresholds);
  for (const r of report) {
    console.log(
      `classifier ${r.slice.padEnd(10)} (${r.deferrals} deferrals, ${r.genuine} answers): recall ${(r.recall * 100).toFixed(1)}%, precision ${(r.precision * 100).toFixed(1)}%, answers accepted with no verdict call ${(r.answeredWithoutVerdict * 100).toFixed(0)}%`,
    );
  }
  for (const r of report) {
    assert.ok(r.recall >= 0.9, `${r.slice}: recall ${r.recall}`);
    assert.ok(r.precision >= 0.98, `${r.slice}: precision ${r.precision}`);
    assert.equal(r.deferralsAccepted, 0, `${r.slice}: a deferral would be accepted without a verdict`);
  }
});

test('the shipped weights are what the training script fits from the corpus (deterministic)', () => {
  const { model } = trainDeferralModel();
  const file = shipped as DeferralModel;
  assert.equal(model.weights, file.weights, 'run npm run train:gate and commit deferral-model.json');
  assert.deepEqual(model.thresholds, file.thresholds);
  assert.equal(model.bias, file.bias);
});

test('the three outcomes: a deferral, clearly an answer, unsure', () => {
  const c = deferralClassifier();
  assert.equal(c.judge("Je n'ai pas accès à Internet, je ne peux donc pas vérifier le cours de l'euro aujourd'hui.").outcome, 'deferral');
  assert.equal(c.judge('我无法联网，所以不知道今天的天气。').outcome, 'deferral');
  assert.equal(
    c.judge('The 18:20 from Paddington reaches Bath Spa at 19:45, per National Rail. Shall I check return trains too?').outcome,
    'answer',
  );
  const { p } = c.judge('Die Hauptstadt von Frankreich ist Paris.');
  assert.ok(p < c.thresholds.deferral);
});

test('words in any script: Latin by word (apostrophes kept), Chinese by character, digits as one sign; quotations apart', () => {
  assert.deepEqual(tokens("Je n'ai pas 12 €? 我不知道"), ['je', "n'ai", 'pas', '0', '?', '我', '不', '知', '道']);
  const mine = features('I cannot check that.', 1 << 16);
  const quoted = features('She wrote: "I cannot check that."', 1 << 16);
  assert.ok(
    [...mine.keys()].some((k) => !quoted.has(k)),
    'quoted words are not the draft’s own',
  );
});
