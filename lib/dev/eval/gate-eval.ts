import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { freshnessStep, verdictStep } from '@/lib/turns/engine/gate';
import { verdictInput } from '@/lib/turns/engine/prompts';
import type { ModelClient } from '@/lib/models/types';

/**
 * The gate's judges measured on a real model (`npm run eval -- --gate [file.jsonl]`): the
 * verdict, exactly as a turn asks it, over a labelled set of drafts, and the freshness check
 * over the questions that come with them. A deferral is the positive class: recall is the share
 * of deferrals the verdict sends to research, precision the share of its "research" that were
 * deferrals. Reported per language, with the time per judgement, so a person picks a checks
 * model by measurement. The set is the project's own evaluation slices (the classifier's frozen
 * slices) or a JSON Lines file a person gives: `{"d": 1|0, "text": …, "question"?: …, "lang"?: …}`.
 */

export type GateItem = { d: 0 | 1; text: string; question?: string; lang: string };

const MAX_ITEMS = 20_000;
const itemShape = z
  .object({
    d: z.union([z.literal(0), z.literal(1)]),
    text: z.string().min(1).max(20_000),
    question: z.string().max(4000).optional(),
    lang: z.string().trim().min(1).max(40).optional(),
  })
  .strict();

/** A language named by its script where the file does not name it (Latin-script languages are one group then). */
export function scriptOf(text: string): string {
  const scripts: [RegExp, string][] = [
    [/\p{Script=Hiragana}|\p{Script=Katakana}/u, 'ja'],
    [/\p{Script=Hangul}/u, 'ko'],
    [/\p{Script=Han}/u, 'zh'],
    [/\p{Script=Cyrillic}/u, 'cyrillic'],
    [/\p{Script=Arabic}/u, 'ar'],
    [/\p{Script=Devanagari}/u, 'hi'],
    [/\p{Script=Greek}/u, 'el'],
    [/\p{Script=Hebrew}/u, 'he'],
    [/\p{Script=Thai}/u, 'th'],
  ];
  return scripts.find(([re]) => re.test(text))?.[1] ?? 'latin';
}

/** A person's labelled drafts, one JSON object a line; a bad line is refused by its number. */
export function parseGateItems(jsonl: string): GateItem[] {
  const items: GateItem[] = [];
  for (const [i, line] of jsonl.split('\n').entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1}: not JSON`);
    }
    const parsed = itemShape.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`line ${i + 1}: ${issue.path.join('.') || 'the line'}: ${issue.message}`);
    }
    items.push({ ...parsed.data, lang: parsed.data.lang ?? scriptOf(parsed.data.text) });
    if (items.length > MAX_ITEMS) throw new Error(`more than ${MAX_ITEMS} drafts`);
  }
  if (items.length === 0) throw new Error('no drafts in the file');
  return items;
}

const CORPUS = path.join(import.meta.dirname, '..', 'gate-training', 'corpus', 'eval.json');

/** The project's own labelled drafts: the classifier's frozen evaluation slices, by language. */
export function corpusItems(): GateItem[] {
  const slices = JSON.parse(fs.readFileSync(CORPUS, 'utf8')) as Record<string, { deferrals: string[]; genuine: string[] }>;
  return Object.entries(slices).flatMap(([lang, s]) => [
    ...s.deferrals.map((text) => ({ d: 1 as const, text, lang })),
    ...s.genuine.map((text) => ({ d: 0 as const, text, lang })),
  ]);
}

export type LanguageScore = {
  lang: string;
  drafts: number;
  deferrals: number;
  /** null where there was nothing to count (no deferrals; no "research" said). */
  recall: number | null;
  precision: number | null;
  /** Verdicts that could not be read (a refusal, a failed call): counted as "answered", as the gate fails open. */
  unanswered: number;
};

export type GateReportModel = {
  name: string;
  languages: LanguageScore[];
  overall: LanguageScore;
  /** Median ms per verdict and per freshness check (null when no question was given). */
  verdictMs: number;
  freshnessMs: number | null;
  /** Questions the freshness check said need current information, of those asked. */
  freshness: { asked: number; needsFresh: number };
};

export type GateReport = { tool: 'hearth-gate-eval'; version: 1; finishedAt: string; set: string; models: GateReportModel[] };

function score(lang: string, rows: { d: 0 | 1; research: boolean; unanswered: boolean }[]): LanguageScore {
  const deferrals = rows.filter((r) => r.d === 1).length;
  const caught = rows.filter((r) => r.d === 1 && r.research).length;
  const said = rows.filter((r) => r.research).length;
  return {
    lang,
    drafts: rows.length,
    deferrals,
    recall: deferrals ? caught / deferrals : null,
    precision: said ? caught / said : null,
    unanswered: rows.filter((r) => r.unanswered).length,
  };
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/** Judges every item with one model, one call at a time (as a checks slot serves them). */
export async function judgeGate(
  model: ModelClient,
  name: string,
  items: GateItem[],
  onProgress?: (done: number) => void,
): Promise<GateReportModel> {
  const rows: { lang: string; d: 0 | 1; research: boolean; unanswered: boolean }[] = [];
  const verdictMs: number[] = [];
  const freshnessMs: number[] = [];
  const freshness = { asked: 0, needsFresh: 0 };
  const questions = new Set<string>();
  for (const [i, item] of items.entries()) {
    const t0 = performance.now();
    const record: DecisionRecord = await verdictStep.run({
      model,
      input: verdictInput({ question: item.question ?? '(not given)', toolResults: [], earlierAnswers: [], draft: item.text }),
    });
    verdictMs.push(performance.now() - t0);
    const v = record.answers.verdict;
    rows.push({ lang: item.lang, d: item.d, research: v?.kind === 'choice' && v.value === 'research', unanswered: v?.kind !== 'choice' });
    if (item.question && !questions.has(item.question)) {
      questions.add(item.question);
      const f0 = performance.now();
      const fresh = await freshnessStep.run({ model, input: `Question:\n${item.question}` });
      freshnessMs.push(performance.now() - f0);
      freshness.asked++;
      const a = fresh.answers.needs_fresh;
      if (a?.kind === 'boolean' && a.value) freshness.needsFresh++;
    }
    onProgress?.(i + 1);
  }
  const langs = [...new Set(rows.map((r) => r.lang))].sort();
  return {
    name,
    languages: langs.map((l) =>
      score(
        l,
        rows.filter((r) => r.lang === l),
      ),
    ),
    overall: score('all', rows),
    verdictMs: median(verdictMs),
    freshnessMs: freshnessMs.length ? median(freshnessMs) : null,
    freshness,
  };
}

const pct = (x: number | null) => (x === null ? '  –  ' : `${(x * 100).toFixed(0).padStart(3)}%`);

/** The report as the terminal prints it: a line per language and model. */
export function describeGateReport(report: GateReport): string {
  const lines = [`gate judges over ${report.set}:`];
  for (const m of report.models) {
    lines.push(
      `  ${m.name}: verdict ${m.verdictMs.toFixed(0)} ms per judgement${m.freshnessMs === null ? '' : `, freshness ${m.freshnessMs.toFixed(0)} ms (${m.freshness.needsFresh}/${m.freshness.asked} questions need current information)`}`,
    );
    for (const l of [...m.languages, m.overall]) {
      lines.push(
        `    ${l.lang.padEnd(10)} ${String(l.drafts).padStart(5)} drafts, ${String(l.deferrals).padStart(4)} deferrals · recall ${pct(l.recall)} · precision ${pct(l.precision)}${l.unanswered ? ` · ${l.unanswered} unanswered` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
