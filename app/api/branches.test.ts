import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { setRuntime, type Runtime } from '@/lib/services/runtime';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { events, getThread, makeRuntime, newThread, params, req, rounds, upload } from './harness';
import * as importRoute from './import/route';
import * as search from './search/route';
import * as threadRoute from './threads/[id]/route';
import * as exportRoute from './threads/[id]/export/route';
import * as messagesRoute from './threads/[id]/messages/route';
import * as messageRoute from './threads/[id]/messages/[messageId]/route';
import * as regenerateRoute from './threads/[id]/messages/[messageId]/regenerate/route';
import { storedRowsOf } from '@/lib/dev/testing/store';

/**
 * Branches: a thread is a tree. Regenerating an answer keeps the old one beside the new, editing
 * a question starts a branch beside it; the page shows one path and remembers which; the model
 * sees the path to the question it answers; export carries every branch and search finds them.
 */

let double: LlamaDouble;
let rt: Runtime;

/** Every conversation round is answered "Answer N." (N counts them), so versions differ; checks pass. */
function numberedAnswers() {
  let n = 0;
  double.setScript((r) => {
    if (r.schema) return { content: '{"needs_fresh": false, "query": "", "verdict": "answered"}' };
    if (isTitleRequest(r)) return { content: 'A title' };
    n++;
    return { content: `Answer ${n}.` };
  });
}

before(async () => {
  double = await startLlamaDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
});
beforeEach(async () => {
  double.requests.length = 0;
  numberedAnswers();
  rt = await makeRuntime({ llamaUrl: double.url });
});
afterEach(() => double.setScript(undefined));

type View = Awaited<ReturnType<typeof getThread>>['body'];
type Msg = {
  id: string;
  role: string;
  content: string;
  parentId: string | null;
  branch: { index: number; ids: string[] } | null;
  attachments: { name: string }[];
};

async function post(threadId: string, body: Record<string, unknown>) {
  const res = await messagesRoute.POST(req('POST', `/api/threads/${threadId}/messages`, body), params({ id: threadId }));
  if (res.status !== 200) assert.fail(`POST messages answered ${res.status}: ${await res.text()}`);
  const evs = await events(res);
  await rt.turns.backgroundIdle();
  return evs;
}

async function regenerate(threadId: string, messageId: string) {
  const res = await regenerateRoute.POST(
    req('POST', `/api/threads/${threadId}/messages/${messageId}/regenerate`),
    params({ id: threadId, messageId }),
  );
  return res;
}

async function shown(threadId: string): Promise<{ view: View; messages: Msg[]; text: string[] }> {
  const { status, body } = await getThread(threadId);
  assert.equal(status, 200, 'the thread reads');
  return { view: body, messages: body.messages, text: body.messages.map((m: Msg) => `${m.role}: ${m.content}`) };
}

async function choose(threadId: string, messageId: string) {
  const res = await threadRoute.PATCH(req('PATCH', `/api/threads/${threadId}`, { branch: messageId }), params({ id: threadId }));
  return { status: res.status, body: await res.json() };
}

/** What the model was sent in its last conversation round, as role: text lines (system and context block aside). */
function lastRoundSaw(): string[] {
  const last = rounds(double).at(-1);
  assert.ok(last, 'the model was asked');
  return last.messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`);
}

describe('branches', () => {
  test('retrying an answer that failed before its first word: the retry is the first version, not "2 / 2"', async () => {
    const id = await newThread();
    let fail = true;
    double.setScript((r) => {
      if (r.schema) return { content: '{"needs_fresh": false, "query": "", "verdict": "answered"}' };
      if (isTitleRequest(r)) return { content: 'A title' };
      if (fail) return { error: { status: 500, type: 'server_error', message: 'the model crashed' } };
      return { content: 'A real answer.' };
    });
    const evs = await post(id, { content: 'Hello?' });
    assert.equal(evs.at(-1)?.type, 'error');
    const failed = (await shown(id)).messages[1];
    assert.equal(failed.content, '');
    fail = false;
    const res = await regenerate(id, failed.id);
    assert.equal(res.status, 200);
    assert.equal((await events(res)).at(-1)?.type, 'done');
    const after = (await shown(id)).messages;
    assert.equal(after[1].content, 'A real answer.');
    assert.equal(after[1].branch, null, 'one version: the failure is not counted');
    // Words written before a failure are a version of their own.
    double.setScript(() => ({
      content: 'Half an ans',
      errorAfterContent: { code: 500, type: 'server_error', message: 'the model crashed' },
    }));
    await events(await regenerate(id, after[1].id));
    const cut = (await shown(id)).messages[1];
    assert.equal(cut.content, 'Half an ans');
    assert.deepEqual(cut.branch?.ids, [after[1].id, cut.id]);
  });

  test('regenerate keeps the old answer beside the new one; arrows move between them and the choice is remembered', async () => {
    const id = await newThread();
    await post(id, { content: 'First question' });
    await post(id, { content: 'Second question' });
    const before = await shown(id);
    assert.deepEqual(before.text, ['user: First question', 'assistant: Answer 1.', 'user: Second question', 'assistant: Answer 2.']);
    const oldAnswer = before.messages[3];
    assert.equal(oldAnswer.branch, null, 'one version: no arrows');

    const res = await regenerate(id, oldAnswer.id);
    assert.equal(res.status, 200);
    const evs = await events(res);
    assert.equal(evs[0].type, 'turn');
    assert.equal(evs.at(-1)?.type, 'done');
    // The new answer was asked with the path to its question, and never saw the old answer.
    assert.deepEqual(lastRoundSaw(), ['user: First question', 'assistant: Answer 1.', 'user: Second question']);

    const after = await shown(id);
    assert.deepEqual(after.text, ['user: First question', 'assistant: Answer 1.', 'user: Second question', 'assistant: Answer 3.']);
    const newAnswer = after.messages[3];
    assert.deepEqual(newAnswer.branch, { index: 1, ids: [oldAnswer.id, newAnswer.id], models: ['tiny-toy', 'tiny-toy'] }, '"2 / 2"');
    assert.equal(newAnswer.parentId, before.messages[2].id, 'the same question');

    // Back to the first version: remembered by the thread, so a reload shows it.
    const back = await choose(id, oldAnswer.id);
    assert.equal(back.status, 200);
    assert.equal(back.body.messages[3].content, 'Answer 2.');
    assert.deepEqual((await shown(id)).messages[3].branch, {
      index: 0,
      ids: [oldAnswer.id, newAnswer.id],
      models: ['tiny-toy', 'tiny-toy'],
    });

    // The next message follows the branch shown.
    await post(id, { content: 'Third question' });
    assert.deepEqual(lastRoundSaw(), [
      'user: First question',
      'assistant: Answer 1.',
      'user: Second question',
      'assistant: Answer 2.',
      'user: Third question',
    ]);
    assert.deepEqual((await shown(id)).text.slice(3), ['assistant: Answer 2.', 'user: Third question', 'assistant: Answer 4.']);

    // Choosing the other answer shows the newest message under it (itself: nothing followed it).
    const other = await choose(id, newAnswer.id);
    assert.deepEqual(
      other.body.messages.map((m: Msg) => m.content),
      ['First question', 'Answer 1.', 'Second question', 'Answer 3.'],
    );
    // And the first answer's branch comes back whole, with its third question.
    const again = await choose(id, oldAnswer.id);
    assert.deepEqual(again.body.messages.map((m: Msg) => m.content).slice(3), ['Answer 2.', 'Third question', 'Answer 4.']);
  });

  test('editing a question starts a branch beside it, keeps its files, and the old branch stays reachable', async () => {
    const id = await newThread();
    const file = await upload('notes.txt', 'The launch code word is heron.\n');
    assert.equal(file.status, 201);
    await post(id, { content: 'Read my notes', attachmentIds: [file.body.id] });
    await post(id, { content: 'What is the code word?' });
    const before = await shown(id);
    const question = before.messages[2];
    const first = before.messages[0];

    // Edit the second question.
    await post(id, { content: 'What is the code word, in capitals?', editOf: question.id });
    assert.deepEqual(lastRoundSaw().slice(-1), ['user: What is the code word, in capitals?']);
    assert.ok(!lastRoundSaw().some((l) => l.includes('What is the code word?')), 'the replaced question is not in the context');
    const edited = await shown(id);
    assert.deepEqual(edited.text.slice(2), ['user: What is the code word, in capitals?', 'assistant: Answer 3.']);
    assert.deepEqual(edited.messages[2].branch, { index: 1, ids: [question.id, edited.messages[2].id] });
    assert.equal(edited.messages[2].parentId, question.parentId);

    // Edit the first question, which carried a file: the new one carries it too, and the model reads it.
    await post(id, { content: 'Please read my notes', editOf: first.id });
    const saw = lastRoundSaw();
    assert.equal(saw.length, 1, 'a new first question starts a conversation of its own');
    assert.match(saw[0], /Please read my notes/);
    assert.match(saw[0], /heron/, "the edited question's file goes with it");
    const root = await shown(id);
    assert.deepEqual(
      root.messages[0].attachments.map((a) => a.name),
      ['notes.txt'],
    );
    assert.deepEqual(root.messages[0].branch?.index, 1);
    assert.equal(root.messages.length, 2);

    // The first branch, as it was.
    const back = await choose(id, first.id);
    assert.deepEqual(
      back.body.messages.map((m: Msg) => m.content),
      ['Read my notes', 'Answer 1.', 'What is the code word, in capitals?', 'Answer 3.'],
    );
    const older = await choose(id, question.id);
    assert.deepEqual(
      older.body.messages.map((m: Msg) => m.content),
      ['Read my notes', 'Answer 1.', 'What is the code word?', 'Answer 2.'],
    );
  });

  test('bad branch requests are clear errors, and nothing changes', async () => {
    const id = await newThread();
    await post(id, { content: 'Only question' });
    const { messages } = await shown(id);
    const [question, answer] = messages;
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await choose(id, unknown)).status, 404);
    assert.equal((await choose(id, 'not-an-id')).status, 400);
    assert.equal((await regenerate(id, unknown)).status, 404);
    const other = await newThread();
    assert.equal((await regenerate(other, answer.id)).status, 404, "another thread's message is unknown there");
    const editAnswer = await messagesRoute.POST(
      req('POST', `/api/threads/${id}/messages`, { content: 'x', editOf: answer.id }),
      params({ id }),
    );
    assert.equal(editAnswer.status, 400);
    assert.match((await editAnswer.json()).error.message, /only a question can be edited/);
    const del = await messageRoute.DELETE(req('DELETE', `/api/threads/${id}/messages/${unknown}`), params({ id, messageId: unknown }));
    assert.equal(del.status, 404);
    assert.deepEqual(
      (await shown(id)).messages.map((m: Msg) => m.id),
      [question.id, answer.id],
    );
  });

  test('while a turn runs, regenerate, edit, a branch switch and delete get 409 and nothing is stored', async () => {
    const id = await newThread();
    await post(id, { content: 'Question' });
    const { messages } = await shown(id);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    double.setScript((r) =>
      r.schema
        ? { content: '{"needs_fresh": false, "query": "", "verdict": "answered"}' }
        : { content: 'slow words here', hold: { afterTokens: 1, until: held } },
    );
    const running = await messagesRoute.POST(req('POST', `/api/threads/${id}/messages`, { content: 'Another' }), params({ id }));
    assert.equal(running.status, 200);
    const reading = events(running);
    try {
      assert.equal((await regenerate(id, messages[1].id)).status, 409);
      const edit = await messagesRoute.POST(
        req('POST', `/api/threads/${id}/messages`, { content: 'x', editOf: messages[0].id }),
        params({ id }),
      );
      assert.equal(edit.status, 409);
      assert.equal((await choose(id, messages[0].id)).status, 409);
      const del = await messageRoute.DELETE(
        req('DELETE', `/api/threads/${id}/messages/${messages[0].id}`),
        params({ id, messageId: messages[0].id }),
      );
      assert.equal(del.status, 409);
    } finally {
      release();
    }
    assert.equal((await reading).at(-1)?.type, 'done');
    assert.equal((await shown(id)).messages.length, 4);
  });

  test('delete a message and what follows it; the page shows the version beside it, or what came before', async () => {
    const id = await newThread();
    await post(id, { content: 'One' });
    await post(id, { content: 'Two' });
    await post(id, { content: 'Three' });
    const { messages } = await shown(id);
    // A second answer to "Two", so "Two" has two branches under it.
    await events(await regenerate(id, messages[3].id));
    const withBranch = await shown(id);
    assert.equal(withBranch.messages.length, 4);

    // Deleting the regenerated answer: the first answer's branch is shown again, whole.
    const res = await messageRoute.DELETE(
      req('DELETE', `/api/threads/${id}/messages/${withBranch.messages[3].id}`),
      params({ id, messageId: withBranch.messages[3].id }),
    );
    assert.equal(res.status, 200);
    const view = await res.json();
    assert.deepEqual(
      view.messages.map((m: Msg) => m.content),
      ['One', 'Answer 1.', 'Two', 'Answer 2.', 'Three', 'Answer 3.'],
    );
    assert.equal(view.messages[3].branch, null);

    // Deleting "Two" takes everything after it; the thread ends at the first answer.
    const cut = await messageRoute.DELETE(
      req('DELETE', `/api/threads/${id}/messages/${messages[2].id}`),
      params({ id, messageId: messages[2].id }),
    );
    assert.deepEqual(
      (await cut.json()).messages.map((m: Msg) => m.content),
      ['One', 'Answer 1.'],
    );
    const count = async (table: 'messages' | 'turns' | 'toolCalls', name: string) =>
      (await storedRowsOf(rt.store, table, `SELECT id FROM ${name} WHERE thread_id = ?`, id)).length;
    assert.deepEqual(
      {
        messages: await count('messages', 'messages'),
        turns: await count('turns', 'turns'),
        calls: await count('toolCalls', 'tool_calls'),
      },
      { messages: 2, turns: 1, calls: 0 },
    );
    const found = await (await search.GET(req('GET', '/api/search?q=Three'))).json();
    assert.equal(found.results.length, 0, 'a deleted message is gone from search');
    // And the next message follows what is left.
    await post(id, { content: 'Four' });
    assert.deepEqual(lastRoundSaw(), ['user: One', 'assistant: Answer 1.', 'user: Four']);
  });

  test('export carries every branch; import brings the same tree back; search finds text on a branch not shown', async () => {
    const id = await newThread();
    await post(id, { content: 'Tell me about pelicans' });
    const { messages } = await shown(id);
    await post(id, { content: 'Tell me about flamingos instead', editOf: messages[0].id });
    await choose(id, messages[0].id);

    const found = await (await search.GET(req('GET', '/api/search?q=flamingos'))).json();
    assert.ok(
      found.results.some((r: { messageId: string }) => r.messageId !== messages[0].id),
      'the branch not shown is found',
    );

    const res = await exportRoute.GET(req('GET', `/x?format=json`), params({ id }));
    const json = await res.json();
    assert.deepEqual(
      json.messages.map((m: Msg) => m.content),
      ['Tell me about pelicans', 'Answer 1.'],
    );
    assert.deepEqual(
      json.otherMessages.map((m: Msg) => m.content),
      ['Tell me about flamingos instead', 'Answer 2.'],
    );

    // Into a fresh library: the same two branches, the same one shown.
    await makeRuntime({ llamaUrl: double.url, dataDir: makeTempDir('hearth-api') });
    const imported = await importRoute.POST(
      new Request('http://127.0.0.1:3000/api/import', {
        method: 'POST',
        body: JSON.stringify(json),
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    assert.equal(imported.status, 200, await imported.clone().text());
    const back = await shown(id);
    assert.deepEqual(
      back.messages.map((m: Msg) => m.content),
      ['Tell me about pelicans', 'Answer 1.'],
    );
    assert.equal(back.messages[0].branch?.ids.length, 2);
    const other = await choose(id, back.messages[0].branch!.ids[1]);
    assert.deepEqual(
      other.body.messages.map((m: Msg) => m.content),
      ['Tell me about flamingos instead', 'Answer 2.'],
    );
  });
});
