import { pdfText } from '@/lib/data/files/extract';
import { FileStore, type FileKind } from '@/lib/data/file-store';
import { grepAttachmentTool, readAttachmentTool } from './attachments';
import { queryTableTool } from './query-table';
import { ensureTable } from '@/lib/data/tables/attached';
import type { Awaitable } from '@/lib/shared/awaitable';
import type { Config } from '@/lib/shared/config';
import { calculatorTool } from './calculator';
import { nowTool } from './now';
import { createHostPacer, hostKey, type HostStore, type RateBudget } from './politeness';

import { createToolRegistry, type ToolRegistry } from './registry';
import { rememberTool } from './remember';
import { searchConversationsTool } from './search-conversations';
import { searchDocumentsTool, type DocumentSearch } from './search-documents';
import type { ConversationHit, MemoryBook, Tool, ToolDeps } from './types';
import { searchLibrary, type SearchStore } from '@/lib/data/search/search';
import { createFetchUrlTool, createWebSearchTool } from './web';

const SEARXNG_BUDGET: RateBudget = { minGapMs: 0, perMinute: 60, perHour: 600, perDay: 5000 };

/**
 * The tools a turn is offered: the registry, whether research can run now, and each thread's
 * dependencies; `without` gives the set a thread sees with some of them switched off.
 */
export type ToolSet = {
  registry: ToolRegistry;
  researchAvailable: () => Promise<boolean>;
  deps: (threadId: string) => ToolDeps;
  without?: (names: readonly string[]) => ToolSet;
};

/** The set with these tools left out (a thread's own choice); the registry and its schemas are made once per choice. */
function narrowable(set: Omit<ToolSet, 'without'>): ToolSet {
  const made = new Map<string, ToolSet>();
  const without = (names: readonly string[]): ToolSet => {
    const off = names.filter((n) => set.registry.has(n));
    if (off.length === 0) return whole;
    const key = [...off].sort().join('\n');
    let narrowed = made.get(key);
    if (!narrowed) {
      const registry = createToolRegistry(set.registry.tools.filter((t) => !off.includes(t.name)));
      narrowed = {
        ...set,
        registry,
        researchAvailable: async () => registry.hasResearchTool() && (await set.researchAvailable()),
        without,
      };
      made.set(key, narrowed);
    }
    return narrowed;
  };
  const whole: ToolSet = { ...set, without };
  return whole;
}

/** What the tool set needs from the database. */
export type ToolStore = HostStore &
  SearchStore & {
    exchangeOf(args: { turnId: string }): Awaitable<{ role: 'user' | 'assistant'; content: string }[]>;
    attachmentOfThread(args: {
      id: string;
      threadId: string;
    }): Awaitable<{ name: string; mime: string; sha256: string; kind: FileKind; text: string; chars: number; lines: number } | undefined>;
  };

/** What the model reads of each earlier message found. */
const EXCERPT_CHARS = 600;

/** Hearth's tools for one turn: web search only when SearXNG is configured, remember only with a memory. */
export function createToolSet({
  config,
  store,
  files = FileStore.of(config.DATA_DIR),
  now,
  fetchImpl,
  memory,
  allowAddress,
  // no tool has the name a mutant would put here
  without = [],
  extra = [],
  documents,
}: {
  config: Config;
  store: ToolStore;
  /** Where attached files are read from (the data folder's store unless given). */
  files?: FileStore;
  now: () => number;
  fetchImpl?: typeof fetch;
  memory?: MemoryBook;
  /** Addresses fetch_url treats as public: the scorecard's local page server (lib/dev/eval), tests' stand-ins. */
  allowAddress?: (address: string) => boolean;
  /** Tools left out of the set (a scorecard scenario may switch some off). */
  without?: readonly string[];
  /** Tools from elsewhere: the user's MCP servers (lib/tools/mcp.ts). */
  extra?: readonly Tool[];
  /** Knowledge collections: each thread's, and a search over them (lib/services/knowledge.ts); none: no search_documents. */
  documents?: (threadId: string) => DocumentSearch;
}): ToolSet {
  // The user's own SearXNG answers many queries a minute; outside sites get the default budget.
  const budgets: Record<string, RateBudget> = config.SEARXNG_URL ? { [hostKey(config.SEARXNG_URL)]: SEARXNG_BUDGET } : {};
  const pacer = createHostPacer(store, now, budgets);
  const tools: Tool[] = [
    calculatorTool,
    nowTool,
    searchConversationsTool,
    readAttachmentTool as Tool,
    grepAttachmentTool as Tool,
    queryTableTool as Tool,
  ];
  if (memory) tools.push(rememberTool as Tool);
  if (documents) tools.push(searchDocumentsTool as Tool);
  let searchHost: string | null = null;
  if (config.SEARXNG_URL) {
    searchHost = hostKey(config.SEARXNG_URL);
    tools.push(createWebSearchTool({ searxngUrl: config.SEARXNG_URL, pacer, now, fetchImpl }) as Tool);
  }
  tools.push(
    createFetchUrlTool({ policy: { allowedPorts: config.FETCH_ALLOWED_PORTS, allowAddress }, pacer, now, extractPdf: pdfText }) as Tool,
  );
  tools.push(...extra);
  const registry = createToolRegistry(tools.filter((t) => !without.includes(t.name)));
  // A tool server the user marked as a source of information can answer a deferral too.
  const researchElsewhere = extra.some((t) => t.research && !without.includes(t.name));
  return narrowable({
    registry,
    researchAvailable: async () =>
      researchElsewhere || (searchHost !== null && !without.includes('web_search') && !(await pacer.isResting(searchHost))),
    deps: (threadId) => ({
      now,
      timezone: config.HEARTH_TIMEZONE,
      threadId,
      memory,
      documents: documents?.(threadId),
      attachmentText: async (id) => {
        const a = await store.attachmentOfThread({ id, threadId });
        if (!a) return undefined;
        const onDisk = files.has(a.sha256, 'text', a.kind) ? files.textPathOf(a) : null;
        return { name: a.name, path: onDisk, text: a.text, chars: a.chars, lines: a.lines };
      },
      attachmentTable: async (id) => {
        const a = await store.attachmentOfThread({ id, threadId });
        if (!a) return undefined;
        const meta = await ensureTable(files, { sha256: a.sha256, name: a.name, mime: a.mime, kind: a.kind });
        return meta
          ? { name: a.name, db: files.tablePaths(a.sha256).db, meta, queryMs: config.HEARTH_TABLE_QUERY_MS }
          : { name: a.name, db: null, meta: null };
      },
      searchConversations: async ({ query, limit, excludeThreadId }) => {
        const search = (anyWord: boolean) =>
          searchLibrary(store, { query, limit, now: now(), anyWord, snippetChars: EXCERPT_CHARS, filters: { excludeThreadId } });
        // All words first; a model's query often carries words the conversation did not use.
        const hits = await search(false);
        const found = hits.length ? hits : await search(true);
        return Promise.all(
          found.map(async (hit): Promise<ConversationHit> => {
            const other = hit.turnId
              ? (await store.exchangeOf({ turnId: hit.turnId })).find((m) => m.role !== hit.role)?.content.slice(0, EXCERPT_CHARS)
              : undefined;
            return {
              threadId: hit.threadId,
              title: hit.threadTitle,
              role: hit.role,
              excerpt: hit.snippet,
              createdAt: hit.createdAt,
              other,
            };
          }),
        );
      },
    }),
  });
}
