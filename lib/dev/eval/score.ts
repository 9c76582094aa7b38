import { findDeferral, findRefusal } from '@/lib/turns/engine/deferral';
import type { TurnStats } from '@/lib/contract/events';
import type { RunRecord } from './runner';
import type { Fact, Scenario } from './scenario';
import { CATALOGUE } from './standins';

/**
 * Mechanical scores of one run: every expectation is checked by code against what the turn
 * did and said; nothing is graded by a model.
 */

export type ExpectationResult = { what: string; met: boolean; detail?: string };

export type Score = {
  scenario: string;
  model: string;
  repeat: number;
  expectations: ExpectationResult[];
  met: number;
  total: number;
  /** Every turn ended with an answer. */
  completed: boolean;
  toolCalls: number;
  malformedArguments: number;
  inventedTools: number;
  gateNudges: number;
  /** Final answers that still defer ("I can search for that…") or refuse. */
  deferralsLeft: number;
  repeats: number;
  compiled: number;
  rounds: number;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  ttftMs: number | null;
  tokensPerSecond: number | null;
  /** Share of prompt tokens the server found in its cache (from /metrics when it has them, else per call). */
  cacheReuse: number | null;
  wallMs: number;
};

/** Case, spacing, dashes and thousands separators do not matter when looking for a fact. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2212\u2013\u2014]/g, '-')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ');
}

const factText = (f: Fact) => (typeof f === 'string' ? f : f.anyOf.join(' | '));
const hasFact = (answer: string, f: Fact) => (typeof f === 'string' ? [f] : f.anyOf).some((p) => normalise(answer).includes(normalise(p)));

/** The items of a list in an answer, each reduced to its title (before "by" or a dash). */
export function listedTitles(answer: string): string[] {
  return [...answer.matchAll(/^\s*(?:[-*•]|\d+[.)])\s+(.+)$/gm)].map((m) =>
    m[1]
      .replace(/[*_"“”]/g, '')
      .split(/\s+(?:by|[-–—])\s+/i)[0]
      .trim(),
  );
}

function playlistCheck(answer: string, min: number): ExpectationResult {
  const titles = listedTitles(answer);
  const known = new Set(CATALOGUE.map((s) => normalise(s.title)));
  const unknown = titles.filter((t) => !known.has(normalise(t)));
  return {
    what: `a playlist of at least ${min} songs, all in the catalogue`,
    met: titles.length >= min && unknown.length === 0,
    detail: unknown.length ? `not in the catalogue: ${unknown.slice(0, 5).join('; ')}` : `${titles.length} listed`,
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : null);

export function scoreRun(scenario: Scenario, run: RunRecord): Score {
  const events = run.turns.flatMap((t) => t.events);
  const calls = events.filter((e) => e.type === 'tool_call').map((e) => (e as { name: string }).name);
  const results = events.filter((e) => e.type === 'tool_result') as { ok: boolean; error?: string; repeat?: boolean }[];
  const stats = run.turns.map((t) => (t.events.find((e) => e.type === 'done') as { stats?: TurnStats } | undefined)?.stats);
  const answers = run.turns.map((t) => t.answer);
  const last = answers.at(-1) ?? '';
  const { expect } = scenario;

  const checks: ExpectationResult[] = [];
  checks.push({
    what: 'every turn ends with an answer',
    met: run.turns.every((t) => t.ended === 'done' && t.answer.trim() !== ''),
    detail:
      run.turns
        .map((t) => t.errorCode)
        .filter(Boolean)
        .join(', ') || undefined,
  });
  for (const f of expect.facts) checks.push({ what: `says "${factText(f)}"`, met: hasFact(last, f) });
  for (const pattern of expect.mustNotClaim) {
    const re = new RegExp(pattern, 'i');
    const claimed = answers.find((a) => re.test(a));
    checks.push({ what: `does not claim /${pattern}/`, met: !claimed, detail: claimed ? claimed.match(re)?.[0] : undefined });
  }
  for (const tool of expect.mustCall) checks.push({ what: `calls ${tool}`, met: calls.includes(tool) });
  for (const tool of expect.mustNotCall) checks.push({ what: `does not call ${tool}`, met: !calls.includes(tool) });
  for (const [tool, n] of Object.entries(expect.minCalls)) {
    const made = calls.filter((c) => c === tool).length;
    checks.push({ what: `calls ${tool} at least ${n} times`, met: made >= n, detail: `${made}` });
  }
  if (expect.noTools) checks.push({ what: 'calls no tool', met: calls.length === 0, detail: calls.join(', ') || undefined });
  if (expect.maxRounds !== undefined) {
    const most = Math.max(0, ...stats.map((s) => s?.rounds ?? 0));
    checks.push({ what: `at most ${expect.maxRounds} rounds a turn`, met: most <= expect.maxRounds, detail: `${most}` });
  }
  if (expect.playlistFromCatalogue) checks.push(playlistCheck(last, expect.playlistFromCatalogue.min));
  const deferralsLeft = answers.filter((a) => findDeferral(a) !== null || findRefusal(a) !== null).length;
  checks.push({ what: 'no deferral or refusal left in an answer', met: deferralsLeft === 0 });

  const promptTokens = sum(run.calls.map((c) => c.promptTokens));
  const cachedPerCall = run.calls.filter((c) => c.cachedTokens !== undefined);
  const cacheReuse =
    run.metrics && run.metrics.promptTokens + run.metrics.cachedTokens > 0
      ? run.metrics.cachedTokens / (run.metrics.promptTokens + run.metrics.cachedTokens)
      : cachedPerCall.length && promptTokens > 0
        ? sum(cachedPerCall.map((c) => c.cachedTokens ?? 0)) / sum(cachedPerCall.map((c) => c.promptTokens))
        : null;
  return {
    scenario: run.scenario,
    model: run.model,
    repeat: run.repeat,
    expectations: checks,
    met: checks.filter((c) => c.met).length,
    total: checks.length,
    completed: run.turns.every((t) => t.ended === 'done'),
    toolCalls: calls.length,
    malformedArguments: results.filter((r) => !r.ok && /not valid JSON|^invalid arguments for/.test(r.error ?? '')).length,
    inventedTools: results.filter((r) => !r.ok && /^there is no tool called/.test(r.error ?? '')).length,
    gateNudges: events.filter((e) => e.type === 'draft_rejected').length,
    deferralsLeft,
    repeats: results.filter((r) => r.repeat).length,
    compiled: stats.filter((s) => s?.compiled).length,
    rounds: sum(stats.map((s) => s?.rounds ?? 0)),
    modelCalls: run.calls.length,
    promptTokens,
    completionTokens: sum(run.calls.map((c) => c.completionTokens)),
    ttftMs: mean(run.turns.flatMap((t) => (t.ttftMs === undefined ? [] : [t.ttftMs]))),
    tokensPerSecond: mean(run.calls.flatMap((c) => (c.predictedPerSecond === undefined ? [] : [c.predictedPerSecond]))),
    cacheReuse,
    wallMs: run.wallMs,
  };
}

/** What one model did over all scenarios and repeats. */
export type ModelSummary = { model: string; runs: number; met: number; total: number; completed: number } & Record<SummedScore, number> &
  Record<AveragedScore, number | null>;

export const SUMMED = [
  'toolCalls',
  'malformedArguments',
  'inventedTools',
  'gateNudges',
  'deferralsLeft',
  'repeats',
  'compiled',
  'rounds',
  'modelCalls',
  'promptTokens',
  'completionTokens',
  'wallMs',
] as const;
export const AVERAGED = ['ttftMs', 'tokensPerSecond', 'cacheReuse'] as const;
type SummedScore = (typeof SUMMED)[number];
type AveragedScore = (typeof AVERAGED)[number];

export function summarise(model: string, scores: Score[]): ModelSummary {
  const mine = scores.filter((s) => s.model === model);
  const out = {
    model,
    runs: mine.length,
    met: sum(mine.map((s) => s.met)),
    total: sum(mine.map((s) => s.total)),
    completed: mine.filter((s) => s.completed).length,
  } as ModelSummary;
  for (const k of SUMMED) out[k] = sum(mine.map((s) => s[k]));
  for (const k of AVERAGED) out[k] = mean(mine.flatMap((s) => (s[k] === null ? [] : [s[k] as number])));
  return out;
}
