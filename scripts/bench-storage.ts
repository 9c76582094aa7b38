/**
 * Bytes stored per byte of conversation text, for `npm run bench`: 30 turns in one thread
 * against the double, answers of realistic length (about 1,200 characters, streamed word by
 * word), a third of them after a web search. Stored bytes are what the turns added to the bytes
 * in use in SQLite's pages, every table and index (dbstat), the search index included; counting
 * whole pages would also count the empty space of a small library's half-filled last pages.
 */
import path from 'node:path';
import { openDatabase } from '../db/client';
import { createStore } from '../db/store';
import { persona } from '../e2e/double/persona';
import { startLlamaDouble, type DoubleRequest } from '../e2e/double/llama-double';
import { startSearxDouble } from '../e2e/double/searxng-double';
import { parseConfig } from '../lib/shared/config';
import { buildRuntime } from '../lib/services/runtime';
import { makeTempDir } from '../lib/dev/testing/temp-dir';

const SENTENCES = [
  'The short answer is that it depends on the season and on how much time you have.',
  'Most people start with the simplest version and adjust it after a week or two.',
  'A good rule of thumb is to keep notes, so you can compare what worked and what did not.',
  'If you want something quicker, there is a shortcut, but it costs a little flavour.',
  'The numbers vary from one source to another, so treat them as a range rather than a fact.',
];

function longAnswer(i: number): string {
  const parts: string[] = [];
  for (let n = 0; parts.join(' ').length < 1200; n++) parts.push(SENTENCES[(i + n) % SENTENCES.length]);
  return parts.join(' ');
}

export async function measureStorage(turns = 30) {
  const searx = await startSearxDouble();
  const double = await startLlamaDouble({
    slots: 2,
    script: (req: DoubleRequest, i: number) => {
      if (req.schema) return persona(req);
      const searched = req.messages.some((m) => m.role === 'tool');
      const last = String(req.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
      if (/prices today/.test(last) && !searched && req.toolChoice !== 'none')
        return { toolCalls: [{ name: 'web_search', arguments: { query: 'prices today' } }] };
      return { content: longAnswer(i) };
    },
  });
  const dir = makeTempDir('hearth-bench');
  const store = createStore(openDatabase(path.join(dir, 'hearth.db')));
  const rt = await buildRuntime(
    parseConfig({ LLAMA_URL: double.url, SEARXNG_URL: searx.url, DATA_DIR: dir, HEARTH_TIMEZONE: 'UTC' }),
    store,
  );
  await rt.models.ready();
  const used = () =>
    sqlite.prepare('SELECT name, SUM(pgsize - unused) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as {
      name: string;
      bytes: number;
    }[];
  const sqlite = store.db.$client;
  const empty = new Map(used().map((t) => [t.name, t.bytes]));
  const thread = await store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
  // Per turn: rows SQLite changed (total_changes) and pages the database grew by.
  const changes = () => (sqlite.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  const size = () => (sqlite.pragma('page_count', { simple: true }) as number) * (sqlite.pragma('page_size', { simple: true }) as number);
  const writesPerTurn: number[] = [];
  const bytesPerTurn: number[] = [];
  for (let i = 0; i < turns; i++) {
    const [c0, s0] = [changes(), size()];
    const content =
      i % 3 === 0
        ? `What are the vegetable prices today at the market, number ${i}?`
        : `Tell me more about growing tomatoes, part ${i}, with some detail.`;
    const { turnId } = await rt.turns.start({ threadId: thread.id, content });
    await rt.turns.follow(turnId);
    await rt.turns.backgroundIdle(); // the thread's title, written after its first exchange
    writesPerTurn.push(changes() - c0);
    bytesPerTurn.push(size() - s0);
  }
  const text = (sqlite.prepare('SELECT SUM(length(CAST(content AS BLOB))) n FROM messages').get() as { n: number }).n;
  // What the turns added: bytes in use in every table's and index's pages, over the empty database.
  const tables = used()
    .map((t) => ({ name: t.name, bytes: t.bytes - (empty.get(t.name) ?? 0) }))
    .filter((t) => t.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const stored = tables.reduce((n, t) => n + t.bytes, 0);
  rt.models.close();
  await double.close();
  await searx.close();
  return { turns, textBytes: text, storedBytes: stored, perByte: stored / text, tables, writesPerTurn, bytesPerTurn };
}
