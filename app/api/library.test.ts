import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, afterEach, before, describe, test } from 'node:test';
import { persona, titleFor } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { FileStore } from '@/lib/data/file-store';
import { readSse } from '@/lib/contract/sse';
import { getRuntime, setRuntime, type Runtime } from '@/lib/services/runtime';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import * as eventsRoute from './events/route';
import * as memoriesRoute from './memories/route';
import { base, getThread, makeRuntime, newThread, params, req, rounds, send, sendWith, upload } from './harness';
import * as threadRoute from './threads/[id]/route';

const filePath = (dir: string, sha256: string) => new FileStore(dir).pathOf(sha256);
const filesDir = (dataDir: string) => FileStore.of(dataDir).root;

/**
 * The library at scale through the routes: whole files, what a thread's deletion takes with it,
 * memory kept from the chat, titles written in the background, and /api/events telling the page.
 */

let double: LlamaDouble;
before(async () => {
  double = await startLlamaDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
});

// A test that scripts the double leaves it as it found it, even when it fails.
afterEach(() => double?.setScript(undefined));

/** A 5.8 MB log (80,000 lines) with `every`-th line an error. */
function bigLog(every: number) {
  let text = '';
  let planted = 0;
  for (let i = 1; i <= 80_000; i++) {
    const error = i % every === 0;
    if (error) planted++;
    text += `2026-11-30T12:00:00Z ${error ? 'ERROR payment gateway timeout' : 'INFO request served in 12 ms'} request=${i}\n`;
  }
  return { text, planted };
}

/** A model that uses the file tools when asked about the attached log, as the context tells it to. */
function fileReader(req: DoubleRequest) {
  if (req.schema) return persona(req);
  const users = req.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
  const question = users.at(-1) ?? '';
  // The file's id is in the header of the message it was attached to.
  const id = users.map((u) => /id ([0-9a-f-]{36})\)/.exec(u)?.[1]).find(Boolean);
  const result = req.messages.filter((m) => m.role === 'tool').at(-1);
  if (result) {
    const data = JSON.parse(String(result.content)) as { matching_lines?: number; text?: string };
    if (data.matching_lines !== undefined) return { content: `The log has ${data.matching_lines} ERROR lines.` };
    return { content: `Lines 40000 on read: ${String(data.text).split('\n')[0]}` };
  }
  if (id && /how many/i.test(question)) return { toolCalls: [{ name: 'grep_attachment', arguments: { id, pattern: 'ERROR' } }] };
  if (id && /line 40000/i.test(question))
    return { toolCalls: [{ name: 'read_attachment', arguments: { id, from_line: 40000, to_line: 40001 } }] };
  return { content: 'I could not tell.' };
}

describe('whole files, however large', () => {
  let rt: Runtime;
  test("the context shows a large file's beginning and names the tools; grep counts every matching line exactly; read pages to any line", async () => {
    double.setScript(fileReader);
    rt = await makeRuntime({ llamaUrl: double.url });
    const { text, planted } = bigLog(97);
    const up = await upload('payments.log', text);
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(up.body.lines, 80_000);
    assert.ok(up.body.size > 5_000_000);
    const id = await newThread();
    const evs = await sendWith(id, 'How many errors are in the attached log?', [up.body.id]);
    const sent = rounds(double)[0];
    assert.match(
      String(sent.messages.at(-1)!.content),
      /This is only the beginning of payments\.log: it has 80000 lines[\s\S]*grep_attachment \{"id": "[0-9a-f-]{36}"/,
    );
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result' && result.ok, String(JSON.stringify(result)));
    assert.equal((result.result as { matching_lines: number }).matching_lines, planted);
    const answer = evs.find((e) => e.type === 'message');
    assert.ok(
      answer?.type === 'message' && answer.content === `The log has ${planted} ERROR lines.`,
      String(JSON.stringify(evs.filter((e) => e.type !== 'delta'))),
    );

    const more = await send(id, 'What is on line 40000 of that file?');
    const read = more.find((e) => e.type === 'tool_result');
    assert.ok(read?.type === 'tool_result' && read.ok, String(JSON.stringify(more.filter((e) => e.type !== 'delta'))));
    assert.match(
      String((read.result as { text: string }).text),
      /^ 40000\| 2026-11-30T12:00:00Z INFO request served in 12 ms request=40000\n 40001\|/,
    );
  });

  test('a file stays at the message it came with in every later turn, word for word', async () => {
    await makeRuntime({ llamaUrl: double.url, env: { HEARTH_TITLES: 'first-words' } });
    const id = await newThread();
    const up = await upload('recipe.txt', 'Soak the lentils for two hours, then simmer for 25 minutes.\n');
    await sendWith(id, 'What is in the attached file?', [up.body.id]);
    const first = rounds(double)
      .at(-1)!
      .messages.find((m) => m.role === 'user')!.content as string;
    assert.match(first, /--- recipe\.txt \(text\/plain, 60 bytes[^\n]*---\nSoak the lentils for two hours/);
    for (const question of ['How long do they simmer?', 'And how long do they soak?']) {
      await sendWith(id, question, []);
      const users = rounds(double)
        .at(-1)!
        .messages.filter((m) => m.role === 'user');
      assert.equal(users[0].content, first, `the file is still at the first message when asking "${question}"`);
    }
  });

  test('a file from another thread cannot be read by id', async () => {
    double.setScript((req) => {
      if (req.schema) return persona(req);
      const other = String(req.messages.at(-1)?.content ?? '').match(/read ([0-9a-f-]{36})/)?.[1];
      if (other && !req.messages.some((m) => m.role === 'tool'))
        return { toolCalls: [{ name: 'read_attachment', arguments: { id: other } }] };
      return { content: 'done' };
    });
    rt = await makeRuntime({ llamaUrl: double.url });
    const up = await upload('secret.txt', 'the other thread keeps this');
    const first = await newThread();
    await sendWith(first, 'here is a file', [up.body.id]);
    const second = await newThread();
    const evs = await send(second, `Please read ${up.body.id}`);
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(
      result?.type === 'tool_result' && !result.ok && /no file with the id/.test(result.error ?? ''),
      String(JSON.stringify(evs.filter((e) => e.type !== 'delta'))),
    );
  });

  test('deleting a thread deletes the files sent in it, unless another thread sent the same file', async () => {
    double.setScript(undefined);
    rt = await makeRuntime({ llamaUrl: double.url });
    const a = await upload('shared.txt', 'same bytes in two threads');
    const b = await upload('shared-again.txt', 'same bytes in two threads');
    const only = await upload('only-here.txt', 'just in one thread');
    const t1 = await newThread();
    await sendWith(t1, 'two files', [a.body.id, only.body.id]);
    const t2 = await newThread();
    await sendWith(t2, 'the same file', [b.body.id]);
    const dir = filesDir(rt.config.DATA_DIR);
    assert.equal((await threadRoute.DELETE(req('DELETE', `/api/threads/${t1}`), params({ id: t1 }))).status, 204);
    assert.ok(fs.existsSync(filePath(dir, a.body.sha256)), 'still sent in the other thread');
    assert.ok(!fs.existsSync(filePath(dir, only.body.sha256)), 'gone with its thread');
    assert.equal((await getThread(t2)).body.messages[0].attachments[0].name, 'shared-again.txt');
  });
});

/** Until `done` is true, lets the event loop run (no clock: each pass waits for pending I/O). */
async function until(done: () => boolean, what: string) {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(done(), `waited for: ${what}`);
}

/** Opens GET /api/events as a page does and collects what it announces. */
function listen() {
  const abort = new AbortController();
  const heard: { type: string; id?: string; title?: string }[] = [];
  const opened = eventsRoute.GET(new Request(`${base}/api/events`, { signal: abort.signal })).then(async (res) => {
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    for await (const frame of readSse(res.body!, abort.signal)) heard.push(JSON.parse(frame.data));
  });
  return { heard, close: () => (abort.abort(), opened.catch(() => undefined)) };
}

describe('memory from the chat', () => {
  test('"remember that …" keeps the fact through the remember tool, the turn shows it, the page hears of it; a secret is refused', async () => {
    double.setScript(undefined);
    const rt = await makeRuntime({ llamaUrl: double.url });
    const page = listen();
    const id = await newThread();
    const evs = await send(id, "Remember that I'm vegetarian");
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(
      result?.type === 'tool_result' && result.ok && result.name === 'remember',
      String(JSON.stringify(evs.filter((e) => e.type !== 'delta'))),
    );
    assert.deepEqual(result.result, { remembered: 'The user is vegetarian.' });
    const answer = evs.find((e) => e.type === 'message');
    assert.ok(answer?.type === 'message' && /remember that you are vegetarian/.test(answer.content), String(JSON.stringify(answer)));
    const listed = await (await memoriesRoute.GET(req('GET', '/api/memories'))).json();
    assert.deepEqual(
      listed.memories.map((m: { text: string }) => m.text),
      ['The user is vegetarian.'],
    );
    await until(() => page.heard.some((u) => u.type === 'memories'), 'the memories update');
    // What the turn showed is kept with the thread.
    const view = (await getThread(id)).body;
    assert.deepEqual(
      view.messages[1].toolCalls.map((c: { name: string; result: unknown }) => [c.name, c.result]),
      [['remember', { remembered: 'The user is vegetarian.' }]],
    );

    const refused = await send(id, 'Remember that my password is hunter2');
    const no = refused.find((e) => e.type === 'tool_result');
    assert.ok(no?.type === 'tool_result' && !no.ok && /password, key or token/.test(no.error ?? ''), String(JSON.stringify(no)));
    assert.deepEqual(
      (await rt.store.listMemories()).map((m) => m.text),
      ['The user is vegetarian.'],
    );

    // The fact applies without sharing a word with the question: it is in the system block, and the answer names it.
    const suggested = await send(id, 'Suggest a dinner recipe for me.');
    const round = rounds(double).at(-1)!;
    assert.match(String(round.messages[0].content), /What you know about the user[^\n]*\n- The user is vegetarian\.$/);
    assert.doesNotMatch(String(round.messages.at(-1)!.content), /What you remember/, 'not again in the question');
    const suggestion = suggested.find((e) => e.type === 'message');
    assert.ok(suggestion?.type === 'message' && /you are vegetarian, try a chickpea/.test(suggestion.content), JSON.stringify(suggestion));
    const used = suggested.find((e) => e.type === 'memory');
    assert.deepEqual(used, { type: 'memory', facts: ['The user is vegetarian.'], seq: used?.seq });
    const shown = (await getThread(id)).body.messages.at(-1);
    assert.deepEqual(shown.remembered, ['The user is vegetarian.'], 'kept with the answer, after a reload too');

    const forgot = await send(id, "Forget that I'm vegetarian");
    const gone = forgot.find((e) => e.type === 'tool_result');
    assert.ok(gone?.type === 'tool_result' && gone.ok, String(JSON.stringify(gone)));
    assert.deepEqual(await rt.store.listMemories(), []);
    await page.close();
  });
});

describe('titles written by the model', () => {
  test('after the first exchange the model titles the thread in the background; later turns and typed titles are left alone', async () => {
    double.setScript(undefined);
    await makeRuntime({ llamaUrl: double.url });
    const page = listen();
    const seen = double.requests.length;
    const id = await newThread();
    await send(id, 'Explain how tides work');
    assert.equal((await getThread(id)).body.title, titleFor('Explain how tides work'));
    await until(() => page.heard.some((u) => u.type === 'thread' && u.id === id), 'the title update');
    assert.deepEqual(
      page.heard.find((u) => u.type === 'thread'),
      { type: 'thread', id, title: titleFor('Explain how tides work') },
    );
    await send(id, 'And why are there two a day?');
    assert.equal(double.requests.slice(seen).filter(isTitleRequest).length, 1, 'one title, after the first exchange only');

    // A title the user typed is never replaced: named before the first message, or after it.
    const named = await newThread();
    assert.equal(
      (await threadRoute.PATCH(req('PATCH', `/api/threads/${named}`, { title: 'Moon notes' }), params({ id: named }))).status,
      200,
    );
    await send(named, 'How far away is the moon?');
    assert.equal((await getThread(named)).body.title, 'Moon notes');
    assert.equal(double.requests.slice(seen).filter(isTitleRequest).length, 1, 'no title call for a named thread');
    await page.close();
  });

  test('a title call never delays the next turn: the turn stops it, and the title is written after that turn', async () => {
    let heldOnce = false;
    double.setScript((r) => {
      // The first title call hangs, as a slow server would, until its client hangs up.
      if (isTitleRequest(r) && !heldOnce) {
        heldOnce = true;
        return { content: 'Never Sent Title', hold: { afterTokens: 0, until: new Promise(() => undefined) } };
      }
      return persona(r);
    });
    const rt = await makeRuntime({ llamaUrl: double.url });
    const seen = double.requests.length;
    const id = await newThread();
    await sendWith(id, 'Explain how tides work', []);
    await until(() => heldOnce, 'the title call to reach the server');
    // The user asks again at once. With one slot, the held title call would block the turn on the server.
    const second = await sendWith(id, 'And why are there two a day?', []);
    assert.equal(second.at(-1)!.type, 'done');
    await rt.turns.backgroundIdle();
    assert.equal(
      (await getThread(id)).body.title,
      titleFor('Explain how tides work'),
      'written from the first exchange, after the second turn',
    );
    assert.equal(double.requests.slice(seen).filter(isTitleRequest).length, 2, 'the stopped call, then the one that wrote it');
  });
});

describe('GET /api/events', () => {
  test('a memory added from another tab reaches an open page; the stream ends when the page goes', async () => {
    await makeRuntime({ llamaUrl: double.url });
    const page = listen();
    const owner = async () => (await getRuntime()).as(await (await getRuntime()).auth.owner());
    // The page is listening before the other tab adds the fact (the stream opens as a request of its own; on PostgreSQL it takes longer).
    const library = await owner();
    await until(() => library.updates.listening > 0, 'the page listening');
    const res = await memoriesRoute.POST(req('POST', '/api/memories', { text: 'I live in Lyon' }));
    assert.equal(res.status, 201);
    await until(() => page.heard.length > 0, 'the update');
    assert.deepEqual(page.heard, [{ type: 'memories' }]);
    await page.close();
    assert.equal((await owner()).updates.listening, 0, 'a closed page is no longer listened to');
  });
});
