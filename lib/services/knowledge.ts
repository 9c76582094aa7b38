import 'server-only';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import JSZip from 'jszip';
import { zipEntryChunks } from '@/lib/data/files/zip-entry';
import { receiveBytes, type ReceivedArchive, type ReceivedFile, type UploadLimits } from '@/lib/data/files/receive';
import type { CollectionDetail, CollectionFileView, CollectionView } from '@/lib/contract/responses';
import type { Store } from '@/db/store';
import { createVectorWorker, type VectorWorker } from '@/db/vector-worker';
import type { FileKind, FileStore } from '@/lib/data/file-store';
import { apiKeyFor, type Config } from '@/lib/shared/config';
import { HearthError } from '@/lib/shared/errors';
import { KnowledgeIndexer, normalised, type Embedder } from '@/lib/data/knowledge/indexer';
import { retrieve, type Retrieval } from '@/lib/data/knowledge/retrieve';
import { createEmbeddingsClient } from '@/lib/models/embeddings';
import type { Settings } from '@/lib/services/settings-values';
import type { DocumentSearch } from '@/lib/tools/search-documents';

/**
 * Knowledge collections in the app: the indexer working in the background over the store,
 * the embeddings server of the settings in force, and searches for the tool and the page.
 */
export class Knowledge {
  readonly indexer: KnowledgeIndexer;
  private embedderFor: { key: string; embedder: Embedder | undefined } | null = null;
  /** The nearest-vector search off the main thread (none for an in-memory database, which another connection cannot open). */
  private vectorWorker: Promise<VectorWorker | undefined> | null = null;

  constructor(
    private readonly deps: {
      config: Config;
      store: Store;
      files: FileStore;
      settings: () => Settings;
      log?: (message: string) => void;
      /** Passages per embeddings request (tests make it small to see batches). */
      batch?: number;
    },
  ) {
    this.indexer = new KnowledgeIndexer({
      store: deps.store,
      readText: (file) => this.readText(file),
      embedder: () => this.embedder(),
      messagesByMeaning: () => deps.settings().conversationsByMeaning,
      batch: deps.batch,
      log: deps.log,
    });
  }

  /**
   * The embeddings server of the settings (undefined: none). Its vectors are kept under the
   * model's name, or the server's address when no name is given: a change of either is a
   * change of model, and everything is embedded again.
   */
  embedder(): Embedder | undefined {
    const { embeddingsUrl, embeddingsModel } = this.deps.settings();
    const key = `${embeddingsUrl}\n${embeddingsModel}`;
    if (this.embedderFor?.key !== key) {
      this.embedderFor = {
        key,
        embedder: embeddingsUrl
          ? {
              model: embeddingsModel || embeddingsUrl,
              client: createEmbeddingsClient({
                baseURL: embeddingsUrl,
                model: embeddingsModel || 'default',
                apiKey: apiKeyFor(this.deps.config, embeddingsUrl),
                timeoutMs: this.deps.config.MODEL_TIMEOUT_MS,
              }),
            }
          : undefined,
      };
    }
    return this.embedderFor.embedder;
  }

  /** Passages of these collections for a query (the tool, the page's search). */
  async search(args: { query: string; collectionIds: string[]; limit?: number }, signal?: AbortSignal): Promise<Retrieval> {
    const embedder = this.embedder();
    // Made once, by the first search that needs it (two at once share it).
    if (embedder) this.vectorWorker ??= this.makeVectorWorker();
    const worker = (await this.vectorWorker) ?? undefined;
    return retrieve({ store: this.deps.store, embedder, near: worker && ((a) => worker.near(a)), signal, ...args });
  }

  private async makeVectorWorker(): Promise<VectorWorker | undefined> {
    // The scan over sqlite-vec's bits, off the main thread; PostgreSQL's store ranks its vectors itself.
    const place = this.deps.store.place;
    if (place.engine !== 'sqlite' || place.file === ':memory:') return undefined;
    return (await this.deps.store.vectorSearchAvailable()) ? createVectorWorker(place.file) : undefined;
  }

  /**
   * Past messages near a query in meaning (Ctrl+K), when the setting asks for it and an
   * embeddings server answers; [] otherwise (the search by words stands alone). Only messages
   * at least MIN_SIMILARITY close: nearest neighbours always exist, related or not.
   */
  async similarMessages(query: string, limit: number, signal?: AbortSignal) {
    const embedder = this.embedder();
    if (!embedder || !this.deps.settings().conversationsByMeaning) return [];
    try {
      const [vector] = await embedder.client.embed([query], signal);
      return (await this.deps.store.messagesNear({ vector: normalised(vector), limit })).filter((m) => m.similarity >= MIN_SIMILARITY);
    } catch {
      return [];
    }
  }

  /** The search_documents tool's view of a thread: its collections, searched. */
  forThread(threadId: string): DocumentSearch {
    return {
      collections: () => this.deps.store.collectionsOfThread({ threadId }),
      search: (args, signal) => this.search(args, signal),
    };
  }

  /** Whether this library holds a collection of that id. */
  async has(id: string): Promise<boolean> {
    return (await this.deps.store.getCollection({ id })) !== undefined;
  }

  /** A collection as the API shows it, or not_found. */
  async collection(id: string): Promise<CollectionView> {
    const c = await this.deps.store.getCollection({ id });
    if (!c) throw new HearthError('not_found', 'There is no collection with that id.');
    return c;
  }

  /** A collection with its files and how it is searched now. */
  async detail(id: string): Promise<CollectionDetail> {
    const collection = await this.collection(id);
    return {
      ...collection,
      fileList: (await this.deps.store.listCollectionFiles({ collectionId: id })).map(fileView),
      search: { byMeaning: this.embedder() !== undefined, embeddingsError: this.indexer.state().embeddingsError },
    };
  }

  /** Adds received files to a collection (queued for indexing). Images are not indexed: they are refused. */
  async add(
    collectionId: string,
    received: Pick<ReceivedFile, 'name' | 'mime' | 'size' | 'sha256' | 'kind'>[],
  ): Promise<CollectionFileView[]> {
    await this.collection(collectionId);
    const now = Date.now();
    const rows = [];
    for (const file of received)
      rows.push(
        await this.deps.store.addCollectionFile({
          id: randomUUID(),
          collectionId,
          name: file.name,
          mime: file.mime,
          size: file.size,
          sha256: file.sha256,
          kind: file.kind,
          now,
        }),
      );
    this.indexer.wake();
    return rows.map(fileView);
  }

  /**
   * A zip of a folder: each file in it received as an upload is (its path kept as its name),
   * within the limits of one (ARCHIVE_MAX_FILES files, each and all together within the upload
   * limit, however well they compress). Files Hearth cannot read are skipped and named.
   */
  async receiveArchive(
    archive: ReceivedArchive,
    limits: UploadLimits,
  ): Promise<{ received: ReceivedFile[]; skipped: { name: string; reason: string }[] }> {
    const received: ReceivedFile[] = [];
    const skipped: { name: string; reason: string }[] = [];
    try {
      let zip: JSZip;
      try {
        zip = await JSZip.loadAsync(await fs.promises.readFile(archive.path));
      } catch {
        throw new HearthError('unsupported_type', `${archive.name} is not a zip archive Hearth can open.`);
      }
      const entries = Object.values(zip.files).filter(
        (e) => !e.dir && !/(^|\/)(__MACOSX|\.[^/]*)(\/|$)/.test(e.name) && !e.name.split('/').includes('..'),
      );
      if (entries.length > ARCHIVE_MAX_FILES)
        throw new HearthError(
          'too_large',
          `${archive.name} holds ${entries.length} files; a collection takes at most ${ARCHIVE_MAX_FILES} from one archive.`,
        );
      // All the members together within the upload limit (and so each), counted as they inflate.
      let inflated = 0;
      const count = (n: number) => {
        inflated += n;
        if (inflated > limits.maxTextBytes)
          throw new HearthError('too_large', `${archive.name} unpacks to more than ${Math.round(limits.maxTextBytes / 1024 / 1024)} MB.`);
      };
      for (const entry of entries) {
        const parts: Buffer[] = [];
        const unpackable = (err: Error) => new HearthError('unsupported_type', `${entry.name} could not be unpacked (${err.message}).`);
        for await (const chunk of zipEntryChunks(entry, count, unpackable)) parts.push(chunk);
        const bytes = Buffer.concat(parts);
        try {
          const file = await receiveBytes({ bytes, name: entry.name, files: this.deps.files, limits });
          if (file.kind === 'image') {
            skipped.push({ name: entry.name, reason: 'an image: collections index text' });
            await this.forget([file.sha256]);
          } else received.push(file);
        } catch (err) {
          skipped.push({ name: entry.name, reason: (err as Error).message });
        }
      }
      return { received, skipped };
    } catch (err) {
      // Refused whole: what was kept of its files before the refusal leaves the disk again.
      await this.forget(received.map((f) => f.sha256));
      throw err;
    } finally {
      fs.rmSync(archive.path, { force: true });
    }
  }

  /**
   * A file's lines around a passage for the citation viewer: from `from` to `to` and
   * EXCERPT_CONTEXT lines either side (the passage highlighted there), not the whole file.
   */
  async excerpt(
    collectionId: string,
    fileId: string,
    range: { from: number; to?: number },
  ): Promise<{
    file: CollectionFileView;
    firstLine: number;
    lines: string[];
    highlight: { from: number; to: number };
    totalLines: number;
  }> {
    const file = await this.deps.store.getCollectionFile({ id: fileId });
    if (!file || file.collectionId !== collectionId) throw new HearthError('not_found', 'There is no such file in this collection.');
    const text = (await this.readText(file)) ?? '';
    const all = text.replace(/\r\n?/g, '\n').replace(/\f/g, '').split('\n');
    const to = Math.min(range.to ?? range.from, all.length);
    const from = Math.min(range.from, to);
    const first = Math.max(1, from - EXCERPT_CONTEXT);
    const last = Math.min(all.length, to + EXCERPT_CONTEXT);
    return { file: fileView(file), firstLine: first, lines: all.slice(first - 1, last), highlight: { from, to }, totalLines: all.length };
  }

  /** Removes a file from a collection; its bytes leave the disk when nothing else uses them. */
  async removeFile(collectionId: string, fileId: string): Promise<void> {
    const sha256 = await this.deps.store.removeCollectionFile({ collectionId, id: fileId });
    if (sha256 === null) throw new HearthError('not_found', 'There is no such file in this collection.');
    await this.forget([sha256]);
  }

  async deleteCollection(id: string): Promise<void> {
    const hashes = await this.deps.store.deleteCollection({ id });
    if (hashes === null) throw new HearthError('not_found', 'There is no collection with that id.');
    await this.forget(hashes);
  }

  /** Files' bytes leave the disk when no collection or message holds them (any more, or ever: a refused upload's). */
  async forget(hashes: string[]): Promise<void> {
    await this.deps.files.removeUnreferenced(hashes, (hash) => this.deps.store.isFileReferenced({ sha256: hash }));
  }

  /** A stored file's whole text: the file itself, or the text extracted beside it. */
  private async readText(file: { sha256: string; kind: string; name: string }): Promise<string | null> {
    const kind = file.kind as FileKind;
    if (kind === 'image') return null;
    const { files } = this.deps;
    const path = files.textPathOf({ sha256: file.sha256, kind });
    try {
      return (await fs.promises.readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    } catch {
      throw new HearthError('not_found', `${file.name}: its file is missing from the data folder`);
    }
  }
}

/** How close a past message must be to a query to be shown as found by meaning (cosine of unit vectors). */
const MIN_SIMILARITY = 0.5;

/** Lines shown either side of a cited passage. */
const EXCERPT_CONTEXT = 40;

/** Files one archive may add to a collection. */
const ARCHIVE_MAX_FILES = 2000;

function fileView(f: {
  id: string;
  name: string;
  mime: string;
  size: number;
  kind: string;
  status: CollectionFileView['status'];
  error: string | null;
  chunks: number;
  embedded: number;
  createdAt: number;
}): CollectionFileView {
  return {
    id: f.id,
    name: f.name,
    mime: f.mime,
    size: f.size,
    kind: f.kind,
    status: f.status,
    error: f.error,
    chunks: f.chunks,
    embedded: f.embedded,
    createdAt: f.createdAt,
  };
}
