/**
 * When the model gathered something but wrote no answer (only tool markup, only reasoning, or
 * nothing, even when asked again), the turn still ends with an answer: the program writes it
 * from what the tools returned, plainly marked as compiled by Hearth. Tool results are
 * untrusted text (pages, search snippets), so everything taken from them is escaped for
 * markdown and links are kept only when they are http(s).
 */

/** One successful tool result of this turn. */
export type Gathered = { name: string; arguments: string; data: unknown };

/** The program-decided calculation of this turn, if any. */
export type GatheredCalculation = { expression: string; result: string };

/** What a turn has found so far: the tools' results and a calculation. */
export type Findings = {
  gathered: Gathered[];
  calculation: GatheredCalculation | null;
  /** Each result as the gate's verdict reads it. */
  forGate: string[];
};

export const COMPILED_NOTE = '_The model did not write an answer, so Hearth compiled this from what its tools found._';

/** How many search results, and how much of a page, the compiled answer shows. */
const TOP_RESULTS = 5;
const PAGE_EXCERPT_CHARS = 600;
const OTHER_PREVIEW_CHARS = 400;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Text from a tool, made inert as markdown: no links, images, emphasis or HTML of its own. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()<>#!|~]/g, (c) => `\\${c}`);
}

// Parentheses are percent-encoded (URL encodes spaces itself but leaves parentheses alone), so an
// unbalanced one cannot end the markdown link early.
function safeUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString().replaceAll('(', '%28').replaceAll(')', '%29') : null;
  } catch {
    return null;
  }
}

function link(title: string, url: unknown): string {
  const safe = safeUrl(url);
  const label = escapeMarkdown(title) || (safe ? escapeMarkdown(safe) : 'untitled');
  return safe ? `[${label}](${safe})` : label;
}

function argument(args: string, key: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    return isObj(parsed) ? str(parsed[key]) : '';
  } catch {
    return '';
  }
}

/** What was looked up, one line per call, in words a person reads. */
function lookedUp(g: Gathered): string {
  const query = argument(g.arguments, 'query');
  const url = argument(g.arguments, 'url');
  if (g.name === 'web_search') return `web search for “${escapeMarkdown(query)}”`;
  if (g.name === 'fetch_url') return `the page ${escapeMarkdown(url)}`;
  if (g.name === 'search_conversations') return `earlier conversations, for “${escapeMarkdown(query)}”`;
  if (g.name === 'now') return 'the current date and time';
  if (g.name === 'calculator') return `a calculation: ${escapeMarkdown(argument(g.arguments, 'expression'))}`;
  return `${escapeMarkdown(g.name)} ${escapeMarkdown(g.arguments.slice(0, 120))}`;
}

/** What one result says, as markdown lines. */
function found(g: Gathered): string[] {
  const d = g.data;
  if (!isObj(d)) return [`- ${escapeMarkdown(JSON.stringify(d ?? null).slice(0, OTHER_PREVIEW_CHARS))}`];
  if (Array.isArray(d.results)) {
    return d.results.slice(0, TOP_RESULTS).flatMap((r) => {
      if (!isObj(r)) return [];
      if (r.url !== undefined) return [`- ${link(str(r.title), r.url)}${str(r.snippet) ? `: ${escapeMarkdown(str(r.snippet))}` : ''}`];
      // search_conversations: an excerpt of an earlier thread
      return [
        `- ${escapeMarkdown(str(r.thread) || 'earlier conversation')}${str(r.date) ? ` (${escapeMarkdown(str(r.date))})` : ''}: ${escapeMarkdown(str(r.excerpt).slice(0, 300))}`,
      ];
    });
  }
  if (typeof d.text === 'string') {
    const excerpt = d.text.length > PAGE_EXCERPT_CHARS ? `${d.text.slice(0, PAGE_EXCERPT_CHARS)}…` : d.text;
    return [`- ${link(str(d.title) || str(d.url), d.url)}`, `  > ${escapeMarkdown(excerpt)}`];
  }
  if (typeof d.local === 'string') return [`- It is ${escapeMarkdown(d.local)} (${escapeMarkdown(str(d.timezone))}).`];
  if (typeof d.result === 'string' && typeof d.expression === 'string')
    return [`- ${escapeMarkdown(d.expression)} = **${escapeMarkdown(d.result)}**`];
  return [`- ${escapeMarkdown(g.name)}: ${escapeMarkdown(JSON.stringify(d).slice(0, OTHER_PREVIEW_CHARS))}`];
}

/** Whether there is anything to compile an answer from. */
export function hasGathered(gathered: readonly Gathered[], calculation: GatheredCalculation | null): boolean {
  return gathered.length > 0 || calculation !== null;
}

export function compileAnswer(gathered: readonly Gathered[], calculation: GatheredCalculation | null): string {
  const parts = [COMPILED_NOTE];
  if (calculation)
    parts.push(
      `**Calculation:** ${escapeMarkdown(calculation.expression)} = **${escapeMarkdown(calculation.result)}** (computed exactly by Hearth)`,
    );
  if (gathered.length) {
    parts.push(`**Looked up:** ${gathered.map(lookedUp).join('; ')}.`);
    parts.push(['**What was found**', ...gathered.flatMap(found)].join('\n'));
  }
  return parts.join('\n\n');
}

/** The retry's note: this turn's results as plain text, with no tool-call messages for the template to continue. */
const PLAIN_RESULTS_CHARS = 12_000;

export function resultsAsText(gathered: readonly Gathered[], calculation: GatheredCalculation | null): string {
  const lines: string[] = [];
  if (calculation) lines.push(`- exact calculation: ${calculation.expression} = ${calculation.result}`);
  let used = 0;
  for (const g of gathered) {
    const room = PLAIN_RESULTS_CHARS - used;
    if (room < 200) break;
    const text = JSON.stringify(g.data).slice(0, Math.min(room, 4000));
    used += text.length;
    lines.push(`- ${g.name} ${g.arguments}: ${text}`);
  }
  return lines.join('\n');
}
