import { z } from 'zod';
import { ContextRuntime } from '@/lib/turns/context/layers';
import { historyLayer, identityLayer, type HistoryMessage } from '@/lib/turns/context/standard';
import { decisionsHistoryLayer } from '@/lib/turns/decide/history';
import type { TurnEvent } from '@/lib/contract/events';
import { StepJournal, type StoredStep } from '@/lib/turns/engine/step-journal';
import { runTurn, type EngineConfig } from '@/lib/turns/engine/turn';
import type { ThinkingMode } from '@/lib/models/thinking';
import type { ChatRequest, ModelClient } from '@/lib/models/types';
import { createToolRegistry } from '@/lib/tools/registry';
import { defineTool, ToolError, type Tool, type ToolDeps } from '@/lib/tools/types';
import type { AttachedTableRef } from '@/lib/data/tables/tables';
import type { Classifier } from '@/lib/turns/engine/classifier';
import { decideBy, scriptedModel, type ScriptedModel, type ScriptedReply } from './scripted-model';

/**
 * One turn of the engine against a scripted model, for the engine's unit tests: a web_search
 * tool that records its queries (the query "fail" fails), the identity, decisions and history
 * layers, and every event, stored step and request kept for the test to read.
 */

export const DEFERRAL = "I don't have access to real-time data, but I can search for the current price if you'd like.";

export function searchTool(runs: string[]): Tool {
  return defineTool({
    name: 'web_search',
    description: 'search',
    params: z.object({ query: z.string(), limit: z.number().optional() }),
    cost: 5,
    timeoutMs: 1000,
    research: true,
    async run({ query }) {
      runs.push(query);
      if (query === 'fail') throw new ToolError('the search service did not answer');
      return { results: [{ title: `About ${query}`, url: 'https://example.org', snippet: 'It costs 42 euros.' }] };
    },
  }) as Tool;
}

/** A tool with no research in it: finds what it is asked (the query "fail" fails). */
export const lookupTool = defineTool({
  name: 'lookup',
  description: 'look up',
  params: z.object({ q: z.string() }),
  cost: 1,
  timeoutMs: 1000,
  async run({ q }) {
    if (q === 'fail') throw new ToolError('nothing found');
    return { found: q };
  },
}) as Tool;

export type TurnSetup = {
  rounds: ScriptedReply[];
  decide?: Record<string, Record<string, unknown> | Error>;
  /** false: no web_search tool and no research. */
  research?: boolean;
  /** Asked before each gate (default: whether web_search is offered). */
  researchAvailable?: () => boolean;
  config?: Partial<EngineConfig>;
  stored?: StoredStep[];
  /** Sees each step as the step journal stores it; a throw is a store that failed. */
  append?: (step: StoredStep) => void;
  question?: string;
  /** The conversation the model sees (default: the question as the one user message). */
  history?: HistoryMessage[];
  /** false: no identity or decisions layer, so the history is the whole prompt. */
  layers?: boolean;
  signal?: AbortSignal;
  /** Side calls on a slot of their own (the default here); false: one slot, freshness only when the gate asks. */
  parallelSideCalls?: boolean;
  /** Tools beside web_search. */
  tools?: Tool[];
  /** The turn's clock (default: always 0). */
  now?: () => number;
  /** Wraps the scripted model, to see what the engine passes it beside the request. */
  wrapModel?: (model: ScriptedModel) => ModelClient;
  /** Thinking asked of the conversation's calls. */
  thinking?: ThinkingMode;
  /** The model sees images. */
  vision?: boolean;
  /** Tables attached on the branch, and what the tools' deps add (an attachment's table). */
  tables?: AttachedTableRef[];
  toolDeps?: Partial<ToolDeps>;
  /** The gate's classifier (default: the shipped one). */
  classifier?: Classifier;
};

/** A classifier that is never sure, so the verdict decides every draft (tests of what the verdict is given). */
export const UNSURE_CLASSIFIER: Classifier = {
  version: 'always unsure',
  thresholds: { deferral: 0.5, answer: 0 },
  score: () => 0.3,
  judge: () => ({ outcome: 'unsure', p: 0.3 }),
};

/** A classifier that reads every draft as a deferral: with a pattern's agreement, a draft is set aside with no verdict. */
export const DEFERRING_CLASSIFIER: Classifier = {
  version: 'always a deferral',
  thresholds: { deferral: 0.5, answer: 0 },
  score: () => 0.9,
  judge: () => ({ outcome: 'deferral', p: 0.9 }),
};

export async function runScriptedTurn(setup: TurnSetup) {
  const runs: string[] = [];
  const model = scriptedModel({ rounds: setup.rounds, decide: decideBy(setup.decide ?? {}) });
  const tools = createToolRegistry([...(setup.research === false ? [] : [searchTool(runs)]), ...(setup.tools ?? [])]);
  const question = setup.question ?? 'What is the price of bitcoin?';
  const history = historyLayer(setup.history ?? [{ role: 'user', content: question }], { maxMessages: 10, maxChars: 10_000 });
  const context = await ContextRuntime.create(
    setup.layers === false
      ? ([history] as const)
      : ([
          identityLayer({
            assistantName: 'Hearth',
            modelId: 'scripted',
            now: 0,
            timezone: 'UTC',
            webSearch: setup.research !== false,
            toolNames: [],
          }),
          decisionsHistoryLayer(),
          history,
        ] as const),
    { executionId: 't1', threadId: 'th1', resourceId: 'r' },
  );
  const events: TurnEvent[] = [];
  const appended: StoredStep[] = [];
  const steps = new StepJournal(setup.stored ?? [], (s) => {
    setup.append?.(s);
    appended.push(s);
  });
  const outcome = await runTurn(
    { question, earlierAnswers: [] },
    {
      model: setup.wrapModel ? setup.wrapModel(model) : model,
      tools,
      toolDeps: { now: () => 0, timezone: 'UTC', threadId: 'th1', ...setup.toolDeps },
      context,
      steps,
      emit: (e) => events.push(e),
      now: setup.now ?? (() => 0),
      signal: setup.signal ?? new AbortController().signal,
      researchAvailable: setup.researchAvailable ?? (() => setup.research !== false),
      parallelSideCalls: setup.parallelSideCalls ?? true,
      thinking: setup.thinking,
      vision: setup.vision,
      tables: setup.tables,
      classifier: setup.classifier,
      config: setup.config,
    },
  );
  return { outcome, events, model, runs, appended, context };
}

/** Every message's text of a request, one after another. */
export const allText = (req: ChatRequest) =>
  req.messages.map((m) => ('content' in m && typeof m.content === 'string' ? m.content : '')).join('\n');

/** The schema's property names of a constrained (decide) request. */
export const schemaKeys = (req: ChatRequest) => Object.keys((req.jsonSchema as { properties?: object }).properties ?? {});
