import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { filePath, filesDir } from '@/lib/attachments/files';
import { setRuntime, type Runtime } from '@/lib/server/runtime';
import * as attachmentsRoute from './attachments/route';
import { base, getThread, makeRuntime, newThread, params, req, send, type Ev } from './harness';
import * as messagesRoute from './threads/[id]/messages/route';
import * as threadRoute from './threads/[id]/route';

/** The library at scale through the routes: whole files, and what a thread's deletion takes with it. */

let double: LlamaDouble;
before(async () => {
  double = await startLlamaDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
});

async function upload(name: string, bytes: string | Uint8Array, type = 'text/plain') {
  const form = new FormData();
  form.set('file', new File([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], name, { type }));
  const res = await attachmentsRoute.POST(new Request(`${base}/api/attachments`, { method: 'POST', body: form }));
  return { status: res.status, body: await res.json() };
}

async function sendWith(threadId: string, content: string, attachmentIds: string[]): Promise<Ev[]> {
  const res = await messagesRoute.POST(req('POST', `/api/threads/${threadId}/messages`, { content, attachmentIds }), params({ id: threadId }));
  assert.equal(res.status, 200);
  const events: Ev[] = [];
  const { readSse } = await import('@/lib/client/sse');
  for await (const frame of readSse(res.body!)) events.push(JSON.parse(frame.data));
  return events;
}

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
  if (id && /line 40000/i.test(question)) return { toolCalls: [{ name: 'read_attachment', arguments: { id, from_line: 40000, to_line: 40001 } }] };
  return { content: 'I could not tell.' };
}

describe('whole files, however large', () => {
  let rt: Runtime;
  test('the context shows a large file\'s beginning and names the tools; grep counts every matching line exactly; read pages to any line', async () => {
    double.setScript(fileReader);
    rt = makeRuntime({ llamaUrl: double.url });
    const { text, planted } = bigLog(97);
    const up = await upload('payments.log', text);
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(up.body.lines, 80_000);
    assert.ok(up.body.size > 5_000_000);
    const id = await newThread();
    const evs = await sendWith(id, 'How many errors are in the attached log?', [up.body.id]);
    const sent = double.requests.filter((r) => !r.schema)[0];
    assert.match(String(sent.messages.at(-1)!.content), /This is only the beginning of payments\.log: it has 80000 lines[\s\S]*grep_attachment \{"id": "[0-9a-f-]{36}"/);
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result' && result.ok, String(JSON.stringify(result)));
    assert.equal((result.result as { matching_lines: number }).matching_lines, planted);
    const answer = evs.find((e) => e.type === 'message');
    assert.ok(answer?.type === 'message' && answer.content === `The log has ${planted} ERROR lines.`, String(JSON.stringify(evs.filter((e) => e.type !== 'delta'))));

    const more = await send(id, 'What is on line 40000 of that file?');
    const read = more.find((e) => e.type === 'tool_result');
    assert.ok(read?.type === 'tool_result' && read.ok, String(JSON.stringify(more.filter((e) => e.type !== 'delta'))));
    assert.match(String((read.result as { text: string }).text), /^ 40000\| 2026-11-30T12:00:00Z INFO request served in 12 ms request=40000\n 40001\|/);
  });

  test('a file from another thread cannot be read by id', async () => {
    double.setScript((req) => {
      if (req.schema) return persona(req);
      const other = String(req.messages.at(-1)?.content ?? '').match(/read ([0-9a-f-]{36})/)?.[1];
      if (other && !req.messages.some((m) => m.role === 'tool')) return { toolCalls: [{ name: 'read_attachment', arguments: { id: other } }] };
      return { content: 'done' };
    });
    rt = makeRuntime({ llamaUrl: double.url });
    const up = await upload('secret.txt', 'the other thread keeps this');
    const first = await newThread();
    await sendWith(first, 'here is a file', [up.body.id]);
    const second = await newThread();
    const evs = await send(second, `Please read ${up.body.id}`);
    const result = evs.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result' && !result.ok && /no file with the id/.test(result.error ?? ''), String(JSON.stringify(evs.filter((e) => e.type !== 'delta'))));
  });

  test('deleting a thread deletes the files sent in it, unless another thread sent the same file', async () => {
    double.setScript(undefined);
    rt = makeRuntime({ llamaUrl: double.url });
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
