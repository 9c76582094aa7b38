/**
 * The gate's free checks: regexes that catch a draft which defers ("I can search for that if
 * you'd like") or refuses ("I can't answer that from the tool results") without a model call.
 * Every deferral pattern has a first-person subject, so advice ("you can search their site")
 * passes. A deferral counts only when its match starts within the first DEFERRAL_HEAD
 * characters of a reply of at most DEFERRAL_MAX characters: an answer that does the work and
 * then offers more at the end has answered. A reply that reports work done before the match
 * ("I searched…", "According to the results…") has answered too.
 */

/** A longer reply that opened with a hedge has still done the work. */
export const DEFERRAL_MAX = 1200;
/** An offer after this point is a closing courtesy, not a deferral. */
export const DEFERRAL_HEAD = 240;

/** Verbs of looking something up, in the forms a promise or offer takes (not past tense). */
const LOOKUP = String.raw`(?:search(?:ing)?(?:\s+(?:for|the\s+web|online|the\s+internet))?|look(?:ing)?(?:\s+(?:it|that|this|them|those|these|things|everything))?\s+up|look(?:ing)?\s+(?:into|for|around)|(?:double-?|re)?check(?:ing)?(?!\s+(?:my|your|our)\s+understanding|\s+(?:that|if)\s+I\s+understood)|find(?:ing)?(?:\s+out)?|fetch(?:ing)?|pull(?:ing)?(?:\s+up)?|dig(?:ging)?|research(?:ing)?|brows(?:e|ing)|verify(?:ing)?|grab(?:bing)?|get(?:ting)?\s+(?:you\s+)?(?:the\s+|some\s+)?(?:latest|current|up-to-date|live|real-time|most\s+recent)|quer(?:y|ying)|(?:run(?:ning)?|do(?:ing)?|perform(?:ing)?|conduct(?:ing)?)\s+an?\s+(?:quick\s+)?(?:web\s+|online\s+|internet\s+|google\s+)?search|go\s+online|do(?:ing)?\s+(?:some|a\s+bit\s+of|a\s+little|more)\s+(?:research|digging|searching|checking)|(?:take|have)\s+a\s+(?:quick\s+|closer\s+)?(?:look|peek)|peek|investigat(?:e|ing)|consult(?:ing)?|retriev(?:e|ing)|scan(?:ning)?|explor(?:e|ing)|obtain(?:ing)?|sourc(?:e|ing)|gather(?:ing)?|collect(?:ing)?|google|see\s+what\s+(?:I|we)\s+can\s+find)`;

/** Words that may stand between a subject and the lookup verb ("I'll just quickly go and…"). */
const FILLER = String.raw`(?:\s+(?:now|quickly|just|first|certainly|definitely|gladly|happily|then|be\s+happy\s+to|be\s+glad\s+to|love\s+to|like\s+to|need\s+to|have\s+to|be\s+able\s+to|go\s+ahead\s+and|go\s+and|go|try\s+to|try\s+and|try|need|want\s+to|gonna))*`;

/** A first-person subject that promises or offers (never a report: no past tense here). */
const PROMISE = String.raw`(?:\blet\s+me|\blemme|\ballow\s+me\s+to|\b(?:I|we)(?:\s+(?:can|could|will|would|shall|should|must|may|might|need\s+to|have\s+to|am\s+going\s+to|am\s+about\s+to)|'ll|'d|'m\s+going\s+to|'m\s+about\s+to|'m\s+gonna|\s+am\s+gonna|'m(?=\s+(?:now\s+|currently\s+|just\s+)?\w+ing\b)|\s+am(?=\s+(?:now\s+|currently\s+|just\s+)?\w+ing\b))|\b(?:happy|glad)\s+to)`;

const ACCESS_WORD = String.raw`(?:access|browse|browsing|internet|web|online|real[- ]?time|live|current|up[- ]to[- ]date|latest|today'?s|news|the\s+moment)`;
const NEGATION = String.raw`(?:can't|cannot|can\s+not|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to|'m\s+not\s+able\s+to|don't|do\s+not|dont|have\s+no|lack|won't\s+be\s+able\s+to)`;
const ACCESS_VERB = String.raw`(?:have|get|provide|give|offer|browse|access|check|see|retrieve|fetch|look\s+up|search|connect\s+to|pull|know|tell\s+you)`;

export const DEFERRAL_PATTERNS: RegExp[] = [
  // An offer or promise to look something up: "I can check", "let me search", "I'll have to look that up".
  new RegExp(String.raw`${PROMISE}${FILLER}\s+${LOOKUP}\b`, 'i'),
  // "I'd recommend I run a search": the model proposing its own lookup.
  new RegExp(String.raw`\b(?:recommend|suggest|propose)\s+(?:that\s+)?(?:I|we)${FILLER}\s+${LOOKUP}\b`, 'i'),
  // Asking permission.
  /\bwould\s+you\s+like\s+(?:me|us|for\s+me)\s+to\b/i,
  /\b(?:like|want|need)\s+(?:me|us|for\s+me)\s+to\b/i,
  /\bshould\s+I\s*\?/i,
  /\b(?:a|one)\s+(?:quick\s+)?(?:web\s+|online\s+)?search\s+would\b/i,
  /\bno\s+way\s+for\s+me\s+to\b/i,
  /\bshall\s+I\b/i,
  /\bwould\s+it\s+help\s+if\s+(?:I|we)\b/i,
  /\bhow\s+about\s+I\s+(?:search|look|check|find)/i,
  new RegExp(String.raw`\bshall\s+we\s+(?:go\s+ahead\s+and\s+)?${LOOKUP}`, 'i'),
  /\bshould\s+I\s+(?:search|look|check|find|go\s+ahead|proceed|do\s+that|try)/i,
  /\bmay\s+I\s+(?:search|look|check|browse)/i,
  new RegExp(
    String.raw`\bif\s+you(?:'d|\s+would)?\s+(?:like|want|prefer)\b(?:\s+me\s+to\b)?,?\s+(?:I|we)(?:\s+(?:can|could|will)|'ll|'d)\s+(?!also\b)(?:[a-z]+\s+)?${LOOKUP}`,
    'i',
  ),
  /\b(?:just\s+)?(?:say\s+the\s+word|let\s+me\s+know|tell\s+me|confirm)\b[^.!?\n]{0,30}\b(?:and|so)\s+I(?:'ll|\s+will|\s+can)\b/i,
  /\bI(?:'ll|\s+will|\s+can|\s+could)\s+(?:do|handle)\s+(?:that|this|it)\s+for\s+you\b(?!\s*:)/i,
  // No access to live data, the web, today's facts.
  new RegExp(
    String.raw`\b(?:I|I'm|I\s+am|we)\b[^.!?\n]{0,30}?\b${NEGATION}\s+(?:\w+\s+){0,2}?${ACCESS_VERB}\b[^.!?\n]{0,40}?\b${ACCESS_WORD}`,
    'i',
  ),
  /\b(?:I'm|I\s+am)\s+(?:not|no\s+longer)\s+connected\s+to\s+the\s+(?:internet|web)/i,
  /\bI\s+have\s+no\s+(?:internet|web|online|real[- ]?time|live|browsing|(?:way|means|ability|capability|tools?)\s+(?:to|of|for)\s+(?:check|look|search|brows|access|go(?:ing)?\s+online|verif))/i,
  /\bI(?:'d|\s+would)\s+need\s+(?:internet|web|online|real[- ]?time|live|to\s+look)/i,
  /\b(?:isn't|is\s+not|aren't|are\s+not|not)\s+(?:available|accessible)\s+to\s+me\b/i,
  /\b(?:isn't|is\s+not|aren't|are\s+not)\s+something\s+I\s+(?:can|could|have)\b/i,
  /\bwithout\s+(?:a\s+|an\s+)?(?:web|internet|online)\s+(?:search|access|connection|lookup)/i,
  /\bas\s+(?:an?\s+)?(?:AI|language\s+model|LLM|large\s+language\s+model|text-based\s+assistant)\b[^.!?\n]{0,60}\b(?:access|browse|real[- ]?time|current|internet|live|can't|cannot)/i,
  /\bI(?:'m|\s+am)?\s+(?:\w+ly\s+)?(?:can't|cannot|can\s+not|unable\s+to|not\s+able\s+to)\s+(?:access|browse|go\s+online|search\s+the\s+(?:web|internet)|visit|open\s+(?:websites|web\s+pages|links))\b/i,
  /\bI\b[^.!?\n]{0,40}\bwithout\s+(?:browsing|searching|checking|looking\s+(?:it\s+)?up|a\s+search|internet|going\s+online)/i,
  /\bI\s+(?:lack|don't\s+(?:have|possess)|do\s+not\s+(?:have|possess)|have\s+no)\s+(?:any\s+)?(?:current|live|real[- ]?time|up[- ]to[- ]date|recent|the\s+latest|today's|fresh)\s+(?:data|information|info|figures|numbers|prices|news|details|listings|scores|results|updates)/i,
  /\b(?:outside|beyond)\s+(?:of\s+)?my\s+(?:training|knowledge)/i,
  /\b(?:hard|impossible|difficult)\s+to\s+(?:say|know|tell)\s+without\s+(?:checking|looking|searching|browsing)\b/i,
  // A reply that opens by announcing a lookup in progress ("Searching for the latest…").
  // (Not a gerund subject: "Searching for duplicates is easiest with a set" explains.)
  /^\W*(?:searching|looking|checking|fetching|pulling|digging|researching)\s+(?:for|up|into|the\s+(?:web|internet|latest)|online|now|that|this|it)\b(?![^.!?\n]*\b(?:is|are|was|were|means|works|takes|requires|helps|can|will|should)\b)/i,
  /^\W*(?:searching|looking|checking|fetching|pulling|digging|researching|getting|grabbing|finding)\b[^.!?\n:]{0,60}\b(?:now|for\s+you|right\s+away)\s*(?:\.\.\.|…|\.|!|$)/i,
  /\b(?:I'm|I\s+am)\s+(?:just\s+)?(?:a|an)\s+(?:AI|language\s+model|text-based)\b[^.!?\n]{0,60}\b(?:can't|cannot|don't|unable|not\s+able)/i,
  // A lookup said to be under way, or a promise to come back later.
  /\b(?:searching|looking\s+(?:it\s+|that\s+|this\s+)?up|looking\s+into\s+(?:it|this|that)|checking)\s+(?:(?:on\s+)?(?:it|that|this)\s+)?(?:now|right\s+now|for\s+you)\b/i,
  /\b(?:get|come)\s+back\s+to\s+you\b|\breport\s+back\b/i,
  /\b(?:I'm|I\s+am)\s+on\s+it\b/i,
  /^\W*(?:let\s+me\s+see|lemme\s+see|on\s+it|one\s+(?:sec|second|moment)|hmm+,?\s+let\s+me\s+see)\W*$/i,
  // The training cut-off.
  /\bmy\s+(?:training|knowledge|data|information|info)(?:\s+(?:data|base|cut-?off))?\s+(?:only\s+)?(?:goes|extends|runs|cuts?\s+off|ends|stops|is\s+limited|is\s+(?:only\s+)?current|was\s+last\s+updated|is\s+up\s+to|dates?\s+(?:back|from)|is\s+(?:frozen|fixed|stuck|outdated|out\s+of\s+date)|covers)\b/i,
  /\b(?:as\s+of|since|after|beyond)\s+my\s+(?:last\s+)?(?:training|knowledge)(?:\s+(?:cut-?off|update|data))?\b/i,
  /\bmy\s+knowledge\s+cut-?off\b/i,
  /\bmy\s+(?:training|knowledge|data|information|info)(?:\s+data)?\s+(?:doesn't|does\s+not|don't|do\s+not|won't|can't)\s+(?:include|cover|contain|extend|go|reach)/i,
  /\b(?:information|knowledge|data)\s+(?:is\s+)?only\s+(?:current|up[- ]to[- ]date|accurate|goes)\s+(?:up\s+)?(?:to|until|through|as\s+of)\b/i,
  // Nothing to report.
  /\b(?:I|we)\s+(?:don't|do\s+not)\s+have\s+(?:any(?:thing)?\s+)?(?:specific\s+|recent\s+)?(?:information|info|details|data|news|updates|figures|numbers)\b/i,
  /\b(?:I|we)\s+(?:don't|do\s+not)\s+have\s+(?:anything|much)\s+(?:to\s+report|on\s+that|about\s+that)\b/i,
  // A lookup announced as about to happen ("one moment, checking…").
  new RegExp(
    String.raw`\b(?:one|a|just\s+a)\s+(?:sec|second|moment|minute|mo)\b|\b(?:please\s+)?hold\s+(?:on|tight)\b|\bplease\s+hold\b|\bhang\s+(?:on|tight)\b|\bstand\s+by\b|\bbear\s+with\s+me\b|\bgive\s+me\s+a\s+(?:sec|second|moment|minute)\b`,
    'i',
  ),
];

/** The wait phrases above count only with a lookup verb near them. */
const WAIT_INDEX = DEFERRAL_PATTERNS.length - 1;
const NEAR_LOOKUP = new RegExp(String.raw`${LOOKUP}|\bwhile\s+I\b`, 'i');

/** Work already done, reported before the match: the reply has answered. */
const WORK_DONE =
  /\b(?:I|we)\s+(?:searched|checked|looked\s+(?:it\s+|that\s+)?up|looked\s+(?:into|at)|found|fetched|read|ran|calculated|verified)\b|\baccording\s+to\b|\bbased\s+on\s+(?:the|my|your|these|those)\b|\bthe\s+(?:search\s+|tool\s+)?results?\s+(?:say|show|list|mention|indicate|suggest)/i;

/** "Let me check the math: 12 × 4 = 48…": the work follows the colon. */
function workFollows(text: string, end: number): boolean {
  const rest = text.slice(end);
  // The first colon or line break after the promise must be a colon, within 40 characters.
  const colon = rest.search(/[:\n]/);
  if (rest[colon] !== ':' || colon > 40) return false;
  const after = rest.slice(colon + 1).trim();
  // What follows must be content, not a question back to the user.
  return after.length >= 20 && !/^[^.!\n]*\?/.test(after);
}

export const REFUSAL_PATTERNS: RegExp[] = [
  /\b(?:I|we)\s+(?:cannot|can't|could\s+not|couldn't|am\s+unable\s+to|was\s+unable\s+to)\s+(?:answer|determine|tell)\s+(?:this|that|it|your\s+question|you)\b[^.!?\n]{0,60}\b(?:from|based\s+on)\s+(?:the\s+)?(?:tool\s+|search\s+)?results\b/i,
  /\bthe\s+(?:tool\s+)?results\s+(?:do\s+not|don't)\s+(?:contain|include|say|mention)\b[^.!?\n]{0,80}\bI\s+(?:cannot|can't)\b/i,
];

export type FreeCheck = { kind: 'deferral' | 'refusal'; match: string } | null;

export function findDeferral(draft: string): string | null {
  const text = draft.trim();
  if (!text || text.length > DEFERRAL_MAX) return null;
  for (const [i, re] of DEFERRAL_PATTERNS.entries()) {
    const m = re.exec(text);
    if (!m || m.index >= DEFERRAL_HEAD) continue;
    if (i === WAIT_INDEX && !NEAR_LOOKUP.test(text.slice(m.index, m.index + m[0].length + 60))) continue;
    if (WORK_DONE.test(text.slice(0, m.index))) continue;
    if (i === 0 && workFollows(text, m.index + m[0].length)) continue;
    return m[0];
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
