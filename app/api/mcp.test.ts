import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { startWeatherServer, type WeatherServer } from '@/e2e/mcp/weather-server';
import { readSse } from '@/lib/contract/sse';
import type { Runtime } from '@/lib/services/runtime';
import { setRuntime } from '@/lib/services/runtime';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { makeRuntime, newThread, params, req, rounds, type Ev } from './harness';
import * as healthRoute from './health/route';
import * as messagesRoute from './threads/[id]/messages/route';
import * as approvalsRoute from './threads/[id]/approvals/route';
import * as toolServersRoute from './tool-servers/route';
import * as threadRoute from './threads/[id]/route';
import * as threadToolsRoute from './threads/[id]/tools/route';
import * as toolServerRoute from './tool-servers/[name]/route';

/**
 * The user's MCP servers through the route handlers (issue 29): the repository's fixture
 * servers, written with the SDK (notes over stdio, weather over Streamable HTTP), called from
 * turns against the llama-server double with the model's arguments.
 */

const NOTES = path.resolve(import.meta.dirname, '../../e2e/mcp/notes-server.mjs');
let weather: WeatherServer;
let double: LlamaDouble;
let rt: Runtime;
let configFile: string;
/** What the model calls in its first round, by question (the double is scripted per test). */
let plan: (req: DoubleRequest) => DoubleReply;

before(async () => {
  weather = await startWeatherServer();
  double = await startLlamaDouble({
    script: (r) => (r.schema ? persona(r) : plan(r)),
  });
  const dir = makeTempDir('hearth-mcp');
  configFile = path.join(dir, 'mcp.json');
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        notes: { command: process.execPath, args: [NOTES], env: { NOTES_TOKEN: 'sekrit-token' } },
        weather: { url: weather.url, headers: { Authorization: 'Bearer sekrit-header' } },
      },
    }),
  );
  rt = await makeRuntime({ llamaUrl: double.url, dataDir: dir, env: { HEARTH_MCP_CONFIG: configFile, HEARTH_APPROVAL_TIMEOUT_S: '30' } });
  await ready(['notes', 'weather']);
});
after(async () => {
  await rt.toolServers.close();
  setRuntime(undefined);
  await double.close();
  await weather.close();
});

/** Resolves once these servers are ready (the hub says when anything changes). */
function ready(names: string[]): Promise<void> {
  const done = () => names.every((n) => rt.toolServers.hub.statuses().find((s) => s.name === n)?.state === 'ready');
  return new Promise((resolve) => {
    if (done()) return resolve();
    const off = rt.toolServers.hub.onChange(() => {
      if (done()) {
        off();
        resolve();
      }
    });
  });
}

/** A first round that calls these tools, then an answer naming what came back. */
function calls(...list: { name: string; arguments: Record<string, unknown> }[]) {
  return (r: DoubleRequest): DoubleReply =>
    r.messages.some((m) => m.role === 'tool') ? { content: 'Done: I used the tools.' } : { toolCalls: list };
}

/** Runs a turn, answering each approval as `answer` says, and gives back its events. */
async function turn(
  threadId: string,
  content: string,
  answer?: (e: Extract<Ev, { type: 'approval_needed' }>) => { allow: boolean; always?: boolean } | null,
) {
  const res = await messagesRoute.POST(req('POST', `/api/threads/${threadId}/messages`, { content }), params({ id: threadId }));
  assert.equal(res.status, 200);
  const evs: Ev[] = [];
  for await (const frame of readSse(res.body!)) {
    const e = JSON.parse(frame.data) as Ev;
    evs.push(e);
    if (e.type === 'approval_needed' && answer) {
      const a = answer(e);
      if (a) {
        const r = await approvalsRoute.POST(
          req('POST', `/api/threads/${threadId}/approvals`, { callId: e.callId, ...a }),
          params({ id: threadId }),
        );
        assert.equal(r.status, 200, await r.clone().text());
      }
    }
  }
  return evs;
}
const results = (evs: Ev[]) => evs.filter((e): e is Extract<Ev, { type: 'tool_result' }> => e.type === 'tool_result');

describe('MCP servers', () => {
  test('listed with their tools and states, secrets masked; a schema the grammar cannot take is left out with the reason; health says how each is', async () => {
    const list = (await (await toolServersRoute.GET(req('GET', '/api/tool-servers'))).json()) as {
      servers: {
        name: string;
        config: Record<string, unknown>;
        status: { state: string; transport: string; tools: { name: string; modelName: string; approval: string; problem?: string }[] };
      }[];
    };
    const notes = list.servers.find((s) => s.name === 'notes')!;
    const weatherServer = list.servers.find((s) => s.name === 'weather')!;
    assert.deepEqual(
      [notes.status.state, notes.status.transport, weatherServer.status.state, weatherServer.status.transport],
      ['ready', 'stdio', 'ready', 'http'],
    );
    assert.deepEqual(notes.config.env, { NOTES_TOKEN: '••••••' });
    assert.deepEqual(weatherServer.config.headers, { Authorization: '••••••' });
    assert.doesNotMatch(JSON.stringify(list), /sekrit/);
    const tool = (name: string) => notes.status.tools.find((t) => t.name === name)!;
    assert.equal(tool('add_note').approval, 'ask', 'not marked read-only: it asks');
    assert.equal(tool('list_notes').approval, 'auto');
    assert.match(tool('broken_schema').problem ?? '', /nests deeper than/);
    assert.equal(tool('remote_ref').problem, undefined, 'its $ref became any value');
    assert.equal(tool('echo').modelName, 'notes__echo');
    const health = (await (await healthRoute.GET(req('GET', '/api/health'))).json()) as {
      toolServers: { name: string; state: string; tools: number }[];
    };
    assert.deepEqual(
      health.toolServers.map((s) => [s.name, s.state]),
      [
        ['notes', 'ready'],
        ['weather', 'ready'],
      ],
    );
  });

  test('called from a turn with the model’s arguments, beside Hearth’s own tools; two servers’ echo never collide; isError is an error result', async () => {
    plan = calls(
      { name: 'weather__get_forecast', arguments: { city: 'Lyon' } },
      { name: 'notes__echo', arguments: { text: 'hi' } },
      { name: 'weather__echo', arguments: { text: 'hi' } },
      { name: 'notes__fail', arguments: {} },
    );
    const id = await newThread();
    const evs = await turn(id, 'Use my tools please.');
    assert.equal(evs.at(-1)!.type, 'done', JSON.stringify(evs.at(-1)));
    const byName = new Map(results(evs).map((r) => [r.name, r]));
    assert.match(JSON.stringify(byName.get('weather__get_forecast')?.result), /In Lyon today: 18°C/);
    assert.match(JSON.stringify(byName.get('notes__echo')?.result), /notes echo: hi/);
    assert.match(JSON.stringify(byName.get('weather__echo')?.result), /weather echo: hi/);
    assert.equal(byName.get('notes__fail')?.ok, false);
    assert.match(byName.get('notes__fail')?.error ?? '', /the notebook is locked/);
    assert.deepEqual(weather.calls.filter((c) => c.tool === 'get_forecast').at(-1)?.args, { city: 'Lyon' });
    const offered = rounds(double)
      .at(-2)!
      .tools.map((t) => t.function.name);
    for (const name of ['calculator', 'weather__get_forecast', 'notes__add_note', 'notes__echo', 'weather__echo'])
      assert.ok(offered.includes(name), name);
    assert.ok(!offered.includes('notes__broken_schema'), 'left out');
    const schema = rounds(double)
      .at(-2)!
      .tools.find((t) => t.function.name === 'notes__add_note')!.function.parameters as { properties: { text: Record<string, unknown> } };
    assert.equal(schema.properties.text.pattern, undefined, 'the pattern the grammar would refuse is gone');
  });

  test('a call that asks first waits for the user: allowed it runs, denied the model hears so and the turn still answers', async () => {
    plan = calls({ name: 'notes__add_note', arguments: { text: 'buy milk' } });
    const id = await newThread();
    const allowed = await turn(id, 'Note that I need milk.', () => ({ allow: true }));
    const asked = allowed.find((e) => e.type === 'approval_needed') as Extract<Ev, { type: 'approval_needed' }>;
    assert.deepEqual([asked.server, asked.tool, JSON.parse(asked.arguments)], ['notes', 'notes__add_note', { text: 'buy milk' }]);
    assert.ok(
      allowed.findIndex((e) => e.type === 'approval') < allowed.findIndex((e) => e.type === 'tool_result'),
      'nothing ran before it was allowed',
    );
    assert.match(JSON.stringify(results(allowed)[0].result), /Noted: buy milk/);

    plan = calls({ name: 'notes__add_note', arguments: { text: 'buy eggs' } });
    const denied = await turn(id, 'And eggs.', () => ({ allow: false }));
    assert.equal(results(denied)[0].ok, false);
    assert.match(results(denied)[0].error ?? '', /the user declined/);
    assert.equal(denied.at(-1)!.type, 'done');
    plan = calls({ name: 'notes__list_notes', arguments: {} });
    const listed = await turn(id, 'What is in my notebook?');
    assert.match(JSON.stringify(results(listed)[0].result), /1\. buy milk/);
    assert.doesNotMatch(JSON.stringify(results(listed)[0].result), /eggs/, 'the denied call never ran');
    const unknown = await approvalsRoute.POST(req('POST', `/api/threads/${id}/approvals`, { callId: 'nope', allow: true }), params({ id }));
    assert.equal(unknown.status, 404);
  });

  test('a server that says its tools changed is listed again, and the new tool joins the next turn', async () => {
    const changed = new Promise<void>((resolve) => {
      const off = rt.toolServers.hub.onChange(() => {
        if (rt.toolServers.hub.tools().some((t) => t.name === 'secret_page')) {
          off();
          resolve();
        }
      });
    });
    plan = calls({ name: 'notes__unlock', arguments: {} });
    await turn(await newThread(), 'Unlock the notebook.');
    await changed;
    plan = calls({ name: 'notes__secret_page', arguments: {} });
    const evs = await turn(await newThread(), 'Read the secret page.');
    assert.match(JSON.stringify(results(evs)[0].result), /the secret page/);
  });

  test('a thread can switch tools off for itself only', async () => {
    const id = await newThread();
    const patched = await threadRoute.PATCH(
      req('PATCH', `/api/threads/${id}`, { disabledTools: ['weather__get_forecast', 'calculator'] }),
      params({ id }),
    );
    assert.equal(patched.status, 200);
    const listed = (await (await threadToolsRoute.GET(req('GET', `/api/threads/${id}/tools`), params({ id }))).json()) as {
      tools: { name: string; source: string; enabled: boolean }[];
    };
    assert.deepEqual(
      listed.tools.filter((t) => !t.enabled).map((t) => t.name),
      ['calculator', 'weather__get_forecast'],
    );
    assert.equal(listed.tools.find((t) => t.name === 'weather__echo')?.source, 'weather');
    plan = () => ({ content: 'Nothing to call.' });
    await turn(id, 'Hello there.');
    const offered = rounds(double)
      .at(-1)!
      .tools.map((t) => t.function.name);
    assert.ok(!offered.includes('weather__get_forecast') && !offered.includes('calculator'), offered.join(','));
    assert.ok(offered.includes('weather__echo'));
    await turn(await newThread(), 'Hello elsewhere.');
    assert.ok(
      rounds(double)
        .at(-1)!
        .tools.some((t) => t.function.name === 'weather__get_forecast'),
      'other threads keep it',
    );
  });

  test('a call nobody answers counts as denied once the wait runs out', async () => {
    const dir = makeTempDir('hearth-mcp-timeout');
    const file = path.join(dir, 'mcp.json');
    // The forecast asks first here; nobody answers; the wait is one second.
    fs.writeFileSync(
      file,
      JSON.stringify({ mcpServers: { weather: { url: weather.url, hearth: { approval: { get_forecast: 'ask' } } } } }),
    );
    const other = await makeRuntime({
      llamaUrl: double.url,
      dataDir: dir,
      env: { HEARTH_MCP_CONFIG: file, HEARTH_APPROVAL_TIMEOUT_S: '1' },
    });
    try {
      await new Promise<void>((resolve) => {
        const done = () => other.toolServers.hub.statuses()[0]?.state === 'ready';
        if (done()) return resolve();
        const off = other.toolServers.hub.onChange(() => done() && (off(), resolve()));
      });
      const before = weather.calls.length;
      plan = calls({ name: 'weather__get_forecast', arguments: { city: 'Oslo' } });
      const evs = await turn(await newThread(), 'Forecast for Oslo?');
      const answer = evs.find((e) => e.type === 'approval') as Extract<Ev, { type: 'approval' }>;
      assert.equal(answer.allow, false);
      assert.match(results(evs)[0].error ?? '', /declined/);
      assert.equal(weather.calls.length, before, 'it never ran');
    } finally {
      await other.toolServers.close();
      setRuntime(rt);
    }
  });

  test('a server killed mid-turn: its call fails, the turn answers, and the server is started again', async () => {
    plan = calls({ name: 'notes__stop_server', arguments: {} });
    const id = await newThread();
    const evs = await turn(id, 'Stop the notes server.');
    assert.equal(results(evs)[0].ok, false);
    assert.equal(evs.at(-1)!.type, 'done');
    await ready(['notes']);
  });

  test('a server added, switched off and removed from Settings is written back to mcp.json; a masked secret keeps the stored one', async () => {
    const put = await toolServerRoute.PUT(
      req('PUT', '/api/tool-servers/notes', {
        server: { command: process.execPath, args: [NOTES], env: { NOTES_TOKEN: '••••••' }, hearth: { disabled: true } },
      }),
      params({ name: 'notes' }),
    );
    assert.equal(put.status, 200);
    const file = JSON.parse(fs.readFileSync(configFile, 'utf8')) as {
      mcpServers: Record<string, { env?: Record<string, string>; hearth?: { disabled?: boolean } }>;
    };
    assert.deepEqual(file.mcpServers.notes.env, { NOTES_TOKEN: 'sekrit-token' }, 'the secret stays as it was');
    assert.equal(file.mcpServers.notes.hearth?.disabled, true);
    assert.equal(rt.toolServers.hub.statuses().find((s) => s.name === 'notes')?.state, 'off');
    const bad = await toolServerRoute.PUT(
      req('PUT', '/api/tool-servers/x', { server: { command: 'a', url: 'http://b' } }),
      params({ name: 'x' }),
    );
    assert.equal(bad.status, 400);
    const gone = await toolServerRoute.DELETE(req('DELETE', '/api/tool-servers/notes'), params({ name: 'notes' }));
    assert.equal(gone.status, 204);
    assert.equal(Object.hasOwn((JSON.parse(fs.readFileSync(configFile, 'utf8')) as { mcpServers: object }).mcpServers, 'notes'), false);
  });
});
