/**
 * Memory facts: short sentences about the user that Hearth keeps across threads. A fact is
 * refused (with the reason) when it is empty, too long, looks like a secret, or repeats one
 * already kept. The first handful of facts always apply (they go into the system block, as the
 * hosted assistants' memory does, so "suggest a dinner recipe" knows the user is vegetarian);
 * beyond them, recall picks the facts that share words with the question.
 */

export const MAX_FACT_CHARS = 300;
/** Facts shown to the model per turn: enough to help, few enough not to crowd the prompt. */
export const RECALL_LIMIT = 8;
/**
 * The standing facts: the oldest kept, up to this many and this many characters, apply to
 * every question. In creation order, so the system block they join changes only when a fact is
 * added, edited or forgotten, and the prompt's cached prefix survives every other turn.
 */
export const STANDING_COUNT = 12;
export const STANDING_CHARS = 1500;

const SECRET = /\b(password|passwd|api[ _-]?key|secret key|private key|access token|token is|bearer\s+\S+|ssh-(rsa|ed25519))\b/i;
/** Keys with a well-known prefix, even in one case (OpenAI/Anthropic, GitHub, Slack, AWS, GitLab, Hugging Face, Google). */
const KNOWN_KEY =
  /\b(sk-[\w-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abposr]-[\w-]{10,}|AKIA[0-9A-Z]{16}|glpat-[\w-]{20,}|hf_[A-Za-z0-9]{20,}|AIza[\w-]{30,})/;
/** A long run of mixed letters and digits is probably a key or a token. */
const TOKEN_LIKE = /\b(?=[A-Za-z0-9_-]{24,}\b)(?=\S*[a-z])(?=\S*[A-Z])(?=\S*\d)\S+/;

const STOP = new Set(
  'the a an and or but of to in on at for with about from by is are was were be been it this that these those what which who how when where why do does did i you me my our your we they he she his her its as if so not no yes can could would should will have has had am user users'.split(
    ' ',
  ),
);

export function normaliseFact(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Why a fact cannot be kept, or null when it can. */
export function factRefusal(text: string, existing: readonly string[]): string | null {
  const fact = normaliseFact(text);
  if (!fact) return 'the fact is empty';
  if (fact.length > MAX_FACT_CHARS) return `a fact can be at most ${MAX_FACT_CHARS} characters (one sentence)`;
  if (SECRET.test(fact) || KNOWN_KEY.test(fact) || TOKEN_LIKE.test(fact))
    return 'it looks like a password, key or token, and Hearth does not keep secrets in memory';
  const lower = fact.toLowerCase();
  if (existing.some((e) => normaliseFact(e).toLowerCase() === lower)) return 'that fact is already kept';
  return null;
}

export function terms(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)));
}

/** The facts that share at least one word with the question, most shared first, newest on ties. */
export function recallFacts<F extends { text: string; updatedAt: number }>(
  facts: readonly F[],
  question: string,
  limit = RECALL_LIMIT,
): F[] {
  const q = terms(question);
  return facts
    .map((f) => ({ f, shared: [...terms(f.text)].filter((t) => q.has(t)).length }))
    .filter((x) => x.shared > 0)
    .sort((a, b) => b.shared - a.shared || b.f.updatedAt - a.f.updatedAt)
    .slice(0, limit)
    .map((x) => x.f);
}

/** The facts that apply to every question, and those of the rest that share words with this one. */
export function factsFor<F extends { text: string; createdAt: number; updatedAt: number; id: string }>(
  facts: readonly F[],
  question: string,
): { standing: F[]; recalled: F[] } {
  const ordered = [...facts].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const standing: F[] = [];
  let chars = 0;
  for (const f of ordered) {
    if (standing.length >= STANDING_COUNT || chars + f.text.length > STANDING_CHARS) break;
    standing.push(f);
    chars += f.text.length;
  }
  return { standing, recalled: recallFacts(ordered.slice(standing.length), question) };
}

/** Two words are one when one begins the other and the shorter has five letters or more ("peanut", "peanuts"). */
const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 5 && (a.startsWith(b) || b.startsWith(a)));

/**
 * The facts an answer bears the mark of: it uses a distinctive word of theirs. Program-decided and
 * free, so every answer can say which facts it drew on; a fact applied without its words showing
 * is not claimed.
 */
export function factsUsed<F extends { text: string }>(facts: readonly F[], answer: string): F[] {
  const words = [...terms(answer)];
  return facts.filter((f) => [...terms(f.text)].some((t) => words.some((w) => sameWord(t, w))));
}

/** The standing facts, for the end of the system block. */
export function renderStandingFacts(facts: readonly { text: string }[]): string | null {
  if (facts.length === 0) return null;
  return `What you know about the user (apply it wherever it bears on the question, without being asked; do not list it back):\n${facts.map((f) => factLine(f.text)).join('\n')}`;
}

/** A fact's line in the recalled-memory note (and so in the context blocks stored with messages). */
export const factLine = (text: string) => `- ${text}`;

export function renderFacts(facts: readonly { text: string }[]): string | null {
  if (facts.length === 0) return null;
  return `What you remember about the user, which may or may not bear on this question (use a fact only if it helps; do not list them back):\n${facts.map((f) => factLine(f.text)).join('\n')}`;
}

/** How alike two facts are: the share of their distinctive words they have in common (0 to 1). */
export function factSimilarity(a: string, b: string): number {
  const ta = terms(a);
  const tb = terms(b);
  if (ta.size === 0 || tb.size === 0) return normaliseFact(a).toLowerCase() === normaliseFact(b).toLowerCase() ? 1 : 0;
  const shared = [...ta].filter((t) => tb.has(t)).length;
  return shared / (ta.size + tb.size - shared);
}

/** The kept fact most like `text`, if it is at least `min` alike. */
export function closestFact<F extends { text: string }>(facts: readonly F[], text: string, min: number): F | undefined {
  let best: F | undefined;
  let bestScore = min;
  for (const f of facts) {
    const score = factSimilarity(f.text, text);
    if (score >= bestScore) {
      best = f;
      bestScore = score;
    }
  }
  return best;
}
