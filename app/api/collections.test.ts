import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import JSZip from 'jszip';
import sharp from 'sharp';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { setRuntime } from '@/lib/services/runtime';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { base, makeRuntime, newThread, params, req, send, upload, type Ev } from './harness';
import * as collectionsRoute from './collections/route';
import * as collectionRoute from './collections/[id]/route';
import * as filesRoute from './collections/[id]/files/route';
import * as fileRoute from './collections/[id]/files/[fileId]/route';
import * as searchRoute from './collections/[id]/search/route';
import * as librarySearchRoute from './search/route';
import * as threadRoute from './threads/[id]/route';
import * as settingsRoute from './settings/route';

/**
 * Knowledge collections (issue 32) through the route handlers: a manual of hundreds of
 * passages indexed against the embeddings double, a passage found by its words and by a
 * paraphrase that shares none of them, citations with file and lines, search_documents in a
 * turn, indexing that survives a restart, everything embedded again after a model change, and
 * collections that work by words alone with no embeddings server.
 */

const PARAPHRASE = 'how do I start it over';
/** The passage the paraphrase means; no word of the paraphrase is in it. */
const RESET = 'To restore the factory settings, hold the power button for ten seconds until the lamp blinks twice.';
/** The meaning both share, as an embedding model would place them: one direction, far from the hashed words. */
const meaning = (dims: number) => Array.from({ length: dims }, (_, i) => (i % 3 === 0 ? 1 : -0.5));
const vectorFor = (dims: number) => (text: string) =>
  text.includes('factory settings') || text === PARAPHRASE ? meaning(dims) : undefined;

/** A manual of 300 sections, one of them the reset; answers the file and the reset's line numbers. */
function manual() {
  const lines: string[] = ['# Lamp manual', ''];
  let resetLine = 0;
  for (let i = 1; i <= 300; i++) {
    lines.push(`## Part ${i}`, '');
    if (i === 137) {
      resetLine = lines.length + 1;
      lines.push(RESET, '');
    }
    lines.push(
      `Component ${i} carries serial plate S${1000 + i}. Clean component ${i} with a dry cloth every ${i % 12} weeks; its warranty card W${i} lists the dealer.`,
      '',
    );
  }
  return { text: lines.join('\n'), resetLine };
}

let chat: LlamaDouble;
let embed64: LlamaDouble;
let embed32: LlamaDouble;
before(async () => {
  chat = await startLlamaDouble();
  embed64 = await startLlamaDouble({ embeddings: { dims: 64, vector: vectorFor(64) } });
  embed32 = await startLlamaDouble({ embeddings: { dims: 32, vector: vectorFor(32) } });
});
after(async () => {
  setRuntime(undefined);
  await Promise.all([chat.close(), embed64.close(), embed32.close()]);
});

/** Every file under the file store's folder. */
const storedFiles = (root: string): string[] =>
  fs.existsSync(root)
    ? (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath ?? e.path, e.name))
    : [];

async function createCollection(name: string) {
  const res = await collectionsRoute.POST(req('POST', '/api/collections', { name }));
  assert.equal(res.status, 201);
  return (await res.json()).id as string;
}

async function addFile(collectionId: string, name: string, bytes: string | Uint8Array, type = 'text/plain') {
  const form = new FormData();
  form.set('file', new File([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], name, { type }));
  const res = await filesRoute.POST(
    new Request(`${base}/api/collections/${collectionId}/files`, { method: 'POST', body: form }),
    params({ id: collectionId }),
  );
  return { status: res.status, body: await res.json() };
}

async function detail(id: string) {
  const res = await collectionRoute.GET(req('GET', `/api/collections/${id}`), params({ id }));
  assert.equal(res.status, 200);
  return res.json();
}

async function search(id: string, q: string) {
  const res = await searchRoute.GET(req('GET', `/api/collections/${id}/search?q=${encodeURIComponent(q)}`), params({ id }));
  assert.equal(res.status, 200);
  return res.json();
}

describe('a collection indexed against the embeddings server', () => {
  test('finds a passage among hundreds by its words and by a paraphrase that shares none, with its file and lines', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { EMBEDDINGS_URL: embed64.url, EMBEDDINGS_MODEL: 'bge-small' } });
    const id = await createCollection('Manuals');
    const { text, resetLine } = manual();
    const added = await addFile(id, 'lamp.md', text, 'text/markdown');
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.files[0].status, 'queued');
    await rt.knowledge.indexer.settled();

    const shown = await detail(id);
    assert.equal(shown.fileList[0].status, 'ready');
    assert.ok(shown.chunks >= 200, `hundreds of passages (${shown.chunks})`);
    assert.equal(shown.embedded, shown.chunks);
    assert.equal(shown.search.byMeaning, true);
    // Sent in batches of at most 32 (the default), each passage once.
    assert.ok(embed64.embedded.every((batch) => batch.length <= 32));
    assert.equal(embed64.embedded.flat().length, shown.chunks);

    const byWords = await search(id, 'warranty card W137');
    assert.equal(byWords.passages[0].fileName, 'lamp.md');
    assert.match(byWords.passages[0].text, /W137\b/);
    assert.ok(byWords.passages[0].foundBy.includes('words'));

    const byMeaning = await search(id, PARAPHRASE);
    const first = byMeaning.passages[0];
    assert.ok(first.text.includes(RESET), `the reset passage first, not ${JSON.stringify(first.text.slice(0, 80))}`);
    assert.ok(first.foundBy.includes('meaning'));
    assert.ok(
      first.lineStart <= resetLine && resetLine <= first.lineEnd,
      `lines ${first.lineStart}–${first.lineEnd} hold line ${resetLine}`,
    );
    assert.equal(first.n, 1);

    // The viewer's excerpt: the file's own lines, the passage's highlighted.
    const res = await fileRoute.GET(
      req('GET', `/api/collections/${id}/files/${first.fileId}?from=${first.lineStart}&to=${first.lineEnd}`),
      params({ id, fileId: first.fileId }),
    );
    assert.equal(res.status, 200);
    const excerpt = await res.json();
    assert.equal(excerpt.lines[resetLine - excerpt.firstLine], RESET);
    assert.deepEqual(excerpt.highlight, { from: first.lineStart, to: first.lineEnd });
  });

  test('search_documents answers in a thread that uses the collection, with numbered passages, file and place; a thread without one is not offered it', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { EMBEDDINGS_URL: embed64.url } });
    const id = await createCollection('Manuals');
    await addFile(id, 'lamp.md', manual().text, 'text/markdown');
    await rt.knowledge.indexer.settled();
    const thread = await newThread();
    const patched = await threadRoute.PATCH(req('PATCH', `/api/threads/${thread}`, { collectionIds: [id] }), params({ id: thread }));
    assert.equal(patched.status, 200);
    assert.deepEqual((await patched.json()).collectionIds, [id]);

    chat.setScript((r: DoubleRequest) => {
      if (r.schema) return persona(r);
      if (!r.messages.some((m) => m.role === 'tool'))
        return { toolCalls: [{ name: 'search_documents', arguments: { query: PARAPHRASE } }] };
      return { content: 'Hold the power button for ten seconds until the lamp blinks twice [1].' };
    });
    chat.requests.length = 0;
    const evs = await send(thread, 'How do I start the lamp over?');
    chat.setScript(undefined);
    assert.equal(evs.at(-1)!.type, 'done');
    const round = chat.requests.find((r) => !r.schema && r.tools?.length)!;
    assert.ok(round.tools!.some((t) => t.function.name === 'search_documents'));
    assert.match(String(round.messages[0].content), /knowledge collection "Manuals".*search_documents/);
    const result = evs.find((e): e is Extract<Ev, { type: 'tool_result' }> => e.type === 'tool_result' && e.name === 'search_documents');
    assert.ok(result && result.ok, JSON.stringify(result));
    const data = result.result as {
      passages: { n: number; file: string; place: string; text: string; file_id: string; lines: number[] }[];
    };
    assert.equal(data.passages[0].n, 1);
    assert.equal(data.passages[0].file, 'lamp.md');
    assert.match(data.passages[0].place, /^lines \d+–\d+$/);
    assert.ok(data.passages[0].text.includes(RESET));

    const other = await newThread();
    chat.requests.length = 0;
    await send(other, 'Hello there, how are you today?');
    assert.ok(chat.requests.filter((r) => !r.schema).every((r) => !(r.tools ?? []).some((t) => t.function.name === 'search_documents')));
  });
});

describe('indexing survives a restart', () => {
  test('a server stopped after its first file was cut goes on where it stopped: every file ready, no passage embedded twice', async () => {
    const dataDir = makeTempDir('hearth-knowledge');
    const env = { EMBEDDINGS_URL: embed64.url, EMBEDDINGS_BATCH: '8' };
    const first = await makeRuntime({ llamaUrl: chat.url, dataDir, env });
    const id = await createCollection('Notes');
    // The indexer stops after its first step: one file cut, none embedded.
    first.knowledge.indexer.onProgress(() => first.knowledge.indexer.stop());
    embed64.embedded.length = 0;
    for (const n of [1, 2, 3]) await addFile(id, `notes-${n}.md`, manual().text.replaceAll('Component', `Part-${n} component`));
    await first.knowledge.indexer.settled();
    const halfway = await detail(id);
    assert.deepEqual(
      halfway.fileList.map((f: { status: string }) => f.status),
      ['indexing', 'queued', 'queued'],
    );
    assert.equal(halfway.embedded, 0);

    const second = await makeRuntime({ llamaUrl: chat.url, dataDir, env });
    await second.knowledge.indexer.settled();
    const done = await detail(id);
    assert.deepEqual(
      done.fileList.map((f: { status: string }) => f.status),
      ['ready', 'ready', 'ready'],
    );
    assert.equal(done.embedded, done.chunks);
    const sent = embed64.embedded.flat();
    assert.equal(sent.length, done.chunks, 'each passage embedded once');
    assert.ok(embed64.embedded.every((batch) => batch.length <= 8));
  });
});

describe('a change of embedding model', () => {
  test('embeds everything again with the new model (other dimensions), and search by meaning goes on', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { EMBEDDINGS_URL: embed64.url, EMBEDDINGS_MODEL: 'bge-small' } });
    const id = await createCollection('Manuals');
    await addFile(id, 'lamp.md', manual().text);
    await rt.knowledge.indexer.settled();
    const before = await detail(id);
    assert.equal(before.embedded, before.chunks);

    embed32.embedded.length = 0;
    const res = await settingsRoute.PATCH(
      req('PATCH', '/api/settings', { embeddingsUrl: embed32.url, embeddingsModel: 'nomic-embed-text' }),
    );
    assert.equal(res.status, 200);
    await rt.knowledge.indexer.settled();
    const after = await detail(id);
    assert.equal(after.embedded, after.chunks);
    assert.equal(after.fileList[0].status, 'ready');
    assert.equal(embed32.embedded.flat().length, after.chunks, 'every passage embedded again by the new model');
    assert.deepEqual(await rt.store.vectorIndexState(), { id: 1, model: 'nomic-embed-text', dims: 32 });
    const found = await search(id, PARAPHRASE);
    assert.ok(found.passages[0].text.includes(RESET));
    assert.equal(found.byMeaning, true);
  });
});

describe('no embeddings server', () => {
  test('collections work by words alone and say so', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url });
    const id = await createCollection('Manuals');
    await addFile(id, 'lamp.md', manual().text);
    await rt.knowledge.indexer.settled();
    const shown = await detail(id);
    assert.equal(shown.fileList[0].status, 'ready');
    assert.equal(shown.embedded, 0);
    assert.equal(shown.search.byMeaning, false);
    const byWords = await search(id, 'serial plate S1137');
    assert.match(byWords.passages[0].text, /S1137\b/);
    assert.deepEqual(byWords.passages[0].foundBy, ['words']);
    assert.equal(byWords.byMeaning, false);
    const byMeaning = await search(id, PARAPHRASE);
    assert.ok(!byMeaning.passages.some((p: { text: string }) => p.text.includes(RESET)), 'a paraphrase needs vectors');
  });

  test('an embeddings server that is down leaves files searchable by words, says why, and they are embedded once it answers', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { EMBEDDINGS_URL: 'http://127.0.0.1:9' } });
    const id = await createCollection('Manuals');
    await addFile(id, 'lamp.md', manual().text);
    await rt.knowledge.indexer.settled();
    const waiting = await detail(id);
    assert.equal(waiting.fileList[0].status, 'indexing');
    assert.ok(waiting.search.embeddingsError, 'the failure is shown');
    assert.match((await search(id, 'warranty card W12')).passages[0].text, /W12\b/);
    await settingsRoute.PATCH(req('PATCH', '/api/settings', { embeddingsUrl: embed64.url }));
    await rt.knowledge.indexer.settled();
    const ready = await detail(id);
    assert.equal(ready.fileList[0].status, 'ready');
    assert.equal(ready.search.embeddingsError, null);
  });
});

describe('collections and their files', () => {
  test('a zip of a folder adds each file in it, skipping what Hearth cannot read; files and collections are removed with their bytes', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url });
    const id = await createCollection('Project');
    const zip = new JSZip();
    zip.file('docs/readme.md', '# Project\n\nIt builds with make.\n');
    zip.file('src/main.c', 'int main(void) {\n  return 0;\n}\n');
    zip.file('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
    zip.file('__MACOSX/._readme.md', 'junk');
    const added = await addFile(id, 'project.zip', await zip.generateAsync({ type: 'uint8array' }), 'application/zip');
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.deepEqual(added.body.files.map((f: { name: string }) => f.name).sort(), ['docs_readme.md', 'src_main.c']);
    assert.equal(added.body.skipped.length, 1);
    assert.equal(added.body.skipped[0].name, 'logo.png');
    await rt.knowledge.indexer.settled();
    assert.match((await search(id, 'builds with make')).passages[0].fileName, /readme/);

    const stored = await rt.store.listCollectionFiles({ collectionId: id });
    const readme = stored.find((f) => f.name.includes('readme'))!;
    const onDisk = rt.files.pathOf(readme.sha256);
    assert.ok(fs.existsSync(onDisk));
    const removed = await fileRoute.DELETE(req('DELETE', `/api/collections/${id}/files/${readme.id}`), params({ id, fileId: readme.id }));
    assert.equal(removed.status, 204);
    assert.equal(fs.existsSync(onDisk), false, 'its bytes leave the disk');
    assert.equal((await search(id, 'builds with make')).passages.length, 0);

    const main = rt.files.pathOf(stored.find((f) => f.name.includes('main'))!.sha256);
    const gone = await collectionRoute.DELETE(req('DELETE', `/api/collections/${id}`), params({ id }));
    assert.equal(gone.status, 204);
    assert.equal(fs.existsSync(main), false);
    assert.equal((await collectionRoute.GET(req('GET', `/api/collections/${id}`), params({ id }))).status, 404);
  });

  test('a zip whose files together unpack past the upload limit is refused as it inflates, and nothing of it is added', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { HEARTH_MAX_UPLOAD_MB: '1' } });
    const id = await createCollection('Bomb');
    const zip = new JSZip();
    // Each within the limit, both past it (and a few kilobytes packed).
    zip.file('a.txt', 'a'.repeat(600 * 1024));
    zip.file('b.txt', 'b'.repeat(600 * 1024));
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    assert.ok(bytes.length < 20_000);
    const refused = await addFile(id, 'bomb.zip', bytes, 'application/zip');
    assert.equal(refused.status, 413, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'too_large');
    assert.match(refused.body.error.message, /bomb\.zip unpacks to more than 1 MB/);
    assert.deepEqual(await rt.store.listCollectionFiles({ collectionId: id }), []);
    const first = createHash('sha256')
      .update('a'.repeat(600 * 1024))
      .digest('hex');
    assert.equal(fs.existsSync(rt.files.pathOf(first)), false, 'the file read before the refusal is not left on disk');
  });

  test('a file attached to a message is added from there, and stays on disk while the collection has it', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url });
    const id = await createCollection('From chats');
    const file = await upload('recipe.txt', 'Bake the bread at 220 degrees for forty minutes.\n');
    const res = await filesRoute.POST(req('POST', `/api/collections/${id}/files`, { attachmentId: file.body.id }), params({ id }));
    assert.equal(res.status, 201);
    await rt.knowledge.indexer.settled();
    assert.match((await search(id, 'bread degrees')).passages[0].text, /220 degrees/);
    assert.ok(await rt.store.isFileReferenced({ sha256: file.body.sha256 }));
  });

  test('bad input is refused with what to do, and nothing stored changes', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url });
    const bad = await collectionsRoute.POST(req('POST', '/api/collections', { name: '  ' }));
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.code, 'bad_request');
    const id = await createCollection('Real');
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await collectionRoute.GET(req('GET', `/api/collections/${unknown}`), params({ id: unknown }))).status, 404);
    assert.equal((await addFile(unknown, 'a.txt', 'text')).status, 404);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const kept = storedFiles(rt.files.root);
    const image = await addFile(id, 'photo.png', png, 'image/png');
    assert.equal(image.status, 415);
    assert.deepEqual(storedFiles(rt.files.root), kept, 'a refused image leaves nothing on disk');
    const other = await createCollection('Trip');
    const zip = new JSZip();
    zip.file('notes.md', 'Pack the tent.\n');
    zip.file('photo.png', png);
    const packed = await addFile(other, 'trip.zip', await zip.generateAsync({ type: 'uint8array' }), 'application/zip');
    assert.deepEqual(packed.body.skipped, [{ name: 'photo.png', reason: 'an image: collections index text' }]);
    assert.equal(
      storedFiles(rt.files.root).filter((f) => !kept.includes(f)).length,
      1,
      'an image skipped in a zip neither: only the note is kept',
    );
    const thread = await newThread();
    const refused = await threadRoute.PATCH(req('PATCH', `/api/threads/${thread}`, { collectionIds: [unknown] }), params({ id: thread }));
    assert.equal(refused.status, 400);
    assert.match((await refused.json()).error.message, new RegExp(unknown));
    assert.equal((await search(id, '""')).passages.length, 0);
    const shown = await detail(id);
    assert.equal(shown.files, 0);
  });
});

describe('past conversations by meaning (Ctrl+K)', () => {
  const CABIN = 'We rented a little cabin in Norway by a fjord last summer. What should I pack for a week there in August?';
  const QUERY = 'that hut near Bergen';
  const trip = (dims: number) => Array.from({ length: dims }, (_, i) => (i % 4 === 0 ? 1 : 0.2));
  let embedTrip: LlamaDouble;
  before(async () => {
    embedTrip = await startLlamaDouble({
      embeddings: { dims: 48, vector: (text) => (text.includes('cabin in Norway') || text === QUERY ? trip(48) : undefined) },
    });
  });
  after(() => embedTrip.close());

  async function searchLibrary(q: string, extra = '') {
    const res = await librarySearchRoute.GET(req('GET', `/api/search?q=${encodeURIComponent(q)}${extra}`));
    assert.equal(res.status, 200);
    return (await res.json()).results as {
      kind: string;
      threadId: string;
      messageId: string;
      snippet: string;
      byMeaning?: true;
      role: string;
    }[];
  }

  test('with the setting on, a message is found by a query that shares none of its words, marked as found by meaning', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { EMBEDDINGS_URL: embedTrip.url, HEARTH_CONVERSATIONS_BY_MEANING: 'true' } });
    const cabin = await newThread();
    await send(cabin, CABIN);
    const other = await newThread();
    await send(other, 'How do I file my tax return before the deadline?');
    rt.knowledge.indexer.wake();
    await rt.knowledge.indexer.settled();
    // Every user and assistant message was embedded, each once.
    const sent = embedTrip.embedded.flat();
    assert.ok(sent.includes(CABIN));
    assert.equal(new Set(sent).size, sent.length);

    // The question and the double's answer (which echoes it) are found; the tax thread is not.
    const found = await searchLibrary(QUERY);
    assert.ok(found.length >= 1 && found.every((h) => h.threadId === cabin && h.byMeaning), JSON.stringify(found));
    assert.equal(found[0].role, 'user');
    assert.match(found[0].snippet, /^We rented a little cabin in Norway/);
    // The filters hold for meaning too.
    assert.ok((await searchLibrary(QUERY, '&role=assistant')).every((h) => h.role === 'assistant'));
    assert.deepEqual(await searchLibrary(QUERY, `&threadId=${other}`), []);

    // A message found by its words and by meaning is one hit, with its words marked.
    const both = await searchLibrary('cabin');
    assert.equal(both.filter((h) => h.threadId === cabin && h.role === 'user').length, 1);
    assert.equal(both[0].byMeaning, undefined);
  });

  test('with the setting off, nothing is embedded and search is by words alone', async () => {
    const rt = await makeRuntime({ llamaUrl: chat.url, env: { EMBEDDINGS_URL: embedTrip.url } });
    embedTrip.embedded.length = 0;
    await send(await newThread(), CABIN);
    rt.knowledge.indexer.wake();
    await rt.knowledge.indexer.settled();
    assert.equal(embedTrip.embedded.length, 0);
    assert.deepEqual(await searchLibrary(QUERY), []);

    // Switched on in Settings: the messages already kept are embedded in the background.
    const res = await settingsRoute.PATCH(req('PATCH', '/api/settings', { conversationsByMeaning: true }));
    assert.equal(res.status, 200);
    await rt.knowledge.indexer.settled();
    assert.ok(embedTrip.embedded.flat().includes(CABIN));
    assert.equal((await searchLibrary(QUERY))[0]?.byMeaning, true);
  });
});
