import { hasErrorCode } from '@/lib/shared/errors';
import type { ChatMessage, ModelClient } from '@/lib/models/types';
import { argmax, valueDistribution } from './probabilities';
import type { DecideAnswer, DecisionRecord, Question } from '@/lib/contract/decisions';

/**
 * A decide step asks the model small constrained questions (one JSON-schema call per
 * question by default) and returns typed answers with probabilities as a DecisionRecord.
 * It never throws for what the model does: an answer it cannot give validly after one retry
 * is a refusal, and a failed call is a refusal too, so callers fail open.
 */

export class DecideDefinitionError extends Error {}

/** Temperature when probabilities are not asked for (the recipe below needs 1). */
const PLAIN_TEMPERATURE = 0.2;
/** Enough top entries to cover every value's first tokens at the deciding position. */
const TOP_PROBS = 20;
/** A verdict is a few tokens; the free-text query needs a few dozen. */
const DEFAULT_MAX_TOKENS = 96;

export type DecideStepDefinition<Q extends Record<string, Question>, T extends string = never> = {
  id: string;
  /** The instructions the model gets as its system message. */
  system: string;
  questions: Q;
  /** Short free-text fields asked next to the (first) question, e.g. {query: 'the web search to run'}. */
  text?: Record<T, string>;
  /** Ask every question in one call instead of one call each. */
  together?: boolean;
  maxTokens?: number;
  /** Read grammar-aware probabilities (default true). */
  probabilities?: boolean;
};

export type DecideStep<Q extends Record<string, Question>, T extends string> = {
  id: string;
  definition: DecideStepDefinition<Q, T>;
  run(args: { model: ModelClient; input: string; signal?: AbortSignal; now?: () => number }): Promise<DecisionRecord>;
};

function allowedValues(q: Question): string[] {
  if (q.kind === 'boolean') return ['true', 'false'];
  if (q.kind === 'choice') return [...q.options];
  return q.levels.map((l) => l.label);
}

function questionSchema(q: Question): Record<string, unknown> {
  if (q.kind === 'boolean') return { type: 'boolean', description: q.instructions };
  return { type: 'string', enum: allowedValues(q), description: q.instructions };
}

/** Checks a step's definition; a mistake here is a programming error, reported at once. */
export function defineDecideStep<Q extends Record<string, Question>, T extends string = never>(
  definition: DecideStepDefinition<Q, T>,
): DecideStep<Q, T> {
  if (!/^[a-zA-Z][\w-]*$/.test(definition.id)) throw new DecideDefinitionError(`bad step id ${JSON.stringify(definition.id)}`);
  const keys = Object.keys(definition.questions);
  if (keys.length === 0) throw new DecideDefinitionError(`step ${definition.id} has no questions`);
  for (const [key, q] of Object.entries(definition.questions) as [string, Question][]) {
    const kind = (q as { kind?: unknown }).kind;
    if (kind !== 'boolean' && kind !== 'choice' && kind !== 'score') {
      throw new DecideDefinitionError(`question ${key} of step ${definition.id} has an unknown kind ${String(kind)}`);
    }
    if (q.kind === 'choice' && (!Array.isArray(q.options) || q.options.length < 2)) {
      throw new DecideDefinitionError(`choice question ${key} needs at least two options`);
    }
    if (q.kind === 'score' && (!Array.isArray(q.levels) || q.levels.length < 2)) {
      throw new DecideDefinitionError(`score question ${key} needs at least two levels`);
    }
    const values = allowedValues(q);
    if (new Set(values).size !== values.length) throw new DecideDefinitionError(`question ${key} repeats a value`);
  }
  for (const key of Object.keys(definition.text ?? {})) {
    if (key in definition.questions) throw new DecideDefinitionError(`text field ${key} clashes with a question`);
  }

  async function ask(
    model: ModelClient,
    input: string,
    group: [string, Question][],
    withText: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ answers: Record<string, DecideAnswer>; modelId: string; native: boolean }> {
    const properties: Record<string, unknown> = {};
    for (const [key, q] of group) properties[key] = questionSchema(q);
    const textKeys = withText ? (Object.keys(definition.text ?? {}) as string[]) : [];
    for (const key of textKeys)
      properties[key] = { type: 'string', maxLength: 200, description: (definition.text as Record<string, string>)[key] };
    const schema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    const messages: ChatMessage[] = [
      { role: 'system', content: definition.system },
      { role: 'user', content: input },
    ];
    const wantProbs = definition.probabilities !== false;
    // both tries always set it before it is read.
    let lastProblem = 'no answer';
    for (let attempt = 0; attempt < 2; attempt++) {
      let result;
      try {
        result = await model.chat(
          {
            messages,
            jsonSchema: schema,
            maxTokens: definition.maxTokens ?? DEFAULT_MAX_TOKENS,
            temperature: PLAIN_TEMPERATURE,
            tokenProbs: wantProbs ? TOP_PROBS : undefined,
          },
          { signal },
        );
      } catch (err) {
        // Running out of budget or being stopped ends the turn; any other failure is a refusal.
        if (signal?.aborted || hasErrorCode(err, 'budget_exhausted', 'cancelled')) throw err;
        lastProblem = `the call failed: ${(err as Error).message}`;
        continue;
      }
      const parsed = parseAnswerJson(result.content);
      if (!parsed) {
        lastProblem = 'the answer was not a JSON object';
        continue;
      }
      const answers: Record<string, DecideAnswer> = {};
      let native = true;
      let invalid: string | null = null;
      for (const [key, q] of group) {
        const values = allowedValues(q);
        const raw = parsed[key];
        const sampled =
          q.kind === 'boolean'
            ? typeof raw === 'boolean'
              ? String(raw)
              : null
            : typeof raw === 'string' && values.includes(raw)
              ? raw
              : null;
        const dist = result.tokenProbs ? valueDistribution(result.tokenProbs, key, values, q.kind !== 'boolean') : null;
        if (!dist) native = false;
        if (!dist && sampled === null) {
          invalid = `${key} was ${JSON.stringify(raw)}, not one of ${values.join(', ')}`;
          break;
        }
        // Estimated: without probabilities, the sampled answer gets probability 1.
        const distribution = dist ?? Object.fromEntries(values.map((v) => [v, v === sampled ? 1 : 0]));
        const chosen = argmax(distribution, values);
        if (q.kind === 'boolean') answers[key] = { kind: 'boolean', value: chosen === 'true', p: round4(distribution.true) };
        else if (q.kind === 'choice') answers[key] = { kind: 'choice', value: chosen, p: round4(distribution[chosen]) };
        else {
          const value = q.levels.reduce((sum, l, i) => sum + (l.value ?? i) * distribution[l.label], 0);
          answers[key] = { kind: 'score', level: chosen, value: round4(value) };
        }
      }
      if (invalid) {
        lastProblem = invalid;
        continue;
      }
      for (const key of textKeys) {
        const raw = parsed[key];
        answers[key] = { kind: 'text', value: typeof raw === 'string' ? raw.trim().slice(0, 200) : '' };
      }
      return { answers, modelId: result.model || 'unknown', native };
    }
    const refusal: DecideAnswer = { refused: true, reason: lastProblem };
    const answers: Record<string, DecideAnswer> = {};
    for (const [key] of group) answers[key] = refusal;
    for (const key of textKeys) answers[key] = refusal;
    return { answers, modelId: 'unknown', native: false };
  }

  return {
    id: definition.id,
    definition,
    async run({ model, input, signal, now = Date.now }) {
      const entries = Object.entries(definition.questions) as [string, Question][];
      const groups = definition.together ? [entries] : entries.map((e) => [e]);
      const answers: Record<string, DecideAnswer> = {};
      let modelId = 'unknown';
      let native = true;
      for (const [i, group] of groups.entries()) {
        const r = await ask(model, input, group, i === 0, signal);
        Object.assign(answers, r.answers);
        if (r.modelId !== 'unknown') modelId = r.modelId;
        native &&= r.native;
      }
      return { stepId: definition.id, at: now(), modelId, source: native ? 'native' : 'estimated', answers };
    },
  };
}

/** The model may wrap its JSON in a fence or lead with text: cut to the outer object. */
export function parseAnswerJson(content: string): Record<string, unknown> | null {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  // a fast path; without it the slice is empty or a lone "}" and fails to parse.
  if (start < 0 || end <= start) return null;
  try {
    const value = JSON.parse(content.slice(start, end + 1)) as unknown;
    // text running from a "{" parses as an object or not at all; kept as the type's proof.
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function round4(n: number): number {
  return Math.round(n * 10000) / 10000;
}
