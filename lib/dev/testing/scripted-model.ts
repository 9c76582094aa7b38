import type { ChatOptions, ChatRequest, ChatResult, ModelClient } from '@/lib/models/types';

/**
 * A scripted model for unit tests: each round call takes the next reply from `rounds`;
 * constrained calls (a JSON schema) go to `decide`. Every request is recorded.
 */
export type ScriptedReply = Partial<ChatResult> | Error | ((req: ChatRequest) => Partial<ChatResult> | Error);

export function reply(content: string, extra: Partial<ChatResult> = {}): Partial<ChatResult> {
  return { content, ...extra };
}

export function toolCall(name: string, args: Record<string, unknown> | string, id?: string): Partial<ChatResult> {
  return {
    content: '',
    finishReason: 'tool_calls',
    toolCalls: [
      {
        id: id ?? `call_${name}_${Math.abs(hash(JSON.stringify(args)))}`,
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args),
      },
    ],
  };
}

function hash(s: string) {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}

export type ScriptedModel = ModelClient & { requests: ChatRequest[]; roundRequests: ChatRequest[]; decideRequests: ChatRequest[] };

export function scriptedModel(opts: {
  rounds?: ScriptedReply[];
  decide?: (req: ChatRequest) => Partial<ChatResult> | Error;
}): ScriptedModel {
  const rounds = [...(opts.rounds ?? [])];
  const requests: ChatRequest[] = [];
  const roundRequests: ChatRequest[] = [];
  const decideRequests: ChatRequest[] = [];
  const full = (p: Partial<ChatResult>): ChatResult => ({
    content: '',
    reasoning: '',
    toolCalls: [],
    finishReason: p.toolCalls?.length ? 'tool_calls' : 'stop',
    usage: { promptTokens: 10, completionTokens: 5 },
    tokenProbs: null,
    model: 'scripted',
    ...p,
  });
  return {
    requests,
    roundRequests,
    decideRequests,
    async health() {
      return { url: 'scripted', reachable: true, id: 'scripted' };
    },
    async chat(req: ChatRequest, options: ChatOptions = {}) {
      requests.push(structuredClone(req));
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      if (req.jsonSchema) {
        decideRequests.push(req);
        const out = opts.decide ? opts.decide(req) : { content: '{}' };
        if (out instanceof Error) throw out;
        return full(out);
      }
      roundRequests.push(req);
      const next = rounds.shift();
      if (next === undefined) throw new Error(`scripted model: no reply left for round ${roundRequests.length}`);
      const out = typeof next === 'function' ? next(req) : next;
      if (out instanceof Error) throw out;
      const result = full(out);
      // A thinking model streams its thinking first, word by word, as the server does.
      if (options.onReasoning && result.reasoning) for (const piece of result.reasoning.match(/\s*\S+/g) ?? []) options.onReasoning(piece);
      if (options.onDelta && result.content) for (const piece of result.content.match(/\s*\S+/g) ?? []) options.onDelta(piece);
      return result;
    },
  };
}

/** A decide handler that answers every schema from a table keyed by a property name. */
export function decideBy(answers: Record<string, Record<string, unknown> | Error>) {
  return (req: ChatRequest) => {
    const props = Object.keys((req.jsonSchema as { properties?: Record<string, unknown> }).properties ?? {});
    for (const key of props) {
      const a = answers[key];
      if (a instanceof Error) return a;
      if (a) return { content: JSON.stringify(a) };
    }
    return {
      content: JSON.stringify(Object.fromEntries(props.map((p) => [p, p === 'query' ? '' : p === 'verdict' ? 'answered' : false]))),
    };
  };
}
