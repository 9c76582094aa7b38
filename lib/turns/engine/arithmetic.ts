import { z } from 'zod';
import { defineDecideStep, parseAnswerJson } from '@/lib/turns/decide/decide';
import type { ModelClient } from '@/lib/models/types';
import { calculate, type Calculation } from '@/lib/tools/calculator';
import { isToolError } from '@/lib/tools/types';
import { ARITHMETIC_SYSTEM, PLAN_SYSTEM } from './prompts';

/**
 * Program-decided arithmetic: for "What is 23 * 47 + 156?" the program, not the model, picks
 * the steps. A free check (two numbers and an arithmetic cue) and a boolean decide step
 * decide whether this path applies; the model then writes only the plan, an expression that
 * a schema and zod check; the calculator computes it exactly. Because the plan is an
 * expression, not a left-to-right chain, precedence and parentheses just work.
 */

const NUMBER = /\d+(?:\.\d+)?/g;
const CUE =
  /[-+*/×÷^%]|\b(?:plus|minus|times|multiplied|divided|over|sum|product|difference|total|add|subtract|percent|squared|cubed|half|twice)\b/i;

/**
 * Identifiers are not arithmetic: UUIDs and hashes, dates and times, versions, and words that
 * mix letters and digits (a UUID holds "427-9", a date "2026-11-30").
 */
const IDENTIFIERS = [
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\b\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?\b/g,
  /\b\d{1,2}:\d{2}(?::\d{2})?\b/g,
  /\bv?\d+(?:\.\d+){2,}\b/gi,
  /\b(?=\w*[a-z])(?=\w*\d)\w+\b/gi,
];

/** The free check: at least two numbers and an arithmetic cue, once identifiers are left out. */
export function looksLikeArithmetic(question: string): boolean {
  const text = IDENTIFIERS.reduce((t, re) => t.replace(re, ' '), question);
  // no match and a one-element fallback both fall short of two numbers; and once identifiers are gone a digit-dash-digit run sits only between non-word characters, so whatever replaces it can neither make nor break a cue
  return (text.match(NUMBER) ?? []).length >= 2 && CUE.test(text.replace(/\d[\d.]*-\d/g, ''));
}

export const arithmeticStep = defineDecideStep({
  id: 'arithmetic',
  system: ARITHMETIC_SYSTEM,
  questions: { is_arithmetic: { kind: 'boolean', instructions: 'is this arithmetic on numbers given in the message?' } },
  maxTokens: 24,
});

/** What the plan may contain: numbers, operators, parentheses and spaces, nothing else. */
const PLAN_PATTERN = '^[0-9.+*/^%() -]{1,300}$';
export const PLAN_JSON_SCHEMA = {
  type: 'object',
  properties: { expression: { type: 'string', pattern: PLAN_PATTERN } },
  required: ['expression'],
  additionalProperties: false,
};
export const planSchema = z.object({ expression: z.string().regex(new RegExp(PLAN_PATTERN)) }).strict();

export type PlanOutcome = { ok: true; calculation: Calculation } | { ok: false; diagnostic: string };

/** Asks the model for the plan as data, checks it, and computes it. Never throws for model output. */
export async function planAndCompute(model: ModelClient, question: string, signal?: AbortSignal): Promise<PlanOutcome> {
  const result = await model.chat(
    {
      messages: [
        { role: 'system', content: PLAN_SYSTEM },
        { role: 'user', content: question },
      ],
      jsonSchema: PLAN_JSON_SCHEMA,
      temperature: 0,
      maxTokens: 120,
    },
    { signal },
  );
  const parsed = planSchema.safeParse(parseAnswerJson(result.content));
  if (!parsed.success) {
    return { ok: false, diagnostic: `the plan was not in the expected shape: ${JSON.stringify(result.content.slice(0, 200))}` };
  }
  try {
    return { ok: true, calculation: calculate(parsed.data.expression) };
  } catch (err) {
    if (isToolError(err)) return { ok: false, diagnostic: `the plan could not be computed: ${err.message}` };
    throw err;
  }
}
