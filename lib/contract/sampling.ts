import { z } from 'zod';

/**
 * A thread's sampling: llama-server's own request fields (temperature, top_p, top_k, min_p),
 * sent with the calls that write its replies, never with checks, plans or titles (those keep
 * their own fixed sampling). A field left out is the server's default (its --temp, --top-p…).
 * Shared by the API's check, the store, the library file and the page.
 */

export const SAMPLING_RANGES = {
  temperature: { min: 0, max: 2, step: 0.05, label: 'Temperature', wire: 'temperature' },
  topP: { min: 0, max: 1, step: 0.05, label: 'Top P', wire: 'top_p' },
  topK: { min: 0, max: 200, step: 1, label: 'Top K', wire: 'top_k' },
  minP: { min: 0, max: 1, step: 0.01, label: 'Min P', wire: 'min_p' },
} as const;

export type SamplingKey = keyof typeof SAMPLING_RANGES;
export const SAMPLING_KEYS = Object.keys(SAMPLING_RANGES) as SamplingKey[];

const field = (key: SamplingKey) => {
  const { min, max, label } = SAMPLING_RANGES[key];
  const n = key === 'topK' ? z.number().int(`${label}: must be a whole number`) : z.number();
  return n.min(min, `${label}: must be at least ${min}`).max(max, `${label}: must be at most ${max}`).optional();
};

export const samplingSchema = z
  .object({ temperature: field('temperature'), topP: field('topP'), topK: field('topK'), minP: field('minP') })
  .strict();

export type Sampling = z.infer<typeof samplingSchema>;

/** The fields llama-server reads, for the thread's reply calls; empty when the thread keeps the server's defaults. */
export function samplingFields(sampling: Sampling | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (!sampling) return out;
  for (const key of SAMPLING_KEYS) {
    const value = sampling[key];
    if (value !== undefined) out[SAMPLING_RANGES[key].wire] = value;
  }
  return out;
}

/** A stored or imported value as a thread's sampling: null when none of it is set. */
export function normalSampling(sampling: Sampling | null | undefined): Sampling | null {
  if (!sampling) return null;
  const kept = Object.fromEntries(SAMPLING_KEYS.filter((k) => sampling[k] !== undefined).map((k) => [k, sampling[k]]));
  return Object.keys(kept).length ? (kept as Sampling) : null;
}
