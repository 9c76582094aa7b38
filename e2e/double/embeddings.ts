import { tokenize } from './llama-double';

/**
 * llama-server's embeddings as the double plays them (v0.5.0 tools/server: handle_embeddings_impl
 * in server-context.cpp, format_embeddings_response_oaicompat in server-common.cpp):
 *  - POST /v1/embeddings {input: a string or a list of them, model?, encoding_format?} answers
 *    {model, object: "list", usage: {prompt_tokens, total_tokens}, data: [{embedding, index,
 *    object: "embedding"}]}, each vector L2-normalised (the server's default embd_normalize);
 *    encoding_format "base64" gives each vector as base64 of its float32 bytes;
 *  - a server started without --embeddings answers 501 not_supported_error "This server does
 *    not support embeddings. Start it with `--embeddings`";
 *  - no input is 400 "\"input\" or \"content\" must be provided", an empty one 400 "Input
 *    content cannot be empty", another encoding 400;
 *  - an input longer than the physical batch (--ubatch-size, 512 by default; embeddings cannot
 *    split it) is 500 "input (N tokens) is too large to process. increase the physical batch
 *    size (current batch size: 512)".
 * The vectors are deterministic: words hashed into the dimensions, so texts that share words
 * are close; a test can give its own (`vector`) to make a chosen paraphrase close to its passage.
 */

export type EmbeddingsOptions = {
  dims: number;
  /** --ubatch-size: the longest input, in tokens. */
  ubatch?: number;
  /** A test's own vector for a text (unnormalised); undefined: the hashed words. */
  vector?: (text: string) => number[] | undefined;
};

type Problem = { status: number; type: string; message: string };
export type EmbeddingsAnswer = { ok: true; body: Record<string, unknown>; inputs: string[] } | { ok: false; problem: Problem };

const hashOf = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

/** The hashed-words vector of a text: each lowercased word adds ±1 in two dimensions. */
export function wordVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = hashOf(w);
    v[h % dims] += 1;
    v[(h >>> 16) % dims] += h & 1 ? 0.5 : -0.5;
  }
  return v;
}

function normalised(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n > 0 ? v.map((x) => x / n) : v;
}

export function answerEmbeddings(
  body: Record<string, unknown> | null,
  options: EmbeddingsOptions | undefined,
  modelName: string,
): EmbeddingsAnswer {
  if (!options)
    return {
      ok: false,
      problem: {
        status: 501,
        type: 'not_supported_error',
        message: 'This server does not support embeddings. Start it with `--embeddings`',
      },
    };
  const invalid = (message: string): EmbeddingsAnswer => ({ ok: false, problem: { status: 400, type: 'invalid_request_error', message } });
  const input = body?.input ?? body?.content;
  if (input === undefined) return invalid('"input" or "content" must be provided');
  const format = body?.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') return invalid('The format to return the embeddings in. Can be either float or base64');
  const inputs = (Array.isArray(input) ? input : [input]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  const ubatch = options.ubatch ?? 512;
  let total = 0;
  const data = [];
  for (const [index, text] of inputs.entries()) {
    // A BOS token and the text's own, as the server counts them.
    const tokens = text === '' ? 0 : tokenize(text).length + 1;
    if (tokens === 0) return invalid('Input content cannot be empty');
    if (tokens > ubatch)
      return {
        ok: false,
        problem: {
          status: 500,
          type: 'server_error',
          message: `input (${tokens} tokens) is too large to process. increase the physical batch size (current batch size: ${ubatch})`,
        },
      };
    total += tokens;
    const vector = normalised(options.vector?.(text) ?? wordVector(text, options.dims));
    data.push({
      embedding: format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      index,
      object: 'embedding',
      ...(format === 'base64' ? { encoding_format: 'base64' } : {}),
    });
  }
  return {
    ok: true,
    inputs,
    body: {
      model: typeof body?.model === 'string' ? body.model : modelName,
      object: 'list',
      usage: { prompt_tokens: total, total_tokens: total },
      data,
    },
  };
}
