import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { setRuntime, type Runtime } from '@/lib/services/runtime';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { makeRuntime, newThread, req, rounds, send } from './harness';
import * as health from './health/route';
import * as settingsRoute from './settings/route';
import * as checkModel from './settings/check-model/route';
import * as checkSearch from './settings/check-search/route';

/**
 * The Settings page's API: settings stored in SQLite over the environment's defaults, each
 * taking effect on the next turn without a restart; the live checks of a model server and of
 * SearXNG.
 */

let first: LlamaDouble;
let second: LlamaDouble;
let searx: SearxDouble;
let rt: Runtime;
let dataDir: string;

const runtime = () =>
  makeRuntime({ llamaUrl: first.url, searxUrl: searx.url, dataDir, env: { HEARTH_ASSISTANT_NAME: 'Hearth', HEARTH_LOCATION: 'Lyon' } });

before(async () => {
  [first, second, searx] = await Promise.all([
    startLlamaDouble({ slots: 2 }),
    startLlamaDouble({ slots: 4, modelId: 'second-model.gguf' }),
    startSearxDouble(),
  ]);
});
after(async () => {
  setRuntime(undefined);
  await Promise.all([first.close(), second.close(), searx.close()]);
});
beforeEach(async () => {
  dataDir = makeTempDir('hearth-settings');
  first.requests.length = 0;
  second.requests.length = 0;
  rt = await runtime();
});

async function patch(body: unknown) {
  const res = await settingsRoute.PATCH(req('PATCH', '/api/settings', body));
  return { status: res.status, body: await res.json() };
}
async function read() {
  const res = await settingsRoute.GET(req('GET', '/api/settings'));
  assert.equal(res.status, 200);
  return res.json();
}
/** The system message of the last conversation round the double was sent. */
function lastSystem(double: LlamaDouble): string {
  const round = rounds(double).at(-1);
  assert.ok(round, 'a conversation round reached this server');
  const system = round.messages.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}
const offered = (double: LlamaDouble) => (rounds(double).at(-1)?.tools ?? []).map((t) => t.function.name).sort();

describe('settings', () => {
  test('the environment gives the defaults; nothing is stored until the page changes something', async () => {
    const view = await read();
    assert.equal(view.settings.assistantName, 'Hearth');
    assert.equal(view.settings.location, 'Lyon');
    assert.equal(view.settings.timezone, 'UTC');
    assert.deepEqual(view.settings.modelServers, [{ url: first.url, model: '' }]);
    assert.equal(view.settings.searxngUrl, searx.url);
    assert.deepEqual(view.settings, view.defaults);
    assert.deepEqual(view.overridden, []);
    assert.ok(
      view.tools.some((t: { name: string }) => t.name === 'web_search'),
      'the tools that can be switched off are listed',
    );
  });

  test('who and where: a change takes effect on the next turn without a restart, and null goes back to the default', async () => {
    const id = await newThread();
    await send(id, 'Hello');
    assert.match(lastSystem(first), /You are Hearth,/);
    assert.match(lastSystem(first), /The user is in Lyon/);

    const changed = await patch({
      assistantName: 'Ember',
      userName: 'Camille',
      location: 'Montréal',
      timezone: 'America/Toronto',
      defaultInstructions: 'Answer in one short paragraph.',
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.overridden.sort(), ['assistantName', 'defaultInstructions', 'location', 'timezone', 'userName']);
    await send(id, 'Hello again');
    const system = lastSystem(first);
    assert.match(system, /You are Ember,/);
    assert.match(system, /The user is in Montréal/);
    assert.match(system, /The user's name is Camille\./);
    assert.match(system, /\(America\/Toronto\)/);
    assert.match(system, /The user's instructions for every conversation:\nAnswer in one short paragraph\./);

    // Kept across a restart.
    rt = await runtime();
    assert.equal((await read()).settings.assistantName, 'Ember');

    const reset = await patch({ assistantName: null, userName: null });
    assert.equal(reset.body.settings.assistantName, 'Hearth');
    await send(id, 'And once more');
    assert.match(lastSystem(first), /You are Hearth,/);
    assert.doesNotMatch(lastSystem(first), /Camille/);
  });

  test('model servers: the next turn goes to the new server; health reports it; the old one is asked nothing more', async () => {
    const changed = await patch({ modelServers: [{ url: second.url, model: 'second-model' }] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await send(await newThread(), 'Hello there');
    assert.equal(rounds(first).length, 0, 'nothing went to the first server');
    assert.equal(rounds(second).at(-1)?.body.model, 'second-model', 'the model name is asked for');
    const report = await (await health.GET(req('GET', '/api/health'))).json();
    assert.equal(report.model.url, second.url);
    assert.equal(report.model.id, 'second-model', 'the model asked for');
  });

  test('tools and web search: switched off, they are not offered; SearXNG off means no web_search', async () => {
    const id = await newThread();
    await send(id, 'Hello');
    assert.ok(offered(first).includes('web_search') && offered(first).includes('calculator'));
    await patch({ disabledTools: ['calculator', 'fetch_url'] });
    await send(id, 'Hello again');
    assert.ok(!offered(first).includes('calculator') && !offered(first).includes('fetch_url'), offered(first).join(','));
    assert.ok(offered(first).includes('web_search'));
    await patch({ searxngUrl: '' });
    await send(id, 'Hello a third time');
    assert.ok(!offered(first).includes('web_search'), 'no SearXNG, no web_search');
    assert.match(lastSystem(first), /Web search is off on this machine/);
  });

  test('the turn budget: with fuel for one model call, a turn that needs research ends out of budget', async () => {
    await patch({ turnFuel: 100 });
    const evs = await send(await newThread(), 'What is the price of bitcoin today?');
    const end = evs.at(-1);
    assert.equal(end?.type, 'error');
    assert.equal(end?.type === 'error' && end.code, 'budget_exhausted');
  });

  test('bad settings are 400 naming the field as the page labels it, in words, with its path; nothing changes', async () => {
    const before = await read();
    for (const [body, message, field] of [
      [{ modelServers: [] }, /^Model servers: give at least one model server\.$/, 'modelServers'],
      [{ modelServers: [{ url: 'ftp://x' }] }, /^Server 1 URL: must be an http\(s\) URL\.$/, 'modelServers.0.url'],
      [{ modelServers: [{ url: 'http://a:1' }, { url: 'http://a:1/' }] }, /^Model servers: a server is listed twice\.$/, 'modelServers'],
      [{ timezone: 'Mars/Olympus' }, /^Timezone: must be an IANA timezone such as Europe\/Paris\.$/, 'timezone'],
      [{ assistantName: '  ' }, /^Name: give the assistant a name\.$/, 'assistantName'],
      [{ disabledTools: ['rm_rf'] }, /^Tools: must be one of: /, 'disabledTools.0'],
      [{ turnFuel: 5 }, /^Fuel: must be at least 100\.$/, 'turnFuel'],
      [{ nonsense: 1 }, /^Settings: has a field Hearth does not know: nonsense\.$/, undefined],
      [{}, /^Settings: give at least one setting\.$/, undefined],
    ] as const) {
      const res = await patch(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.error.message, message, JSON.stringify(body));
      assert.equal(res.body.error.field, field, JSON.stringify(body));
    }
    assert.deepEqual(await read(), before);
  });

  test('a stored value that no longer passes its check falls back to the default, alone', async () => {
    await rt.store.writeSettings({ set: { assistantName: 'Ember', timezone: 'Not/AZone' }, reset: [], now: 1 });
    rt = await runtime();
    const view = await read();
    assert.equal(view.settings.assistantName, 'Ember');
    assert.equal(view.settings.timezone, 'UTC');
    assert.deepEqual(view.overridden, ['assistantName']);
  });

  test('live checks: a model server says what it serves; SearXNG answers a test search; failures are said in words', async () => {
    const ok = await checkModel.POST(req('POST', '/api/settings/check-model', { url: second.url }));
    assert.equal(ok.status, 200);
    const report = await ok.json();
    assert.equal(report.reachable, true);
    assert.equal(report.id, 'second-model.gguf');
    assert.equal(report.slots, 4);
    assert.equal(typeof report.contextSize, 'number');
    assert.deepEqual(
      report.models.map((m: { id: string; state: unknown }) => [m.id, m.state]),
      [['second-model.gguf', null]],
      'a one-model server offers its one model',
    );
    // A router offers several, each with its state; checking it loads none of them.
    const router = await startLlamaDouble({ router: { models: [{ id: 'qwen3-4b', loaded: true }, { id: 'qwen3-30b-a3b' }] } });
    try {
      const routed = await (await checkModel.POST(req('POST', '/api/settings/check-model', { url: router.url }))).json();
      assert.equal(routed.reachable, true);
      assert.deepEqual(
        routed.models.map((m: { id: string; state: unknown }) => [m.id, m.state]),
        [
          ['qwen3-4b', 'loaded'],
          ['qwen3-30b-a3b', 'unloaded'],
        ],
      );
      assert.deepEqual(router.router!.loads, []);
    } finally {
      await router.close();
    }
    const dead = await (await checkModel.POST(req('POST', '/api/settings/check-model', { url: 'http://127.0.0.1:9/v1' }))).json();
    assert.equal(dead.reachable, false);
    assert.ok(dead.error, 'the reason is given');
    assert.equal((await checkModel.POST(req('POST', '/api/settings/check-model', { url: 'not a url' }))).status, 400);

    const search = await (await checkSearch.POST(req('POST', '/api/settings/check-search', { url: searx.url }))).json();
    assert.equal(search.ok, true);
    assert.ok(search.results > 0, 'the stand-in found something');
    const nothing = await (await checkSearch.POST(req('POST', '/api/settings/check-search', { url: 'http://127.0.0.1:9' }))).json();
    assert.equal(nothing.ok, false);
    assert.match(nothing.error, /no answer/);
    const notSearx = await (await checkSearch.POST(req('POST', '/api/settings/check-search', { url: first.url }))).json();
    assert.equal(notSearx.ok, false);
  });
});
