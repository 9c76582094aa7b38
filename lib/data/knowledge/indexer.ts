import type { Awaitable } from '@/lib/shared/awaitable';
import type { EmbeddingsClient } from '@/lib/models/embeddings';
import { chunkText, type Chunk } from './chunk';

/**
 * Indexing knowledge collections in the background: each queued file's text is cut once into
 * passages (written with its status in one transaction, so a restart finds it whole or still
 * queued), then the passages' vectors are asked of the embeddings server in batches, each
 * batch kept as it comes back. Everything it does is in the database, so after a restart it
 * goes on where it stopped (wake it once at start). When the embedding model changes, the
 * old vectors go and every passage is embedded again while search by words goes on. With no
 * embeddings server, files are ready once cut; with one that fails, it tries again later and
 * says why meanwhile.
 */

/** What the indexer reads and writes (db/queries/knowledge.ts). */
export type IndexerStore = {
  nextFileToCut(): Awaitable<{ id: string; name: string; sha256: string; kind: string } | undefined>;
  setFileChunks(args: { fileId: string; chunks: Chunk[]; status: 'indexing' | 'ready' }): Awaitable<void>;
  setFileStatus(args: { fileId: string; status: 'error'; error: string }): Awaitable<void>;
  readyWithoutVectors(): Awaitable<void>;
  chunksToEmbed(args: { model: string; limit: number }): Awaitable<{ id: number; text: string }[]>;
  vectorIndexState(): Awaitable<{ model: string; dims: number } | undefined>;
  resetVectors(): Awaitable<void>;
  storeVectors(args: { model: string; vectors: { chunkId: number; vector: Float32Array }[] }): Awaitable<void>;
  /** Past conversations by meaning (only asked when that setting is on). */
  messagesToEmbed?(args: { limit: number }): Awaitable<{ id: string; text: string }[]>;
  storeMessageVectors?(args: { model: string; vectors: { messageId: string; vector: Float32Array }[] }): Awaitable<void>;
};

/** The beginning of a message that is embedded (a passage's length: what an embedding model reads well). */
const MESSAGE_CHARS = 1500;

/** The embeddings server in use: its client and the model name its vectors are kept under. */
export type Embedder = { client: EmbeddingsClient; model: string };

export type IndexerState = {
  /** Working now. */
  running: boolean;
  /** Why vectors are not coming (the embeddings server's failure), until a batch succeeds. */
  embeddingsError: string | null;
};

export class KnowledgeIndexer {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private embeddingsError: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly deps: {
      store: IndexerStore;
      /** A file's whole text (null: it has none Hearth can read). */
      readText: (file: { sha256: string; kind: string; name: string }) => Promise<string | null>;
      /** The embeddings server of the settings in force; undefined: none. */
      embedder: () => Embedder | undefined;
      /** Passages per embeddings request. */
      batch?: number;
      /** Whether messages are embedded too, so past conversations are found by meaning (a setting). */
      messagesByMeaning?: () => boolean;
      /** How long to wait before asking a failing embeddings server again. */
      retryMs?: number;
      log?: (message: string) => void;
    },
  ) {}

  /** Starts work if there is any (a new file, a changed setting, a restart); never throws. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work()
      .catch((err: unknown) => this.deps.log?.(`Knowledge indexing stopped: ${(err as Error).message}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once nothing is left to do for now (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops after the step under way; nothing more starts. */
  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  state(): IndexerState {
    return { running: this.running !== null, embeddingsError: this.embeddingsError };
  }

  /** Called after each step that changed a file's progress (the page's live progress). */
  onProgress(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private progressed() {
    for (const listener of this.listeners) listener();
  }

  private async work(): Promise<void> {
    const { store } = this.deps;
    while (!this.stopped) {
      const file = await store.nextFileToCut();
      if (file) {
        await this.cut(file);
        this.progressed();
        continue;
      }
      const embedder = this.deps.embedder();
      if (!embedder) {
        this.embeddingsError = null;
        await store.readyWithoutVectors();
        this.progressed();
        return;
      }
      const state = await store.vectorIndexState();
      if (state && state.model !== embedder.model) {
        this.deps.log?.(`The embedding model is now ${embedder.model} (was ${state.model}): every passage is embedded again.`);
        await store.resetVectors();
        this.progressed();
      }
      const batch = await store.chunksToEmbed({ model: embedder.model, limit: this.deps.batch ?? 32 });
      if (batch.length === 0) {
        // Passages first; then, when asked for, the messages of past conversations.
        if (this.deps.messagesByMeaning?.() && (await this.embedMessages(embedder))) continue;
        return;
      }
      let vectors: Float32Array[];
      try {
        vectors = await embedder.client.embed(batch.map((c) => c.text)).catch((err: unknown) => {
          if (!TOO_LONG.test((err as Error).message)) throw err;
          return embedEach(
            embedder.client,
            batch.map((c) => c.text),
          );
        });
      } catch (err) {
        this.embeddingsError = (err as Error).message;
        this.progressed();
        this.retryLater();
        return;
      }
      if (this.stopped) return;
      const dims = vectors[0]?.length ?? 0;
      const kept = await store.vectorIndexState();
      if (kept && kept.dims !== dims) {
        // The same name now serves vectors of another size (a new model file): start over.
        await store.resetVectors();
        continue;
      }
      this.embeddingsError = null;
      await store.storeVectors({
        model: embedder.model,
        vectors: batch.map((c, i) => ({ chunkId: c.id, vector: normalised(vectors[i]) })),
      });
      this.progressed();
    }
  }

  /** One batch of messages embedded; false when none was left (or the server failed: it is tried again later). */
  private async embedMessages(embedder: Embedder): Promise<boolean> {
    const { store } = this.deps;
    const batch = (await store.messagesToEmbed?.({ limit: this.deps.batch ?? 32 })) ?? [];
    if (batch.length === 0) return false;
    let vectors: Float32Array[];
    try {
      vectors = await embedder.client.embed(batch.map((m) => m.text.slice(0, MESSAGE_CHARS))).catch((err: unknown) => {
        if (!TOO_LONG.test((err as Error).message)) throw err;
        return embedEach(
          embedder.client,
          batch.map((m) => m.text.slice(0, MESSAGE_CHARS)),
        );
      });
    } catch (err) {
      this.embeddingsError = (err as Error).message;
      this.retryLater();
      return false;
    }
    if (this.stopped) return false;
    const kept = await store.vectorIndexState();
    if (kept && kept.dims !== (vectors[0]?.length ?? 0)) {
      await store.resetVectors();
      return true;
    }
    this.embeddingsError = null;
    await store.storeMessageVectors?.({
      model: embedder.model,
      vectors: batch.map((m, i) => ({ messageId: m.id, vector: normalised(vectors[i]) })),
    });
    return true;
  }

  private async cut(file: { id: string; name: string; sha256: string; kind: string }) {
    const { store } = this.deps;
    try {
      const text = await this.deps.readText(file);
      if (text === null) throw new Error(`${file.name} has no text Hearth can read`);
      const chunks = chunkText(text, { paged: file.kind === 'pdf' });
      await store.setFileChunks({ fileId: file.id, chunks, status: chunks.length === 0 || !this.deps.embedder() ? 'ready' : 'indexing' });
    } catch (err) {
      await store.setFileStatus({ fileId: file.id, status: 'error', error: (err as Error).message });
    }
  }

  private retryLater() {
    if (this.retry || this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.wake();
    }, this.deps.retryMs ?? 30_000);
    this.retry.unref?.();
  }
}

/** The embeddings client's words for an input longer than the server's physical batch (lib/models/embeddings.ts). */
const TOO_LONG = /--ubatch-size/;

/**
 * A batch one of whose passages is longer than the server's physical batch (a line of dense
 * code or CJK text has more tokens a character than prose): each passage on its own, and one
 * too long is embedded by its beginning (halved until it fits), so it is still found by meaning.
 */
async function embedEach(client: EmbeddingsClient, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const text of texts) {
    let input = text;
    for (let tries = 0; ; tries++) {
      try {
        out.push((await client.embed([input]))[0]);
        break;
      } catch (err) {
        if (!TOO_LONG.test((err as Error).message) || tries >= 5) throw err;
        input = input.slice(0, Math.ceil(input.length / 2));
      }
    }
  }
  return out;
}

/** Cosine similarity is a dot product of unit vectors: each vector is kept at length one. */
export function normalised(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  n = Math.sqrt(n);
  if (n === 0 || Math.abs(n - 1) < 1e-6) return v;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}
