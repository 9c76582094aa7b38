import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { GateScorecard, ModelScorecard } from '@/lib/contract/responses';

/**
 * The eval reports kept on this machine (`npm run eval` writes eval-results/<run>/scorecard.json),
 * read for the thread's model picker: each model's headline from the newest report that names
 * it, by the name it was run under or by the id its server gave. Reports are files from
 * outside: each is checked and one that is not a scorecard (or too large) is passed over.
 */

const MAX_REPORTS = 200;
const MAX_REPORT_BYTES = 20 * 1024 * 1024;

const count = z.number().int().min(0);
const reportShape = z.object({
  tool: z.literal('hearth-eval'),
  finishedAt: z.string().max(100),
  models: z.array(z.object({ name: z.string().max(500), modelId: z.string().max(500).optional() })).max(100),
  summaries: z
    .array(
      z.object({
        model: z.string().max(500),
        runs: count,
        met: count,
        total: count,
        completed: count,
        deferralsLeft: count,
        tokensPerSecond: z.number().finite().min(0).nullable(),
      }),
    )
    .max(100),
});

type Cached<C> = { mtimeMs: number; size: number; cards: [string, C][] };

function reportFiles(dir: string, name = 'scorecard.json'): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files = entries.flatMap((e) =>
    e.isDirectory() ? [path.join(dir, e.name, name)] : e.name === name ? [path.join(dir, e.name)] : [],
  );
  return files.slice(0, MAX_REPORTS);
}

/** One report's cards by model name, read through `toCards` and cached while the file is unchanged. */
function cardsOf<C>(file: string, cache: Map<string, Cached<C>>, toCards: (json: unknown) => [string, C][]): [string, C][] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const seen = cache.get(file);
  if (seen && seen.mtimeMs === stat.mtimeMs && seen.size === stat.size) return seen.cards;
  let cards: [string, C][] = [];
  if (stat.isFile() && stat.size <= MAX_REPORT_BYTES) {
    try {
      cards = toCards(JSON.parse(fs.readFileSync(file, 'utf8')));
    } catch {
      // not JSON: not a report
    }
  }
  cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, cards });
  return cards;
}

/** Every model's newest card in the reports named `name` under `dir`. */
function newestCards<C extends { at: string }>(
  dir: string,
  name: string,
  cache: Map<string, Cached<C>>,
  toCards: (json: unknown) => [string, C][],
): Map<string, C> {
  const newest = new Map<string, C>();
  for (const file of reportFiles(dir, name)) {
    for (const [model, card] of cardsOf(file, cache, toCards)) {
      const kept = newest.get(model);
      if (!kept || card.at > kept.at) newest.set(model, card);
    }
  }
  return newest;
}

const scorecardCache = new Map<string, Cached<ModelScorecard>>();

/** A scorecard's headlines, by every name a model goes by in it. */
function scorecardCards(json: unknown): [string, ModelScorecard][] {
  const report = reportShape.safeParse(json);
  if (!report.success) return [];
  const { finishedAt, models, summaries } = report.data;
  return summaries.flatMap((s) => {
    const card: ModelScorecard = {
      completed: s.completed,
      runs: s.runs,
      met: s.met,
      total: s.total,
      deferralsLeft: s.deferralsLeft,
      tokensPerSecond: s.tokensPerSecond,
      at: finishedAt,
    };
    const id = models.find((m) => m.name === s.model)?.modelId;
    return [[s.model, card] as [string, ModelScorecard], ...(id && id !== s.model ? [[id, card] as [string, ModelScorecard]] : [])];
  });
}

/** Every model's newest headline in the reports under `dir`. */
export function readScorecards(dir: string): Map<string, ModelScorecard> {
  return newestCards(dir, 'scorecard.json', scorecardCache, scorecardCards);
}

const share = z.number().min(0).max(1).nullable();
const gateReportShape = z.object({
  tool: z.literal('hearth-gate-eval'),
  finishedAt: z.string().max(100),
  models: z
    .array(
      z.object({
        name: z.string().max(500),
        languages: z.array(z.object({ lang: z.string().max(40) })).max(1000),
        overall: z.object({ drafts: count, recall: share, precision: share }),
        verdictMs: z.number().finite().min(0),
      }),
    )
    .max(100),
});

const gateCache = new Map<string, Cached<GateScorecard>>();

function gateCards(json: unknown): [string, GateScorecard][] {
  const report = gateReportShape.safeParse(json);
  if (!report.success) return [];
  return report.data.models.map((m) => [
    m.name,
    {
      recall: m.overall.recall,
      precision: m.overall.precision,
      msPerJudgement: m.verdictMs,
      drafts: m.overall.drafts,
      languages: m.languages.length,
      at: report.data.finishedAt,
    },
  ]);
}

/** Every model's newest gate measurement (`npm run eval -- --gate` writes gate.json) in the reports under `dir`. */
export function readGateScorecards(dir: string): Map<string, GateScorecard> {
  return newestCards(dir, 'gate.json', gateCache, gateCards);
}
