import model from './deferral-model.json' with { type: 'json' };

/**
 * The gate's learned check beside the regexes: a logistic model over hashed word and character
 * n-grams that reads a draft and says how likely it is a deferral ("I can look that up if you
 * like", "je n'ai pas accès à internet", "我无法访问实时信息") rather than an answer. It runs in
 * the process, in well under a millisecond, from weights in deferral-model.json, which
 * `npm run train:gate` (scripts/train-gate.ts) fits on the corpus's training slice and whose
 * two thresholds it sets on the frozen evaluation slices:
 *  - at or above `deferral`: a deferral, set aside at once with no verdict call;
 *  - at or below `answer`: clearly an answer, accepted with no verdict call (no deferral of the
 *    evaluation slices scores this low);
 *  - in between: unsure, and the verdict decides, as before.
 * Words are read in any script: Latin and others by word, Chinese and Japanese by character.
 */

export type Outcome = 'deferral' | 'answer' | 'unsure';
export type Judgement = { outcome: Outcome; p: number };

export type DeferralModel = {
  version: string;
  /** Buckets of the hashed features. */
  dims: number;
  bias: number;
  /** Weights as signed bytes (base64), each times `scale`. */
  scale: number;
  weights: string;
  thresholds: { deferral: number; answer: number };
};

/** FNV-1a, 32 bits: the bucket of a feature. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Words (apostrophes inside), single CJK characters, and the marks that carry meaning in a deferral (a question mark). */
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+(?:['’][\p{L}]+)*|[?？]/gu;

/** A quotation in any of the common marks (straight, curly, guillemets, German, CJK). */
const QUOTED = /"[^"\n]{3,300}"|“[^”\n]{3,300}”|«[^»\n]{3,300}»|„[^“”\n]{3,300}[“”]|「[^」\n]{1,300}」|‘[^’\n]{3,300}’/g;

/** How much of a draft is read: a deferral says itself in its first and last sentences. */
const HEAD = 500;
const TAIL = 300;

/** Fewer words than this and the classifier does not judge. */
const MIN_WORDS = 4;

export function tokens(text: string): string[] {
  return (text.normalize('NFKC').toLowerCase().replace(/\d+/g, '0').match(TOKEN) ?? []).map((t) => t.replace(/’/g, "'"));
}

/** The draft's features, each a bucket and a count, scaled to unit length. */
export function features(text: string, dims: number): Map<number, number> {
  const out = new Map<number, number>();
  const add = (f: string) => {
    const k = hash(f) % dims;
    out.set(k, (out.get(k) ?? 0) + 1);
  };
  const whole = text.length > HEAD + TAIL ? `${text.slice(0, HEAD)} … ${text.slice(-TAIL)}` : text;
  // Words in quotation marks are someone else's ("she wrote: 'I can't check'"), not the draft's own: a namespace of their own.
  const quoted: string[] = [];
  const read = whole.replace(QUOTED, (q) => {
    quoted.push(...tokens(q));
    return ' " ';
  });
  for (const w of quoted) add(`q:${w}`);
  if (quoted.length) add('has:quote');
  const words = tokens(read);
  for (let i = 0; i < words.length; i++) {
    add(`w:${words[i]}`);
    if (i + 1 < words.length) add(`b:${words[i]} ${words[i + 1]}`);
    if (i + 2 < words.length && CJK.test(words[i])) add(`t:${words[i]}${words[i + 1]}${words[i + 2]}`);
  }
  // Where the words are: how it begins and how it ends.
  for (const w of words.slice(0, 6)) add(`F:${w}`);
  for (const w of words.slice(-8)) add(`L:${w}`);
  // Character n-grams within the text (spaces kept): endings, compounds, spellings the words miss.
  const flat = ` ${read.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ')} `;
  for (let i = 0; i + 4 <= flat.length; i++) add(`c:${flat.slice(i, i + 4)}`);
  add(`len:${Math.min(12, Math.floor(Math.log2(1 + words.length)))}`);
  let norm = 0;
  for (const v of out.values()) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (const [k, v] of out) out.set(k, v / norm);
  return out;
}

/** The logistic model's probability that the features are a deferral's. */
export function probability(x: Map<number, number>, weights: ArrayLike<number>, bias: number, scale = 1): number {
  let z = bias;
  for (const [k, v] of x) z += weights[k] * scale * v;
  return 1 / (1 + Math.exp(-z));
}

/** The model as a checker of drafts: its weights decoded once. */
export function loadClassifier(m: DeferralModel = model as DeferralModel) {
  // Byte by byte (a Buffer may sit at an offset in a shared pool): 255 reads as -1.
  const weights = new Int8Array(Buffer.from(m.weights, 'base64'));
  if (weights.length !== m.dims) throw new Error(`deferral model: ${weights.length} weights for ${m.dims} buckets`);
  const score = (draft: string) => probability(features(draft, m.dims), weights, m.bias, m.scale);
  return {
    version: m.version,
    thresholds: m.thresholds,
    score,
    judge(draft: string): Judgement {
      const p = score(draft);
      // A few words are too little to read ("Done.", "Sure!"): the patterns and the verdict decide those.
      if (tokens(draft).length < MIN_WORDS) return { p, outcome: 'unsure' };
      return { p, outcome: p >= m.thresholds.deferral ? 'deferral' : p <= m.thresholds.answer ? 'answer' : 'unsure' };
    },
  };
}

export type Classifier = ReturnType<typeof loadClassifier>;

let loaded: Classifier | undefined;
/** The shipped model, decoded on first use. */
export function deferralClassifier(): Classifier {
  return (loaded ??= loadClassifier());
}
