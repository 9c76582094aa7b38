import OpenAI from 'openai';
import { HearthError } from '@/lib/shared/errors';
import { mapModelError } from './client';

/**
 * Vectors from an embeddings server: llama-server started with `--embeddings` and a small
 * embedding model (nomic-embed-text, bge-small, embeddinggemma, Qwen3-Embedding-0.6B), over
 * the OpenAI-compatible POST /v1/embeddings, through the `openai` client (which asks for base64
 * and decodes it: a quarter of the bytes of JSON floats). Texts go in batches; the server's
 * refusals become errors that say what to do: a server without `--embeddings`, an input longer
 * than its physical batch (`--ubatch-size`).
 */

export type EmbeddingsClient = {
  /** One vector per text, in order. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
};

export function createEmbeddingsClient(options: {
  baseURL: string;
  /** The embedding model's name (llama-server serves one; a router or llama-swap needs it). */
  model: string;
  apiKey?: string;
  /** Texts per request. */
  batch?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): EmbeddingsClient {
  // llama-server's OpenAI-compatible route is /v1/embeddings (its bare /embeddings answers another shape): an address without /v1 gets it.
  const bare = options.baseURL.replace(/\/+$/, '');
  const baseURL = /\/v1$/.test(bare) ? bare : `${bare}/v1`;
  const openai = new OpenAI({
    baseURL,
    apiKey: options.apiKey ?? 'not-needed',
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const batch = Math.max(1, options.batch ?? 32);
  return {
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batch) {
        const part = texts.slice(i, i + batch);
        let res: OpenAI.CreateEmbeddingResponse;
        try {
          res = await openai.embeddings.create({ model: options.model, input: [...part] }, { signal });
        } catch (err) {
          const e = mapModelError(err, baseURL);
          if (e.detail?.status === 501)
            throw new HearthError(
              'model_error',
              `The embeddings server at ${baseURL} was started without embeddings: run llama-server with --embeddings (and an embedding model).`,
            );
          if (/too large to process/.test(e.message))
            throw new HearthError(
              'model_error',
              `${e.message.replace(/^The model server answered with an error: /, '')}: start the embeddings server with a larger --ubatch-size (and --batch-size), or cut the text smaller.`,
            );
          throw e;
        }
        const vectors = [...res.data].sort((a, b) => a.index - b.index);
        if (vectors.length !== part.length)
          throw new HearthError('model_error', `The embeddings server gave ${vectors.length} vectors for ${part.length} texts.`);
        for (const v of vectors) out.push(Float32Array.from(v.embedding as number[]));
      }
      return out;
    },
  };
}

/** The Settings page's check: one short text embedded, with the vector's size and the time it took, or why not, in words. */
export async function checkEmbeddings(options: {
  baseURL: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): Promise<{ ok: true; dims: number; ms: number } | { ok: false; error: string }> {
  const started = Date.now();
  try {
    const client = createEmbeddingsClient({ ...options, model: options.model || 'default', timeoutMs: options.timeoutMs ?? 15_000 });
    const [vector] = await client.embed(['Hearth checks that this server makes embeddings.']);
    if (!vector?.length) return { ok: false, error: 'The server answered without a vector.' };
    return { ok: true, dims: vector.length, ms: Date.now() - started };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
