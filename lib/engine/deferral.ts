/**
 * The gate's free checks: regexes that catch a draft which defers ("I can search for that if
 * you'd like") or refuses ("I can't answer that from the tool results") without a model call.
 * Every deferral pattern has a first-person subject, so advice ("you can search their site")
 * passes. A deferral counts only when its match starts within the first DEFERRAL_HEAD
 * characters of a reply of at most DEFERRAL_MAX characters: an answer that does the work and
 * then offers more at the end has answered.
 */

/** A longer reply that opened with a hedge has still done the work. */
export const DEFERRAL_MAX = 1200;
/** An offer after this point is a closing courtesy, not a deferral. */
export const DEFERRAL_HEAD = 240;

const I = String.raw`(?:\bI|\bwe)`;
const LOOKUP = String.raw`(?:search(?:ing)?|look(?:ing)?(?:\s+(?:it|that|this|them))?\s+up|look(?:ing)?\s+(?:into|for|at)|check(?:ing)?|find(?:ing)?(?:\s+out)?|fetch(?:ing)?|pull(?:ing)?(?:\s+up)?|dig(?:ging)?|research(?:ing)?|brows(?:e|ing)|verify(?:ing)?|grab(?:bing)?|get(?:ting)?\s+(?:you\s+)?(?:the\s+)?(?:latest|current|up-to-date|live|real-time)|query(?:ing)?|run(?:ning)?\s+a\s+search|do\s+a\s+(?:quick\s+)?search)`;

export const DEFERRAL_PATTERNS: RegExp[] = [
  // (1) "I can / could / will search for ..." (an offer or a promise, not a report)
  // "also" is left out on purpose: "I can also check X" follows work already done.
  new RegExp(String.raw`${I}(?:\s+(?:can|could|will|shall|would be happy to|would be glad to|am able to)|'ll|'d be (?:happy|glad) to|'d love to)\s+(?:now\s+|quickly\s+|certainly\s+|definitely\s+|gladly\s+)?(?:go\s+(?:ahead\s+)?)?(?:and\s+)?(?:try\s+to\s+)?${LOOKUP}\b`, 'i'),
  // (2) "let me / I'll / I'm going to (go and) check ..."
  new RegExp(String.raw`(?:\blet me|${I}'ll|${I} will|${I}'m going to|${I} am going to|${I}'m about to|${I}'d like to)\s+(?:now\s+|quickly\s+|first\s+|just\s+)?(?:go\s+(?:ahead\s+)?)?(?:and\s+)?(?:try\s+to\s+)?${LOOKUP}\b`, 'i'),
  // (3) / (4) asking permission
  /\bwould you like (?:me|us) to\b/i,
  /\bdo you want (?:me|us) to\b/i,
  /\bshall I\b/i,
  new RegExp(String.raw`\bshall we\s+(?:go\s+ahead\s+and\s+)?${LOOKUP}`, 'i'),
  /\bshould (?:I|we) (?:search|look|check|find|go ahead|proceed)/i,
  /\bwant me to (?:search|look|check|find|pull|dig)/i,
  // (6) "if you'd like, I can check ..."
  new RegExp(String.raw`\bif you(?:'d| would)? (?:like|want|prefer)\b(?: me to\b)?,?\s+(?:I|we)(?:\s+(?:can|could|will)|'ll|'d)\s+(?!also\b)(?:[a-z]+\s+)?${LOOKUP}`, 'i'),
  // (7) "just say the word and I'll ..."
  /\b(?:just )?(?:say the word|let me know|tell me)\b[^.!?\n]{0,30}\b(?:and|so) I(?:'ll| will| can)\b/i,
  // (8) no access to live data
  new RegExp(String.raw`${I}\s+(?:do not|don't|dont|cannot|can't|can not|am not able to|'m not able to|am unable to|'m unable to|have no)\s+(?:have\s+)?(?:direct\s+)?(?:access(?:\s+to)?|real[- ]?time|current|up[- ]to[- ]date|live|browse|browsing|search the (?:web|internet)|access the (?:web|internet)|internet access|the ability to (?:browse|search|access))`, 'i'),
  /\b(?:I'm|I am) (?:not able|unable) to (?:browse|search|access|check|look up|retrieve|fetch)/i,
  /\bI (?:lack|don't have|do not have) (?:the ability|access|internet|web access|browsing)/i,
  /\bas an AI\b[^.!?\n]{0,60}\b(?:access|browse|real[- ]?time|current)/i,
  // (9) the training cut-off
  /\bmy (?:training(?: data)?|knowledge)(?: base)?(?: only)? (?:goes|extends|cuts? off|ends|stops|is limited|only goes|was last updated|is current)\b/i,
  /\b(?:as of|since) my (?:last )?(?:training|knowledge)(?: cut-?off| update| data)?\b/i,
  /\bmy knowledge cut-?off\b/i,
  // (10) nothing to report
  new RegExp(String.raw`${I}\s+(?:do not|don't|dont)\s+have\s+(?:any(?:thing)?\s+)?(?:specific\s+|recent\s+|current\s+|up[- ]to[- ]date\s+|real[- ]time\s+)?(?:information|info|details|data|news|updates|figures|numbers)\b`, 'i'),
  /\b(?:I|we) (?:don't|do not) have (?:anything|much) (?:to report|on that|about that)\b/i,
  // a lookup announced as about to happen
  /\b(?:one moment|give me a (?:moment|sec(?:ond)?)|hold on|bear with me)\b[^.!?\n]{0,40}\b(?:while I|I'll|let me)\b/i,
];

/** "I can't answer that from the tool results": anywhere, any length. */
export const REFUSAL_PATTERNS: RegExp[] = [
  /\b(?:I|we) (?:cannot|can't|could not|couldn't|am unable to|was unable to) answer (?:this|that|it|your question)\b[^.!?\n]{0,60}\bfrom (?:the )?(?:tool )?results\b/i,
  /\bthe (?:tool )?results (?:do not|don't) (?:contain|include|say|mention)\b[^.!?\n]{0,80}\b(?:so I|I) (?:cannot|can't)\b/i,
];

export type FreeCheck = { kind: 'deferral' | 'refusal'; match: string } | null;

export function findDeferral(draft: string): string | null {
  const text = draft.trim();
  if (!text || text.length > DEFERRAL_MAX) return null;
  for (const re of DEFERRAL_PATTERNS) {
    const m = re.exec(text);
    if (m && m.index < DEFERRAL_HEAD) return m[0];
  }
  return null;
}

export function findRefusal(draft: string): string | null {
  for (const re of REFUSAL_PATTERNS) {
    const m = re.exec(draft);
    if (m) return m[0];
  }
  return null;
}

/** The free checks in order: deferral, then refusal. */
export function freeCheck(draft: string): FreeCheck {
  const d = findDeferral(draft);
  if (d) return { kind: 'deferral', match: d };
  const r = findRefusal(draft);
  if (r) return { kind: 'refusal', match: r };
  return null;
}
