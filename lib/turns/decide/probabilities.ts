import type { TokenProb } from '@/lib/models/types';

/**
 * Reads the probability of each allowed value of one JSON field from llama-server's
 * grammar-aware token probabilities (post_sampling_probs). The grammar accepts any split of
 * a value into tokens and free whitespace around the JSON, so the position is found by
 * walking the text, and at the token where the value starts every candidate whose text is
 * consistent with a value (a prefix of it, or starting with it) adds its probability to that
 * value. Returns null when the position or any consistent candidate is missing.
 */
export function valueDistribution(
  tokens: TokenProb[],
  key: string,
  values: readonly string[],
  quoted: boolean,
): Record<string, number> | null {
  const marker = new RegExp(`"${escapeRegExp(key)}"\\s*:\\s*${quoted ? '"' : ''}`);
  // any start text without the marker shifts every position alike.
  let before = '';
  for (const entry of tokens) {
    const withChosen = before + entry.token;
    const found = marker.exec(withChosen);
    // The first token in which the marker is complete (an earlier one either lacked it or ended
    // exactly with it, and was passed): the value starts inside this token or right after it.
    if (found) {
      const atEnd = found.index + found[0].length === withChosen.length;
      if (atEnd) {
        // The marker ends exactly at this token's end: the value starts with the next token.
        before = withChosen;
        continue;
      }
      const mass: Record<string, number> = Object.fromEntries(values.map((v) => [v, 0]));
      let total = 0;
      const candidates = entry.top.length > 0 ? entry.top : [{ token: entry.token, prob: entry.prob || 1 }];
      for (const cand of candidates) {
        const m = marker.exec(before + cand.token);
        if (!m) continue;
        const part = (before + cand.token).slice(m.index + m[0].length);
        if (!part) continue;
        const fits = values.filter((v) => v.startsWith(part) || part.startsWith(v));
        for (const v of fits) mass[v] += cand.prob / fits.length;
        if (fits.length > 0) total += cand.prob;
      }
      if (total <= 0) return null;
      for (const v of values) mass[v] /= total;
      return mass;
    }
    before = withChosen;
  }
  return null;
}

/** The most probable value of a distribution (ties go to the earlier value). */
export function argmax(dist: Record<string, number>, values: readonly string[]): string {
  return values.reduce((best, v) => (dist[v] > dist[best] ? v : best), values[0]);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
