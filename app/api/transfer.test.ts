import assert from 'node:assert/strict';
import fs from 'node:fs';
import JSZip from 'jszip';
import sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { FileStore, type FileKind } from '@/lib/data/file-store';
import type { ToolServersView } from '@/lib/contract/responses';
import { setRuntime, type Runtime } from '@/lib/services/runtime';
import { threadView } from '@/lib/services/threads';
import { derivedId } from '@/lib/services/library/foreign';
import { FORGED, forgedRunningTurn } from '@/lib/dev/testing/forged-library';
import { tinyDocx } from '@/lib/dev/testing/docx';
import { tinyPdf } from '@/lib/dev/testing/pdf';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { xlsxBytes } from '@/lib/dev/testing/sheets';
import * as attachmentsRoute from './attachments/route';
import * as collectionFilesRoute from './collections/[id]/files/route';
import * as collectionRoute from './collections/[id]/route';
import * as collectionsRoute from './collections/route';
import * as exportRoute from './export/route';
import { base, makeRuntime, newThread, params, req, send } from './harness';
import * as importRoute from './import/route';
import * as memoriesRoute from './memories/route';
import * as searchRoute from './search/route';
import * as proposalsRoute from './settings/proposals/route';
import * as settingsRoute from './settings/route';
import * as messagesRoute from './threads/[id]/messages/route';
import * as threadExportRoute from './threads/[id]/export/route';
import * as threadRoute from './threads/[id]/route';
import * as toolServerProposalsRoute from './tool-servers/proposals/route';
import * as toolServersRoute from './tool-servers/route';
import { storedRowsOf } from '@/lib/dev/testing/store';
import type { Tables } from '@/db/engine';

const filePath = (dir: string, sha256: string) => new FileStore(dir).pathOf(sha256);
const filesDir = (dataDir: string) => FileStore.of(dataDir).root;
const textPath = (dir: string, file: { sha256: string; kind: FileKind }) => new FileStore(dir).textPathOf(file);

/**
 * Moving a library: GET /api/export writes it all as one file, POST /api/import takes it (or one
 * thread's JSON) back, all or nothing, and a second import changes nothing.
 */

let double: LlamaDouble;
let searx: SearxDouble;
before(async () => {
  double = await startLlamaDouble();
  searx = await startSearxDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
  await searx.close();
});

const runtime = () => makeRuntime({ llamaUrl: double.url, searxUrl: searx.url });

async function upload(name: string, bytes: string | Uint8Array, type = 'text/plain'): Promise<string> {
  const form = new FormData();
  form.set('file', new File([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], name, { type }));
  const res = await attachmentsRoute.POST(new Request(`${base}/api/attachments`, { method: 'POST', body: form }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}

async function sendWith(threadId: string, content: string, attachmentIds: string[]) {
  const res = await messagesRoute.POST(
    req('POST', `/api/threads/${threadId}/messages`, { content, attachmentIds }),
    params({ id: threadId }),
  );
  assert.equal(res.status, 200);
  await res.text();
  for (const library of (await (await import('@/lib/services/runtime')).getRuntime()).libraries()) await library.turns.backgroundIdle();
}

async function exportText(): Promise<string> {
  const res = await exportRoute.GET(req('GET', '/api/export'));
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
  assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="hearth-library-\d{4}-\d{2}-\d{2}\.jsonl"/);
  return res.text();
}

async function importBody(body: string | Uint8Array) {
  const res = await importRoute.POST(
    new Request(`${base}/api/import`, {
      method: 'POST',
      body: typeof body === 'string' ? body : Buffer.from(body),
      headers: { 'Content-Type': 'application/x-ndjson' },
    }),
  );
  return { status: res.status, body: await res.json() };
}

const views = async (rt: Runtime) => {
  const out = [];
  for (const id of await rt.store.libraryThreadIds()) out.push(await threadView(rt.store, rt.turns, id));
  return out.sort((a, b) => a.id.localeCompare(b.id));
};

/** Everything a library holds, row by row (search index and autoincrement numbers aside). */
async function dump(rt: Runtime) {
  const rows = (table: keyof Tables, sql: string) => storedRowsOf(rt.store, table, sql);
  return {
    threads: await rows(
      'threads',
      'SELECT id, title, title_source, system_prompt, pinned, current_leaf_id, created_at, updated_at FROM threads ORDER BY id',
    ),
    messages: await rows(
      'messages',
      'SELECT id, thread_id, turn_id, parent_id, role, content, status, error_code, context_block, created_at FROM messages ORDER BY id',
    ),
    turns: (await rows('turns', 'SELECT * FROM turns ORDER BY id')).map((t) => ({
      ...t,
      events: String((t as { events: string | null }).events).replace(/"decision":\d+/g, '"decision":N'),
    })),
    toolCalls: await rows('toolCalls', 'SELECT * FROM tool_calls ORDER BY id'),
    attachments: await rows(
      'attachments',
      'SELECT id, message_id, name, mime, size, sha256, text, kind, chars, lines, created_at FROM attachments ORDER BY id',
    ),
    memories: await rows('memories', 'SELECT * FROM memories ORDER BY id'),
    decisions: await rows(
      'decisionRecords',
      'SELECT layer_id, scope, scope_key, turn_id, thread_id, step_id, at, model_id, source, answers FROM decision_records ORDER BY turn_id, step_id, at',
    ),
  };
}

const fileOf = async (rt: Runtime, name: string) =>
  (
    await storedRowsOf<{ sha256: string; kind: 'text' | 'pdf' | 'docx' }>(
      rt.store,
      'attachments',
      'SELECT sha256, kind FROM attachments WHERE name = ?',
      name,
    )
  )[0];

/** A library with what a year of use leaves: tools, set-aside drafts, a calculation, decisions, files, facts, names. */
async function fillLibrary(rt: Runtime) {
  const a = await newThread();
  await send(a, 'What is the price of bitcoin today?'); // deferral set aside, web search, decisions
  await send(a, 'What is 12.5 * 4?'); // a calculation
  const b = await newThread();
  const log = Array.from({ length: 30_000 }, (_, i) => `2026-11-30 line ${i + 1} ${i % 7 === 0 ? 'ERROR disk full' : 'INFO ok'}`).join(
    '\n',
  );
  await sendWith(b, 'Here is my server log and an invoice, what do you make of the attached file?', [
    await upload('server.log', log),
    await upload('invoice.pdf', tinyPdf('Invoice total 99 EUR'), 'application/pdf'),
  ]);
  assert.equal(
    (await threadRoute.PATCH(req('PATCH', `/api/threads/${b}`, { title: 'Server log review', pinned: true }), params({ id: b }))).status,
    200,
  );
  const c = await newThread();
  await send(c, 'Remember that I keep bees on the roof');
  assert.equal((await memoriesRoute.POST(req('POST', '/api/memories', { text: 'I live in Lyon' }))).status, 201);
  return { a, b, c, logSha: (await fileOf(rt, 'server.log')).sha256 };
}

describe('export and import', () => {
  test('a library exported and imported into an empty data folder gives every thread view back, files and facts too; importing again changes nothing', async () => {
    const source = await runtime();
    const { logSha } = await fillLibrary(source);
    const before = await views(source);
    assert.ok(
      before.some((v) => v.messages.some((m) => m.setAside.length > 0)),
      'the library has a set-aside draft',
    );
    assert.ok(
      before.some((v) => v.messages.some((m) => m.calculation)),
      'and a calculation',
    );
    assert.ok(
      before.some((v) => v.messages.some((m) => m.toolCalls.length > 0)),
      'and tool calls',
    );
    const file = await exportText();
    const lines = file
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; records?: number });
    assert.equal(lines[0].type, 'hearth-library');
    assert.deepEqual(lines.at(-1), { type: 'end', records: lines.length - 2 });
    const sourceDump = await dump(source);

    const target = await runtime();
    const first = await importBody(file);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.added.threads, 3);
    assert.equal(first.body.added.files, 3, 'the log, the PDF and its extracted text');
    assert.deepEqual(await views(target), before, 'every thread view is the same');
    assert.deepEqual(await dump(target), sourceDump, 'every row is the same');
    const dir = (rt: Runtime) => filesDir(rt.config.DATA_DIR);
    assert.ok(
      fs.readFileSync(filePath(dir(target), logSha)).equals(fs.readFileSync(filePath(dir(source), logSha))),
      'the log file, byte for byte',
    );
    const pdf = await fileOf(target, 'invoice.pdf');
    assert.match(fs.readFileSync(textPath(dir(target), pdf), 'utf8'), /Invoice total 99 EUR/);
    // The search index took the imported rows in (its triggers ran).
    const found = await (await searchRoute.GET(req('GET', '/api/search?q=bitcoin'))).json();
    assert.ok(found.results.length > 0, 'imported messages are found');

    const again = await importBody(file);
    assert.equal(again.status, 200);
    assert.ok(
      Object.values(again.body.added as Record<string, number>).every((n) => n === 0),
      JSON.stringify(again.body),
    );
    assert.equal(again.body.alreadyHere.threads, 3);
    assert.deepEqual(await dump(target), sourceDump, 'importing twice changed nothing');
  });

  test('every kind of file travels whole: text, PDF, Word, spreadsheet and image, each original and each extracted text byte for byte', async () => {
    const source = await runtime();
    const t = await newThread();
    const sheet = await xlsxBytes([
      {
        name: 'March',
        rows: [
          ['Item', 'Amount'],
          ['Tea', 3.5],
          ['Cake', 4.25],
        ],
      },
    ]);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const uploads: [string, string | Uint8Array, string][] = [
      ['notes.txt', 'plain words', 'text/plain'],
      ['invoice.pdf', tinyPdf('Invoice total 12 EUR'), 'application/pdf'],
      ['minutes.docx', tinyDocx('Minutes: ship on Friday'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['march.xlsx', sheet, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['red.png', png, 'image/png'],
    ];
    const ids = [];
    for (const [name, bytes, type] of uploads) ids.push(await upload(name, bytes, type));
    await sendWith(t, 'Here are five files', ids);
    const rowsOf = (rt: Runtime) =>
      storedRowsOf<{ name: string; sha256: string; kind: FileKind }>(
        rt.store,
        'attachments',
        'SELECT name, sha256, kind, size, chars, lines, width, height, mime FROM attachments ORDER BY name',
      );
    const kept = await rowsOf(source);
    assert.deepEqual(
      kept.map((r) => [r.name, r.kind]),
      [
        ['invoice.pdf', 'pdf'],
        ['march.xlsx', 'sheet'],
        ['minutes.docx', 'docx'],
        ['notes.txt', 'text'],
        ['red.png', 'image'],
      ],
    );
    const file = await exportText();
    const target = await runtime();
    const res = await importBody(file);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Five originals and the text of the PDF, the Word file and the spreadsheet.
    assert.equal(res.body.added.files, 8);
    assert.deepEqual(await rowsOf(target), kept, 'every attachment row, its kind, size, counts and dimensions');
    const dir = (rt: Runtime) => filesDir(rt.config.DATA_DIR);
    for (const r of kept) {
      assert.ok(fs.readFileSync(filePath(dir(target), r.sha256)).equals(fs.readFileSync(filePath(dir(source), r.sha256))), r.name);
      if (r.kind === 'pdf' || r.kind === 'docx' || r.kind === 'sheet') {
        assert.equal(
          fs.readFileSync(textPath(dir(target), r), 'utf8'),
          fs.readFileSync(textPath(dir(source), r), 'utf8'),
          `${r.name} text`,
        );
      }
    }
  });

  test('knowledge collections travel with their files and the threads that chose them, and are indexed again where imported', async () => {
    const source = await runtime();
    const created = await collectionsRoute.POST(req('POST', '/api/collections', { name: 'Manuals', everyThread: false }));
    assert.equal(created.status, 201);
    const collection = (await created.json()).id as string;
    const form = new FormData();
    form.set('file', new File(['The heat pump warranty lasts seven years.'], 'heat-pump.md', { type: 'text/markdown' }));
    const added = await collectionFilesRoute.POST(
      new Request(`${base}/api/collections/${collection}/files`, { method: 'POST', body: form }),
      params({ id: collection }),
    );
    assert.equal(added.status, 201, await added.clone().text());
    await source.knowledge.indexer.settled();
    const t = await newThread();
    assert.equal(
      (await threadRoute.PATCH(req('PATCH', `/api/threads/${t}`, { collectionIds: [collection] }), params({ id: t }))).status,
      200,
    );
    const file = await exportText();
    assert.ok(file.includes('"type":"collection_file"'), 'the file names its collections');

    const target = await runtime();
    const res = await importBody(file);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.added.collections, res.body.added.collectionFiles], [1, 1]);
    await target.knowledge.indexer.settled();
    const detail = await (await collectionRoute.GET(req('GET', `/api/collections/${collection}`), params({ id: collection }))).json();
    assert.equal(detail.name, 'Manuals');
    assert.deepEqual(
      detail.fileList.map((f: { name: string; status: string }) => [f.name, f.status]),
      [['heat-pump.md', 'ready']],
    );
    assert.ok(detail.chunks > 0, 'cut into passages here');
    assert.deepEqual(await target.store.threadCollectionIds({ threadId: t }), [collection], 'the thread still chose it');
    const again = await importBody(file);
    assert.deepEqual([again.body.added.collections, again.body.added.collectionFiles, again.body.alreadyHere.collectionFiles], [0, 0, 1]);
  });

  test("one thread's JSON export imports too: its messages, tool calls, decisions, set-aside drafts and calculation", async () => {
    const source = await runtime();
    const { a } = await fillLibrary(source);
    const json = await (await threadExportRoute.GET(req('GET', `/x?format=json`), params({ id: a }))).text();
    const view = await threadView(source.store, source.turns, a);
    const target = await runtime();
    const res = await importBody(json);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.source, 'thread');
    assert.deepEqual(await threadView(target.store, target.turns, a), view);
    assert.ok(
      Object.values((await importBody(json)).body.added as Record<string, number>).every((n) => n === 0),
      'twice changes nothing',
    );
  });

  test('a broken, cut-off or foreign file is a 400 that names what is wrong, and nothing is half-imported', async () => {
    const source = await runtime();
    await fillLibrary(source);
    const file = await exportText();
    const lines = file.trimEnd().split('\n');
    const target = await runtime();
    await newThread(); // something already here, which must stay as it is
    const here = await dump(target);
    const refused = async (body: string, why: RegExp, status = 400) => {
      const res = await importBody(body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.error.code, status === 400 ? 'bad_request' : res.body.error.code);
      assert.match(res.body.error.message, why);
      assert.deepEqual(await dump(target), here, `nothing imported: ${res.body.error.message}`);
      assert.deepEqual(
        fs.readdirSync(filesDir(target.config.DATA_DIR)).filter((f) => f !== 'tmp'),
        [],
        'no file placed',
      );
      assert.deepEqual(fs.readdirSync(`${filesDir(target.config.DATA_DIR)}/tmp`), [], 'no temporary file left');
    };
    fs.mkdirSync(`${filesDir(target.config.DATA_DIR)}/tmp`, { recursive: true });
    // Cut off half-way (a download that stopped), and cut at a line end.
    await refused(file.slice(0, Math.floor(file.length / 2)), /cut off|not JSON/);
    await refused(lines.slice(0, -1).join('\n'), /without its closing line: it was cut off/);
    // A record of the wrong shape: the line and the field are named.
    const at = lines.findIndex((l) => l.includes('"type":"message"'));
    await refused(
      lines
        .map((l, i) => (i === at ? l.replace('"role":"user"', '"role":"robot"').replace('"role":"assistant"', '"role":"robot"') : l))
        .join('\n'),
      new RegExp(`line ${at + 1} \\(message\\): its "role"`),
    );
    // A file's bytes changed.
    const chunk = lines.findIndex((l) => l.includes('"type":"file"'));
    const tampered = JSON.parse(lines[chunk]);
    tampered.data = Buffer.from('not the same bytes').toString('base64');
    await refused(lines.map((l, i) => (i === chunk ? JSON.stringify(tampered) : l)).join('\n'), /does not match its SHA-256/);
    // A message whose thread is nowhere.
    const orphan = JSON.parse(lines[at]);
    orphan.threadId = '00000000-0000-4000-8000-000000000000';
    await refused(
      lines.map((l, i) => (i === at ? JSON.stringify(orphan) : l)).join('\n'),
      /refers to thread 00000000-0000-4000-8000-000000000000, which is neither in the file nor in this library/,
    );
    // A newer version, another app's export, not JSON at all, nothing.
    await refused([lines[0].replace('"version":1', '"version":9'), ...lines.slice(1)].join('\n'), /version 9; this Hearth reads version 1/);
    await refused(
      JSON.stringify([{ title: 'A chat', turns: [{ role: 'user', text: 'hi' }] }]),
      /none of the files Hearth imports .*Hearth imports a Hearth library file .*, a Hearth thread's JSON export, ChatGPT's conversations\.json .*, Open WebUI's chat export, LibreChat's conversation export \(JSON\), or llama\.cpp's web page's conversations export \(a \.jsonl, or its \.zip of several\)\.$/,
    );
    await refused('%PDF-1.4 binary', /not JSON, so it is none of the files Hearth imports: a Hearth library file/);
    await refused('', /empty/);
    // A first line that is not as Hearth writes it: what the file is, and what Hearth expected there.
    await refused(
      [lines[0].replace(/,"exportedAt":\d+/, ''), ...lines.slice(1)].join('\n'),
      /^This is a Hearth library file, but its first line is not as Hearth writes it \(its "exportedAt" .+\)\. Hearth expects \{"type":"hearth-library","version":1,"exportedAt":<milliseconds since 1970>\} there/,
    );
    // A setting no Hearth would save.
    const setting = JSON.stringify({ type: 'setting', key: 'turnFuel', value: -5, updatedAt: 1 });
    await refused(
      [lines[0], setting, ...lines.slice(1, -1), JSON.stringify({ type: 'end', records: JSON.parse(lines.at(-1)!).records + 1 })].join(
        '\n',
      ),
      /^This Hearth library file could not be imported, and nothing was changed: line 2 \(setting\): the setting turnFuel: /,
    );
  });

  test("the settings made in the Settings page and the browser's theme travel with the library; what is set here already stays", async () => {
    const source = await runtime();
    const patched = await settingsRoute.PATCH(
      req('PATCH', '/api/settings', { assistantName: 'Ember', defaultInstructions: 'Answer in French.', disabledTools: ['web_search'] }),
    );
    assert.equal(patched.status, 200);
    await newThread();
    const exported = await exportRoute.GET(new Request(`${base}/api/export`, { headers: { cookie: 'hearth-theme=dark' } }));
    const file = await exported.text();
    assert.ok(source.settings.current().assistantName === 'Ember');

    const fresh = await runtime();
    assert.equal(fresh.settings.current().assistantName, 'Hearth');
    const res = await importRoute.POST(
      new Request(`${base}/api/import`, { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } }),
    );
    assert.equal(res.status, 200);
    const summary = await res.json();
    // The name is applied; the instructions and the tools only proposed, waiting for the owner.
    assert.equal(summary.added.settings, 1);
    assert.deepEqual(summary.proposed, ['defaultInstructions', 'disabledTools']);
    assert.equal(summary.theme, 'dark', 'this browser had chosen no theme');
    assert.match(res.headers.get('set-cookie') ?? '', /^hearth-theme=dark; Path=\/; Max-Age=31536000; SameSite=Strict$/);
    let now = fresh.settings.current();
    assert.deepEqual([now.assistantName, now.defaultInstructions, now.disabledTools], ['Ember', '', []]);
    const view = await (await settingsRoute.GET(req('GET', '/api/settings'))).json();
    assert.deepEqual(
      view.proposals.map((p: { key: string; value: unknown }) => [p.key, p.value]),
      [
        ['defaultInstructions', 'Answer in French.'],
        ['disabledTools', ['web_search']],
      ],
    );
    // The owner applies one and dismisses the other: only then is it in force.
    const decided = await proposalsRoute.POST(
      req('POST', '/api/settings/proposals', { apply: ['defaultInstructions'], dismiss: ['disabledTools'] }),
    );
    assert.equal(decided.status, 200, await decided.clone().text());
    assert.deepEqual((await decided.json()).proposals, []);
    now = fresh.settings.current();
    assert.deepEqual([now.defaultInstructions, now.disabledTools], ['Answer in French.', []]);
    const gone = await proposalsRoute.POST(req('POST', '/api/settings/proposals', { apply: ['disabledTools'] }));
    assert.equal(gone.status, 404);
    assert.match((await gone.json()).error.message, /No imported value waits for disabledTools/);

    // Again, from a browser with its own theme: nothing changes, the theme chosen here stays, and
    // a value already in force is proposed to no one.
    const again = await importRoute.POST(
      new Request(`${base}/api/import`, {
        method: 'POST',
        body: file,
        headers: { 'Content-Type': 'application/x-ndjson', cookie: 'hearth-theme=light' },
      }),
    );
    const twice = await again.json();
    assert.deepEqual([twice.added.settings, twice.alreadyHere.settings, twice.theme], [0, 1, undefined]);
    assert.deepEqual(twice.proposed, ['disabledTools']);
    assert.equal(again.headers.get('set-cookie'), null);

    // A Hearth with its own name keeps it; the settings it has not made come from the file.
    const mine = await runtime();
    await settingsRoute.PATCH(req('PATCH', '/api/settings', { assistantName: 'Mine' }));
    const third = await importBody(file);
    assert.deepEqual([mine.settings.current().assistantName, mine.settings.current().defaultInstructions], ['Mine', '']);
    assert.deepEqual(third.body.proposed, ['defaultInstructions', 'disabledTools']);
  });
});

describe("other apps' exports", () => {
  /** conversations.json as ChatGPT's data export writes it: a mapping tree, a regenerated answer, a browsing call, hidden nodes. */
  const chatgptExport = () => {
    const msg = (id: string, role: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({
      id,
      author: { role, name: null, metadata: {} },
      create_time: 1700000000 + Number(id.replace(/\D/g, '') || 0),
      content: { content_type: 'text', parts },
      status: 'finished_successfully',
      end_turn: true,
      weight: 1,
      metadata: {},
      recipient: 'all',
      ...extra,
    });
    return [
      {
        title: 'Packing for Bergen',
        create_time: 1700000000.25,
        update_time: 1700000900.5,
        conversation_id: '6790c2a1-0000-8000-9000-00000000c0de',
        current_node: 'n6',
        mapping: {
          root: { id: 'root', message: null, parent: null, children: ['n0'] },
          n0: {
            id: 'n0',
            message: msg('n0', 'system', [''], { metadata: { is_visually_hidden_from_conversation: true } }),
            parent: 'root',
            children: ['n1'],
          },
          n1: {
            id: 'n1',
            message: msg('n1', 'user', [
              'What should I pack for Bergen?',
              { content_type: 'image_asset_pointer', asset_pointer: 'file-service://x' },
            ]),
            parent: 'n0',
            children: ['n2', 'n3'],
          },
          n2: { id: 'n2', message: msg('n2', 'assistant', ['Pack a raincoat.']), parent: 'n1', children: [] },
          n3: {
            id: 'n3',
            message: msg('n3', 'assistant', ['search("Bergen weather")'], {
              recipient: 'browser',
              content: { content_type: 'code', text: 'search("Bergen weather")' },
            }),
            parent: 'n1',
            children: ['n4'],
          },
          n4: {
            id: 'n4',
            message: msg('n4', 'tool', [], {
              author: { role: 'tool', name: 'browser', metadata: {} },
              content: { content_type: 'tether_browsing_display', result: 'Bergen this week: rain, 12 °C' },
            }),
            parent: 'n3',
            children: ['n6'],
          },
          n6: {
            id: 'n6',
            message: msg('n6', 'assistant', ['Rain all week (12 °C): pack a raincoat and boots.'], { metadata: { model_slug: 'gpt-4o' } }),
            parent: 'n4',
            children: [],
          },
        },
      },
    ];
  };

  test("node ids that are the names of an object's own properties import like any other; a circle of parents and deep nesting are refused by name", async () => {
    const rt = await runtime();
    const node = (id: string, role: string, text: string, parent: string | null, children: string[]) => ({
      id,
      message: { id, author: { role }, create_time: 1700000000, content: { content_type: 'text', parts: [text] } },
      parent,
      children,
    });
    const conversation = (mapping: Record<string, unknown>, current: string, id: string) => ({
      title: `Ids ${id}`,
      create_time: 1700000000,
      conversation_id: id,
      current_node: current,
      mapping,
    });
    // Built as JSON text, so that "__proto__" is a key of its own, as JSON.parse reads a file.
    const ids = `{"constructor": ${JSON.stringify(node('constructor', 'user', 'First question', 'toString', ['__proto__']))},
      "__proto__": ${JSON.stringify(node('__proto__', 'assistant', 'First answer', 'constructor', ['hasOwnProperty']))},
      "hasOwnProperty": ${JSON.stringify(node('hasOwnProperty', 'user', 'Second question', '__proto__', []))}}`;
    const file = `[${JSON.stringify(conversation({}, 'hasOwnProperty', 'c-ids')).replace('"mapping":{}', `"mapping":${ids}`)}]`;
    const res = await importBody(file);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.added.messages, 3, 'every message, whatever its id');
    const view = await threadView(rt.store, rt.turns, derivedId('chatgpt', 'c-ids'));
    assert.deepEqual(
      view?.messages.map((m) => m.content),
      ['First question', 'First answer', 'Second question'],
    );

    const circle = conversation({ a: node('a', 'user', 'Q', 'b', ['b']), b: node('b', 'assistant', 'A', 'a', ['a']) }, 'b', 'c-circle');
    const refused = await importBody(JSON.stringify([circle]));
    assert.equal(refused.status, 400);
    assert.match(
      refused.body.error.message,
      /"Ids c-circle" cannot be imported, and nothing was changed: its messages' parents go round in a circle/,
    );

    const deep = `[{"title":"x","mapping":{},"current_node":null,"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`;
    const tooDeep = await importBody(deep);
    assert.equal(tooDeep.status, 400, JSON.stringify(tooDeep.body));
    assert.match(tooDeep.body.error.message, /entry 1: it nests deeper than 200 levels/);
    await assert.rejects(
      () => threadView(rt.store, rt.turns, derivedId('chatgpt', 'c-circle')),
      /There is no thread/,
      'nothing of the refused files',
    );
  });

  test("ChatGPT's conversations.json: every branch kept, the one ChatGPT showed shown, browsing output as the answer's tool call; twice changes nothing", async () => {
    const rt = await runtime();
    const file = JSON.stringify(chatgptExport());
    const first = await importBody(file);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.source, 'chatgpt');
    assert.deepEqual([first.body.added.threads, first.body.added.messages, first.body.added.toolCalls], [1, 3, 1]);
    const [view] = await views(rt);
    assert.equal(view.title, 'Packing for Bergen');
    assert.equal(view.createdAt, 1700000000250);
    assert.deepEqual(
      view.messages.map((m) => `${m.role}: ${m.content}`),
      ['user: What should I pack for Bergen?\n[image]', 'assistant: Rain all week (12 °C): pack a raincoat and boots.'],
      'the branch ChatGPT showed; the hidden system node left out; the image named',
    );
    const answer = view.messages[1];
    assert.equal(answer.branch?.ids.length, 2, 'the regenerated answer is kept beside it');
    assert.equal(answer.branch?.index, 1);
    assert.deepEqual(answer.branch?.models, [null, 'gpt-4o'], "the model ChatGPT's metadata names, where it names one");
    assert.deepEqual(
      answer.toolCalls.map((c) => [c.name, c.result]),
      [['browser', 'Bergen this week: rain, 12 °C']],
    );
    const again = await importBody(file);
    assert.equal(again.status, 200);
    assert.deepEqual(
      Object.values(again.body.added),
      Object.values(again.body.added).map(() => 0),
      'nothing added the second time',
    );
    assert.equal(again.body.alreadyHere.messages, 3);
    // Broken: the line names the conversation and the field.
    const broken = chatgptExport();
    (broken[0] as { mapping: unknown }).mapping = { n1: { id: 'n1', message: { id: 'n1', author: {}, content: {} } } };
    const refused = await importBody(JSON.stringify(broken));
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /^ChatGPT's conversations\.json, conversation 1: its "mapping\.n1\.message\.author\.role" /);
  });

  test('a list of conversations is read as it streams: pretty-printed or with a BOM it imports; cut off, with a bad later entry, or empty it is refused whole', async () => {
    const rt = await runtime();
    const here = await dump(rt);
    const second = { ...chatgptExport()[0], conversation_id: '6790c2a1-0000-8000-9000-00000000beef', title: 'Second' };
    const two = [chatgptExport()[0], second];
    const refused = async (body: string, why: RegExp) => {
      const res = await importBody(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error.message, why);
      assert.deepEqual(await dump(rt), here, 'nothing imported');
      assert.deepEqual(fs.readdirSync(`${filesDir(rt.config.DATA_DIR)}/tmp`), [], 'no temporary file left');
    };
    const text = JSON.stringify(two);
    await refused(
      text.slice(0, text.length - 40),
      /^ChatGPT's conversations\.json could not be imported, and nothing was changed: it ends inside its list, after 1 whole entries: it was cut off/,
    );
    const bad = structuredClone(two);
    (bad[1] as { mapping: unknown }).mapping = 'none';
    await refused(JSON.stringify(bad), /^ChatGPT's conversations\.json, conversation 2: its "mapping" /);
    await refused(`${text.slice(0, -1)},]`, /has an empty entry 3 \(a stray comma\)/);
    await refused('[]', /^This JSON list is empty: there is nothing in it to import\.$/);
    await refused('[{"a":1}]', /^This JSON list is none of the files Hearth imports/);
    // A BOM (a file saved on Windows) and pretty-printing change nothing.
    const res = await importBody(`\ufeff${JSON.stringify(two, null, 2)}\n`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.source, res.body.added.threads], ['chatgpt', 2]);
    assert.deepEqual((await views(rt)).map((v) => v.title).sort(), ['Packing for Bergen', 'Second']);
  });

  /** What a test reads of an imported thread: its shown messages as role: text, the answer's versions and calls. */
  const shownOf = async (rt: Runtime) => {
    const [view] = await views(rt);
    return { view, lines: view.messages.map((m) => `${m.role}: ${m.content}`) };
  };

  test("Open WebUI's chat export: its history tree with the branch it showed, files named, times in seconds; twice changes nothing", async () => {
    const rt = await runtime();
    const msg = (id: string, parentId: string | null, childrenIds: string[], role: string, content: string, extra = {}) => ({
      id,
      parentId,
      childrenIds,
      role,
      content,
      timestamp: 1710000000 + Number(id.slice(1)),
      ...(role === 'assistant' ? { model: 'qwen3:4b', done: true } : { models: ['qwen3:4b'] }),
      ...extra,
    });
    const messages = {
      m1: msg('m1', null, ['m2', 'm3'], 'user', 'Summarise this file', { files: [{ type: 'file', name: 'notes.txt' }] }),
      m2: msg('m2', 'm1', [], 'assistant', 'A first summary.'),
      m3: msg('m3', 'm1', ['m4'], 'assistant', 'A better summary.'),
      m4: msg('m4', 'm3', [], 'user', 'Thanks'),
    };
    const file = JSON.stringify([
      {
        id: 'c9d0e1f2-1111-4222-8333-444455556666',
        user_id: 'u1',
        title: 'Summaries',
        chat: {
          id: '',
          title: 'Summaries',
          models: ['qwen3:4b'],
          history: { messages, currentId: 'm4' },
          messages: Object.values(messages),
          tags: [],
          timestamp: 1710000000000,
        },
        updated_at: 1710000600,
        created_at: 1710000000,
        share_id: null,
        archived: false,
        pinned: true,
        meta: {},
        folder_id: null,
      },
    ]);
    const first = await importBody(file);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.source, first.body.added.threads, first.body.added.messages], ['open-webui', 1, 4]);
    const { view, lines } = await shownOf(rt);
    assert.deepEqual(lines, ['user: Summarise this file\n[file: notes.txt]', 'assistant: A better summary.', 'user: Thanks']);
    assert.deepEqual([view.title, view.pinned, view.createdAt, view.updatedAt], ['Summaries', true, 1710000000000, 1710000600000]);
    assert.deepEqual(view.messages[1].branch, {
      index: 1,
      ids: [view.messages[1].branch!.ids[0], view.messages[1].id],
      models: ['qwen3:4b', 'qwen3:4b'],
    });
    assert.equal(view.messages[1].model, 'qwen3:4b', 'each answer keeps the model Open WebUI says wrote it');
    assert.equal((await importBody(file)).body.added.messages, 0);
  });

  test("LibreChat's conversation export: the message tree from parentMessageId, tool calls with their output, the newest branch shown", async () => {
    const rt = await runtime();
    const m = (messageId: string, parentMessageId: string, isCreatedByUser: boolean, text: string, minute: number, extra = {}) => ({
      messageId,
      conversationId: 'lc-1',
      parentMessageId,
      isCreatedByUser,
      sender: isCreatedByUser ? 'User' : 'GPT-4o',
      text,
      createdAt: `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
      updatedAt: `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
      error: false,
      unfinished: false,
      ...extra,
    });
    const file = JSON.stringify({
      conversationId: 'lc-1',
      endpoint: 'openAI',
      title: 'Weather in Lima',
      exportAt: '10:30:00 GMT+0000',
      branches: true,
      recursive: false,
      messages: [
        m('q1', '00000000-0000-0000-0000-000000000000', true, 'Weather in Lima?', 0),
        m('a1', 'q1', false, 'It is sunny.', 1),
        m('a2', 'q1', false, '', 2, {
          content: [
            { type: 'tool_call', tool_call: { id: 'call_1', name: 'web_search', args: '{"q":"Lima"}', output: 'Lima: 24 °C, clear' } },
            { type: 'text', text: 'Lima is clear at 24 °C.' },
          ],
        }),
      ],
    });
    const first = await importBody(file);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.source, 'librechat');
    const { view, lines } = await shownOf(rt);
    assert.deepEqual(lines, ['user: Weather in Lima?', 'assistant: Lima is clear at 24 °C.']);
    assert.equal(view.title, 'Weather in Lima');
    assert.equal(view.messages[1].branch?.ids.length, 2);
    assert.deepEqual(
      view.messages[1].toolCalls.map((c) => [c.name, c.result]),
      [['web_search', 'Lima: 24 °C, clear']],
    );
    assert.equal((await importBody(file)).body.added.messages, 0);
  });

  test("llama.cpp's page: its JSON Lines sessions and its older JSON, with the branch it showed, a tool's result named by its call", async () => {
    const rt = await runtime();
    const conv = { id: 'conv-1', name: 'Primes', lastModified: 1720000009000, currNode: 'm5', pinned: false };
    const messages = [
      { id: 'm0', convId: 'conv-1', type: 'root', timestamp: 1720000000000, role: 'system', content: '', parent: null, children: ['m1'] },
      {
        id: 'm1',
        convId: 'conv-1',
        type: 'text',
        timestamp: 1720000001000,
        role: 'user',
        content: 'Is 97 prime?',
        parent: 'm0',
        children: ['m2'],
        extra: [{ type: 'TEXT', name: 'list.txt', content: '97' }],
      },
      {
        id: 'm2',
        convId: 'conv-1',
        type: 'text',
        timestamp: 1720000002000,
        role: 'assistant',
        content: '',
        parent: 'm1',
        children: ['m3'],
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{}' } }],
      },
      {
        id: 'm3',
        convId: 'conv-1',
        type: 'text',
        timestamp: 1720000003000,
        role: 'tool',
        content: '97 has no divisors',
        parent: 'm2',
        children: ['m4', 'm5'],
        toolCallId: 'c1',
      },
      {
        id: 'm4',
        convId: 'conv-1',
        type: 'text',
        timestamp: 1720000004000,
        role: 'assistant',
        content: 'Yes.',
        parent: 'm3',
        children: [],
      },
      {
        id: 'm5',
        convId: 'conv-1',
        type: 'text',
        timestamp: 1720000005000,
        role: 'assistant',
        content: 'Yes, 97 is prime.',
        parent: 'm3',
        children: [],
        model: 'qwen3',
      },
    ];
    const jsonl = [
      JSON.stringify({ harness: 'llama.app', type: 'session', ...conv }),
      ...messages.map((message) => JSON.stringify({ message, type: 'message' })),
    ].join('\n');
    const first = await importBody(jsonl);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      [first.body.source, first.body.added.threads, first.body.added.messages, first.body.added.toolCalls],
      ['llama.cpp', 1, 3, 2],
    );
    const { view, lines } = await shownOf(rt);
    assert.deepEqual(lines, ['user: Is 97 prime?\n[file: list.txt]', 'assistant: Yes, 97 is prime.']);
    assert.equal(view.title, 'Primes');
    assert.equal(view.messages[1].model, 'qwen3', 'the model the page says wrote the answer');
    assert.deepEqual(
      view.messages[1].toolCalls.map((c) => [c.name, c.result]),
      [['calculator', '97 has no divisors']],
    );
    assert.equal(view.messages[1].branch?.ids.length, 2);
    // The older JSON export of the same conversation is the same conversation: nothing new.
    const legacy = await importBody(JSON.stringify({ conv, messages }));
    assert.deepEqual([legacy.body.source, legacy.body.added.messages, legacy.body.alreadyHere.messages], ['llama.cpp', 0, 3]);
    // A message before any session line is refused with its line.
    const broken = await importBody(`${JSON.stringify({ type: 'session', id: 'x' })}\nnot json`);
    assert.equal(broken.status, 400);
    assert.match(broken.body.error.message, /llama\.cpp's conversation export, line 2: not JSON/);

    // The page's export of several: a zip with one .jsonl per conversation. The one imported
    // above is already here; the second is new; a broken entry is named by its file.
    const other = jsonl.replaceAll('conv-1', 'conv-2').replace('"name":"Primes"', '"name":"Squares"');
    const zip = new JSZip();
    zip.file('2024-07-03T09_46_49_conv_conv-1_primes.jsonl', jsonl);
    zip.file('2024-07-03T09_46_49_conv_conv-2_squares.jsonl', other);
    const zipped = await importBody(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
    assert.equal(zipped.status, 200, JSON.stringify(zipped.body));
    assert.deepEqual(
      [zipped.body.source, zipped.body.added.threads, zipped.body.alreadyHere.threads, zipped.body.added.messages],
      ['llama.cpp', 1, 1, 3],
    );
    assert.deepEqual((await views(rt)).map((v) => v.title).sort(), ['Primes', 'Squares']);
    zip.file('z_broken.jsonl', `${JSON.stringify({ type: 'session', id: 'y' })}\n{oops`);
    const refused = await importBody(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /^llama\.cpp's conversation export, z_broken\.jsonl, line 2: not JSON/);
    const neither = new JSZip();
    neither.file('notes.txt', 'hello');
    const foreign = await importBody(await neither.generateAsync({ type: 'uint8array' }));
    assert.equal(foreign.status, 400);
    assert.match(
      foreign.body.error.message,
      /^This zip holds neither ChatGPT's conversations\.json nor the llama\.cpp page's \.jsonl conversations/,
    );
    const cut = await importBody((await zip.generateAsync({ type: 'uint8array' })).subarray(0, 200));
    assert.equal(cut.status, 400);
    assert.match(cut.body.error.message, /^This zip cannot be read .*: it may be cut off or damaged\.$/);
  });

  test("ChatGPT's data export as it is mailed, a zip: its conversations.json is read, the images beside it left", async () => {
    const rt = await runtime();
    const zip = new JSZip();
    zip.file('conversations.json', JSON.stringify(chatgptExport()));
    zip.file('chat.html', '<html>the same, as a page</html>');
    zip.file('file-abc123.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const res = await importBody(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.source, res.body.added.threads, res.body.added.messages], ['chatgpt', 1, 3]);
    assert.equal((await views(rt))[0].title, 'Packing for Bergen');
  });
});

describe('what a library file or an upload may say of a file', () => {
  const attachmentRoute = () => import('./attachments/[id]/route');

  test('an imported "image" that is really HTML is a download with a safe type, never shown on Hearth\'s origin', async () => {
    await runtime();
    const page = '<html><body><form action="https://evil.example/"><input name=password></form></body></html>';
    const id = await upload('page.html', page, 'text/html');
    const thread = await newThread();
    await sendWith(thread, 'What does the attached page say?', [id]);
    const file = (await exportText())
      .replace(/"type":"attachment"([^\n]*?)"kind":"text"/, '"type":"attachment"$1"kind":"image"')
      .replace(/"mime":"text\/html[^"]*"/, '"mime":"text/html"');
    assert.match(file, /"kind":"image"/);
    await runtime();
    const imported = await importBody(file);
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const { GET } = await attachmentRoute();
    const res = await GET(req('GET', `/api/attachments/${id}`), params({ id }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment;/);
    assert.equal(await res.text(), page);
  });

  test('a real image is shown inline as the type its bytes are', async () => {
    await runtime();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==', 'base64');
    const id = await upload('dot.png', png, 'image/png');
    const { GET } = await attachmentRoute();
    const res = await GET(req('GET', `/api/attachments/${id}`), params({ id }));
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.match(res.headers.get('content-disposition') ?? '', /^inline;/);
  });

  test('a type with a control character or a line break is stored as a plain type (upload) or refused (import); its file still downloads', async () => {
    await runtime();
    const boundary = 'hearthboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\x01\r\n\r\nsome notes\r\n--${boundary}--\r\n`;
    const res = await attachmentsRoute.POST(
      new Request(`${base}/api/attachments`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    const { id, mime } = await res.json();
    assert.equal(mime, 'text/plain');
    const { GET } = await attachmentRoute();
    const got = await GET(req('GET', `/api/attachments/${id}`), params({ id }));
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'text/plain; charset=utf-8');
    const thread = await newThread();
    await sendWith(thread, 'What do the attached notes say?', [id]);
    const file = (await exportText()).replace('"mime":"text/plain"', '"mime":"text/plain\\r\\nX-Evil: 1"');
    await runtime();
    const refused = await importBody(file);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /its "mime" must be a content type/);
  });
});

describe('a library file is data, never work to resume', () => {
  test('a turn the file says is running is stored as interrupted, its steps are not imported, and a start resumes nothing', async () => {
    const rt = await runtime();
    const res = await importBody(forgedRunningTurn('calculator', { expression: '6*7' }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.added.turns, 1);
    assert.deepEqual(
      res.body.skipped.map((s: { what: string; count: number }) => [s.what, s.count]),
      [['steps of how turns ran', 2]],
    );
    assert.deepEqual(await rt.store.unfinishedTurns(), [], 'nothing is waiting or running');
    assert.deepEqual(await rt.store.stepsOf({ turnId: FORGED.turn }), [], 'no step of the file is stored');
    assert.deepEqual(await rt.turns.resumeUnfinished(), { resumed: [], interrupted: [] });
    assert.equal((await rt.store.getTurn({ id: FORGED.turn }))?.status, 'interrupted');
    assert.equal((await rt.store.getMessage({ id: FORGED.answer }))?.status, 'interrupted');
  });
});

describe('tool servers in the library file', () => {
  test('they travel with every secret masked, come in only as proposals, and are added one by one (a program only with a password)', async () => {
    const dataDir = makeTempDir('hearth-mcp-export');
    fs.writeFileSync(
      `${dataDir}/mcp.json`,
      JSON.stringify({
        mcpServers: {
          // Switched off: nothing connects while the test runs, and it travels all the same.
          home: {
            url: 'http://127.0.0.1:9/mcp?key=k-1234567',
            headers: { Authorization: 'Bearer sk-home-123456789' },
            hearth: { disabled: true },
          },
          notes: { command: 'hearth-no-such-command', args: ['--token', 'tok-123456'], env: { NOTES_SECRET: 'hunter2hunter2' } },
        },
      }),
    );
    const source = await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', dataDir });
    const file = await exportText();
    await source.toolServers.close();
    for (const secret of ['k-1234567', 'sk-home-123456789', 'tok-123456', 'hunter2hunter2']) assert.ok(!file.includes(secret), secret);
    assert.equal(file.match(/"type":"tool_server"/g)?.length, 2);

    const target = await runtime();
    const res = await importBody(file);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.proposedToolServers, ['home', 'notes']);
    const listed = async () => (await (await toolServersRoute.GET(req('GET', '/api/tool-servers'))).json()) as ToolServersView;
    assert.deepEqual((await listed()).servers, [], 'nothing is added by the import');
    assert.deepEqual(
      (await listed()).proposals.map((p) => p.name),
      ['home', 'notes'],
    );
    const decide = (action: object) => toolServerProposalsRoute.POST(req('POST', '/api/tool-servers/proposals', action));
    const refused = await decide({ apply: ['notes'] });
    assert.equal(refused.status, 403, 'a program is not added from the page without a password');
    const added = await decide({ apply: ['home'] });
    assert.equal(added.status, 200, await added.clone().text());
    const view = (await added.json()) as ToolServersView;
    assert.deepEqual(
      view.servers.map((s) => [s.name, s.config.hearth?.disabled]),
      [['home', true]],
      'added switched off: its secrets are to be typed in',
    );
    assert.deepEqual(
      view.proposals.map((p) => p.name),
      ['notes'],
    );
    assert.equal((await decide({ dismiss: ['notes'] })).status, 200);
    assert.deepEqual((await listed()).proposals, []);
    assert.equal((await decide({ apply: ['notes'] })).status, 404);
    await target.toolServers.close();
  });
});
