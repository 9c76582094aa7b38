import corpus from '@/lib/dev/testing/fixtures/deferral-corpus.json' with { type: 'json' };
import heldOut from '@/lib/dev/testing/fixtures/deferral-heldout.json' with { type: 'json' };
import { features, probability, type DeferralModel } from '@/lib/turns/engine/classifier';
import train from './corpus/train.json' with { type: 'json' };
import frozen from './corpus/eval.json' with { type: 'json' };

/**
 * Fitting the gate's classifier (classifier.ts): logistic regression over the hashed features
 * of the training slice (English from the regexes' corpus and more; French, German, Spanish,
 * Portuguese, Italian and Chinese written for it), each language and class weighted alike so
 * 600 English drafts do not drown 30 Chinese ones; Adagrad, a fixed order, no randomness, so the
 * same corpus always gives the same weights. The weights are stored as signed bytes. The
 * frozen evaluation slices are never trained on: they set the "clearly an answer" threshold
 * (below every one of their deferrals) and measure the model, each language on its own.
 */

export type Slice = { deferrals: string[]; genuine: string[] };
type Example = { text: string; label: 0 | 1; weight: number };

const DIMS = 1 << 16;
const EPOCHS = 40;
const RATE = 0.4;
const L2 = 2e-5;
/** A draft at or above this is a deferral (no verdict asked). */
export const DEFERRAL_THRESHOLD = 0.5;
/** The "clearly an answer" threshold sits this far below the lowest-scoring deferral of the frozen slices. */
const ANSWER_MARGIN = 0.8;

/** The training slice, by language. */
export function trainingSlices(): Record<string, Slice> {
  const slices: Record<string, Slice> = { ...(train as Record<string, Slice>) };
  slices.en = {
    deferrals: [...corpus.deferrals, ...corpus.deferralsLater, ...slices.en.deferrals],
    genuine: [...corpus.genuine, ...corpus.genuineLater, ...slices.en.genuine],
  };
  return slices;
}

/** The frozen evaluation slices: the regexes' held-out English slice, a fresh English one, and one per other language. */
export function evaluationSlices(): Record<string, Slice> {
  return { 'en-heldout': { deferrals: heldOut.deferrals, genuine: heldOut.genuine }, ...(frozen as Record<string, Slice>) };
}

function examples(slices: Record<string, Slice>): Example[] {
  const out: Example[] = [];
  for (const slice of Object.values(slices)) {
    for (const [label, texts] of [
      [1, slice.deferrals],
      [0, slice.genuine],
    ] as const) {
      for (const text of texts) out.push({ text, label, weight: 100 / texts.length });
    }
  }
  return out;
}

/** A fixed, well-mixed order: by a hash of the text (the same order on every machine). */
function order(list: Example[]): Example[] {
  const key = (s: string) => {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    return h >>> 0;
  };
  return [...list].sort((a, b) => key(a.text) - key(b.text) || (a.text < b.text ? -1 : 1));
}

export type TrainedModel = { model: DeferralModel; report: SliceReport[] };
export type SliceReport = {
  slice: string;
  deferrals: number;
  genuine: number;
  recall: number;
  precision: number;
  /** Genuine answers accepted with no verdict call. */
  answeredWithoutVerdict: number;
  /** Deferrals the model called clearly answers (must be none). */
  deferralsAccepted: number;
};

export function trainDeferralModel(): TrainedModel {
  const data = order(examples(trainingSlices())).map((e) => ({ ...e, x: features(e.text, DIMS) }));
  const w = new Float64Array(DIMS);
  const g2 = new Float64Array(DIMS).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const total = data.reduce((s, e) => s + e.weight, 0);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const e of data) {
      const p = probability(e.x, w, bias);
      const err = ((p - e.label) * e.weight * data.length) / total;
      for (const [k, v] of e.x) {
        const grad = err * v + L2 * w[k];
        g2[k] += grad * grad;
        w[k] -= (RATE * grad) / Math.sqrt(g2[k]);
      }
      biasG2 += err * err;
      bias -= (RATE * err) / Math.sqrt(biasG2);
    }
  }
  let max = 0;
  for (const v of w) max = Math.max(max, Math.abs(v));
  const scale = max / 127 || 1;
  const bytes = new Int8Array(DIMS);
  for (let i = 0; i < DIMS; i++) bytes[i] = Math.round(w[i] / scale);
  const quantised = { dims: DIMS, bias, scale, weights: bytes };
  const score = (text: string) => probability(features(text, DIMS), quantised.weights, bias, scale);
  const slices = evaluationSlices();
  const lowest = Math.min(...Object.values(slices).flatMap((s) => s.deferrals.map(score)));
  const answer = Math.min(DEFERRAL_THRESHOLD, lowest * ANSWER_MARGIN);
  const model: DeferralModel = {
    version: `deferral-classifier-1 (${Object.values(trainingSlices()).reduce((n, s) => n + s.deferrals.length + s.genuine.length, 0)} drafts)`,
    dims: DIMS,
    bias,
    scale,
    weights: Buffer.from(bytes.buffer).toString('base64'),
    thresholds: { deferral: DEFERRAL_THRESHOLD, answer },
  };
  return { model, report: evaluate(score, model.thresholds, slices) };
}

/** Each slice on its own: recall and precision of "a deferral", and what the three outcomes do. */
export function evaluate(
  score: (text: string) => number,
  thresholds: DeferralModel['thresholds'],
  slices: Record<string, Slice> = evaluationSlices(),
): SliceReport[] {
  return Object.entries(slices).map(([slice, s]) => {
    const d = s.deferrals.map(score);
    const g = s.genuine.map(score);
    const caught = d.filter((p) => p >= thresholds.deferral).length;
    const falseAlarms = g.filter((p) => p >= thresholds.deferral).length;
    return {
      slice,
      deferrals: d.length,
      genuine: g.length,
      recall: caught / d.length,
      precision: caught / Math.max(1, caught + falseAlarms),
      answeredWithoutVerdict: g.filter((p) => p <= thresholds.answer).length / g.length,
      deferralsAccepted: d.filter((p) => p <= thresholds.answer).length,
    };
  });
}
