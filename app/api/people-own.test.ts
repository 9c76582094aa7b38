import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { endpoints, type Endpoint, type EndpointName } from '@/lib/contract/endpoints';
import type { SettingsView, UsageView } from '@/lib/contract/responses';
import { PERSONAL_SETTINGS } from '@/lib/contract/settings';
import { readSse } from '@/lib/contract/sse';
import type { Role } from '@/lib/contract/statuses';
import type { Hearth } from '@/lib/services/runtime';
import { settingsOfRequest } from '@/lib/services/runtime';
import { startLlamaDouble } from '@/e2e/double/llama-double';
import { base, makeRuntime, rounds, sharedDouble, turnRequests, type Ev } from './harness';

/**
 * What the owner decides for each person and what each person has of their own (issue 48, items
 * 5 and 7), through the routes: limits (turns a day, fuel a turn) that stop a turn with a clear
 * message, usage by day and model (each their own, the owner everyone's, as CSV), each person's
 * own settings over the household's, and the tools and models members may use.
 */

const PASSWORD = 'correct horse battery staple';
const models = sharedDouble();
let hearth: Hearth;
const cookies = new Map<string, string>();
const ids = new Map<string, string>();

/** Asks an endpoint as a person, with its path parameters, a query and a JSON body. */
async function ask(
  who: string,
  name: EndpointName,
  { params = {}, query = '', body }: { params?: Record<string, string>; query?: string; body?: unknown } = {},
): Promise<Response> {
  const e: Endpoint = endpoints[name];
  const path = e.path.replace(/:(\w+)/g, (_, p: string) => params[p]);
  const route = (await import(`./${e.path.slice('/api/'.length).replace(/:(\w+)/g, '[$1]')}/route`)) as Record<
    string,
    (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
  >;
  const headers: Record<string, string> = who ? { cookie: cookies.get(who)! } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  return route[e.method](
    new Request(`${base}${path}${query}`, { method: e.method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    { params: Promise.resolve(params) },
  );
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

/** A question in a new thread of the person's; its events once the turn ended. */
async function turn(who: string, content = 'hello there'): Promise<Ev[]> {
  const { id } = await json<{ id: string }>(await ask(who, 'createThread', { body: {} }), 201);
  const res = await ask(who, 'sendMessage', { params: { id }, body: { content } });
  assert.equal(res.status, 200, res.status === 200 ? '' : await res.clone().text());
  const out: Ev[] = [];
  for await (const frame of readSse(res.body!)) out.push(JSON.parse(frame.data) as Ev);
  return out;
}

describe('what the owner decides and what is each person’s own', () => {
  before(async () => {
    hearth = (await makeRuntime({ llamaUrl: models.double.url })).hearth;
    const cast: [string, Role][] = [
      ['olive', 'owner'],
      ['ann', 'member'],
      ['ben', 'member'],
      ['adam', 'admin'],
    ];
    for (const [username, role] of cast) ids.set(username, (await hearth.auth.people.add({ username, role, password: PASSWORD })).id);
    for (const [username] of cast) {
      const res = await ask('', 'login', { body: { username, password: PASSWORD } });
      assert.equal(res.status, 200);
      cookies.set(username, /hearth_session=[^;]*/.exec(res.headers.get('set-cookie') ?? '')![0]);
    }
  });

  describe('limits the owner sets on a person', () => {
    test('turns a day: the turn past the limit is refused with a clear message; others are not held', async () => {
      const set = await json<{ turnsPerDay: number }>(
        await ask('olive', 'patchPerson', { params: { id: ids.get('ann')! }, body: { turnsPerDay: 2 } }),
      );
      assert.equal(set.turnsPerDay, 2);
      // A member cannot set anyone's limits, their own included; nor an admin (who could lift their own).
      const own = await ask('ann', 'patchPerson', { params: { id: ids.get('ann')! }, body: { turnsPerDay: null } });
      assert.equal(own.status, 403);
      for (const target of ['ann', 'adam']) {
        const byAdmin = await ask('adam', 'patchPerson', { params: { id: ids.get(target)! }, body: { turnsPerDay: null } });
        assert.equal(byAdmin.status, 403);
        assert.match(
          ((await byAdmin.json()) as { error: { message: string } }).error.message,
          /Only this Hearth's owner sets people's limits/,
        );
      }
      assert.equal((await hearth.auth.people.limitsOf(ids.get('ann')!)).turnsPerDay, 2, 'nothing changed');

      await turn('ann');
      await turn('ann');
      const { id } = await json<{ id: string }>(await ask('ann', 'createThread', { body: {} }), 201);
      const refused = await ask('ann', 'sendMessage', { params: { id }, body: { content: 'one more' } });
      assert.equal(refused.status, 429);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'limit_reached');
      assert.match(error.message, /used your 2 turns for today, the limit this Hearth's owner set for you/);
      // Nothing was kept of the refused question.
      const thread = await json<{ messages: unknown[] }>(await ask('ann', 'getThread', { params: { id } }));
      assert.equal(thread.messages.length, 0);
      // Deleting the threads does not give the turns back: usage is kept apart from them.
      const listed = await json<{ threads: { id: string }[] }>(await ask('ann', 'listThreads'));
      for (const t of listed.threads) await ask('ann', 'deleteThread', { params: { id: t.id } });
      const { id: again } = await json<{ id: string }>(await ask('ann', 'createThread', { body: {} }), 201);
      assert.equal((await ask('ann', 'sendMessage', { params: { id: again }, body: { content: 'and now?' } })).status, 429);
      // Ben has no limit.
      const bens = await turn('ben');
      assert.ok(bens.some((e) => e.type === 'done'));
      // Lifted: Ann goes on.
      await json(await ask('olive', 'patchPerson', { params: { id: ids.get('ann')! }, body: { turnsPerDay: null } }));
      assert.ok((await turn('ann')).some((e) => e.type === 'done'));
    });

    test('fuel a turn: a turn past it stops, saying it is the limit the owner set', async () => {
      await json(await ask('olive', 'patchPerson', { params: { id: ids.get('ben')! }, body: { fuelPerTurn: 50 } }));
      const evs = await turn('ben');
      const stopped = evs.find((e) => e.type === 'error') as (Ev & { code: string; message: string }) | undefined;
      assert.equal(stopped?.code, 'budget_exhausted');
      assert.match(stopped.message, /ran out of fuel \(0 of 50 used\).*the limit this Hearth's owner set for your turns/);
      // Above the household's budget, the budget rules and nothing is said of a personal limit.
      await json(await ask('olive', 'patchPerson', { params: { id: ids.get('ben')! }, body: { fuelPerTurn: 1_000_000 } }));
      assert.ok((await turn('ben')).some((e) => e.type === 'done'));
      await json(await ask('olive', 'patchPerson', { params: { id: ids.get('ben')! }, body: { fuelPerTurn: null } }));
    });
  });

  describe('usage', () => {
    test('each person sees their own by day and model; the owner sees everyone’s, and as CSV', async () => {
      const anns = await json<UsageView>(await ask('ann', 'getUsage'));
      assert.ok(anns.lines.length > 0);
      assert.ok(anns.lines.every((l) => l.username === 'ann'));
      const annTurns = anns.lines.reduce((n, l) => n + l.turns, 0);
      // Two turns, then a third after the limit was lifted (the refused ones never began).
      assert.equal(annTurns, 3);
      assert.ok(
        anns.lines.every((l) => l.promptTokens > 0 && l.generatedTokens > 0 && l.model !== ''),
        JSON.stringify(anns.lines),
      );
      assert.deepEqual(anns.limits, { turnsPerDay: null, fuelPerTurn: null });

      const everyone = await json<UsageView>(await ask('olive', 'everyonesUsage'));
      const by = (name: string) => everyone.lines.filter((l) => l.username === name).reduce((n, l) => n + l.turns, 0);
      assert.equal(by('ann'), 3);
      assert.equal(by('ben'), 3);
      assert.equal(by('olive'), 0);
      // Only the owner sees everyone's.
      assert.equal((await ask('ann', 'everyonesUsage')).status, 403);
      assert.equal((await ask('ann', 'everyonesUsageCsv')).status, 403);

      const csv = await ask('olive', 'everyonesUsageCsv', { query: '?days=7' });
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(
        csv.headers.get('content-disposition') ?? '',
        /attachment; filename="hearth-usage-everyone-from-\d{4}-\d{2}-\d{2}\.csv"/,
      );
      const lines = (await csv.text()).trim().split('\r\n');
      assert.equal(lines[0], 'person,day,model,turns,prompt_tokens,generated_tokens,model_seconds');
      assert.ok(lines.some((l) => l.startsWith('ann,')));
      assert.ok(lines.some((l) => l.startsWith('ben,')));
      const own = await (await ask('ben', 'usageCsv')).text();
      assert.ok(!own.includes('ann,'), 'a member’s CSV is their own');
      assert.equal((await ask('olive', 'getUsage', { query: '?days=0' })).status, 400);
    });
  });

  describe('each person’s own settings', () => {
    test('a member changes their own (name, instructions, thinking, memory), not the household’s; the turn follows each person’s', async () => {
      const mine = await json<SettingsView>(
        await ask('ann', 'patchSettings', { body: { userName: 'Ann', defaultInstructions: 'Answer in French.', memory: false } }),
      );
      assert.equal(mine.settings.userName, 'Ann');
      assert.deepEqual([...mine.editable].sort(), [...PERSONAL_SETTINGS].sort());
      assert.ok(mine.overridden.includes('userName'));
      const refused = await ask('ann', 'patchSettings', { body: { userName: 'Annie', assistantName: 'Ann’s own' } });
      assert.equal(refused.status, 403);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /owner or an admin changes Name/);
      // The refused patch changed nothing, not even the setting she may change.
      assert.equal((await json<SettingsView>(await ask('ann', 'getSettings'))).settings.userName, 'Ann');

      // The owner's own and Ben's are not Ann's.
      assert.equal((await json<SettingsView>(await ask('olive', 'getSettings'))).settings.userName, '');
      assert.equal((await json<SettingsView>(await ask('ben', 'getSettings'))).settings.userName, '');
      // The household's settings the owner changes reach everyone.
      await json(await ask('olive', 'patchSettings', { body: { assistantName: 'Hestia', userName: 'Olive' } }));
      const anns = await json<SettingsView>(await ask('ann', 'getSettings'));
      assert.equal(anns.settings.assistantName, 'Hestia');
      assert.equal(anns.settings.userName, 'Ann');

      await json(await ask('ann', 'addMemory', { body: { text: 'Ann keeps bees' } }), 201);
      await turn('ann', 'what do you know about me?');
      const annsRound = rounds(models.double).at(-1)!;
      const system = JSON.stringify(annsRound.messages[0]);
      assert.match(system, /Ann/);
      assert.match(system, /Answer in French/);
      assert.match(system, /Hestia/);
      assert.doesNotMatch(system, /Olive/);
      // Memory off: no remembered fact is given, and the remember tool is not offered.
      assert.doesNotMatch(JSON.stringify(annsRound.messages), /keeps bees/);
      assert.ok(!annsRound.tools.some((t) => t.function.name === 'remember'));

      await turn('olive');
      const olives = rounds(models.double).at(-1)!;
      assert.match(JSON.stringify(olives.messages[0]), /Olive/);
      assert.doesNotMatch(JSON.stringify(olives.messages[0]), /French/);
      assert.ok(olives.tools.some((t) => t.function.name === 'remember'));
    });

    test('the owner decides which tools and models members may use', async () => {
      await json(
        await ask('olive', 'patchSettings', { body: { memberDisabledTools: ['calculator'], memberModels: ['a-model-not-served'] } }),
      );
      await turn('ben');
      assert.ok(
        !rounds(models.double)
          .at(-1)!
          .tools.some((t) => t.function.name === 'calculator'),
        'members are not offered it',
      );
      await turn('olive');
      assert.ok(
        rounds(models.double)
          .at(-1)!
          .tools.some((t) => t.function.name === 'calculator'),
        'the owner still is',
      );

      const served = await json<{ models: { id: string }[] }>(await ask('olive', 'listModels'));
      assert.ok(served.models.length > 0);
      const bens = await json<{ models: { id: string }[] }>(await ask('ben', 'listModels'));
      assert.deepEqual(bens.models, [], 'the picker lists only what members may choose');
      const { id } = await json<{ id: string }>(await ask('ben', 'createThread', { body: {} }), 201);
      const chosen = await ask('ben', 'patchThread', { params: { id }, body: { model: served.models[0].id } });
      assert.equal(chosen.status, 403);
      assert.match(((await chosen.json()) as { error: { message: string } }).error.message, /not let members choose/);
      const { id: olivesThread } = await json<{ id: string }>(await ask('olive', 'createThread', { body: {} }), 201);
      await json(await ask('olive', 'patchThread', { params: { id: olivesThread }, body: { model: served.models[0].id } }));
      await json(await ask('olive', 'patchSettings', { body: { memberDisabledTools: null, memberModels: null } }));
    });

    test('a thread that chose a model members may no longer choose: its turns go to the default model', async () => {
      // A server of several models (llama-server's router mode) for this test, then the one of the others again.
      const router = await startLlamaDouble({ router: { models: [{ id: 'small', loaded: true }, { id: 'large' }] } });
      try {
        await json(await ask('olive', 'patchSettings', { body: { modelServers: [{ url: router.url, model: '' }] } }));
        const { id } = await json<{ id: string }>(await ask('ben', 'createThread', { body: {} }), 201);
        await json(await ask('ben', 'patchThread', { params: { id }, body: { model: 'large' } }));
        await json(await ask('olive', 'patchSettings', { body: { memberModels: ['small'] } }));
        const res = await ask('ben', 'sendMessage', { params: { id }, body: { content: 'still there?' } });
        for await (const frame of readSse(res.body!)) assert.ok(frame);
        const asked = turnRequests(router).map((r) => r.body.model);
        assert.ok(asked.length > 0);
        assert.ok(!asked.includes('large'), `no request named the model members may not choose: ${asked.join(', ')}`);
      } finally {
        await json(await ask('olive', 'patchSettings', { body: { modelServers: null, memberModels: null } }));
        await router.close();
      }
    });

    test('a page shows the person’s own settings, never the owner’s own', async () => {
      await (await hearth.as((await hearth.auth.people.owner())!)).settings.update({ location: 'Oslo' }, Date.now());
      await (await hearth.as({ id: ids.get('ann')!, username: 'ann', role: 'member' })).settings.update({ location: 'Lima' }, Date.now());
      assert.equal((await settingsOfRequest(new Headers({ cookie: cookies.get('ann')! }))).location, 'Lima');
      assert.equal((await settingsOfRequest(new Headers({ cookie: cookies.get('ben')! }))).location, '');
      assert.equal((await settingsOfRequest(new Headers({ cookie: cookies.get('olive')! }))).location, 'Oslo');
      assert.equal((await settingsOfRequest(new Headers())).location, '', 'no one logged in: no one’s own');
    });

    test('what an import into a member’s own library proposes for their own settings waits for them, not the owner', async () => {
      await json(await ask('ann', 'patchSettings', { body: { defaultInstructions: 'Answer in French.' } }));
      const file = await (await ask('ann', 'exportLibrary')).text();
      await json(await ask('ann', 'patchSettings', { body: { defaultInstructions: 'Answer in German.' } }));
      const importRoute = await import('./import/route');
      const imported = await importRoute.POST(
        new Request(`${base}/api/import`, {
          method: 'POST',
          headers: { cookie: cookies.get('ann')!, 'content-type': 'application/x-ndjson' },
          body: file,
        }),
        { params: Promise.resolve({}) },
      );
      const summary = (await imported.json()) as { proposed: string[] };
      assert.ok(summary.proposed.includes('defaultInstructions'), JSON.stringify(summary));
      const waiting = await json<SettingsView>(await ask('ann', 'getSettings'));
      assert.deepEqual(
        waiting.proposals.map((p) => [p.key, p.value]),
        [['defaultInstructions', 'Answer in French.']],
      );
      assert.ok(!(await json<SettingsView>(await ask('olive', 'getSettings'))).proposals.some((p) => p.key === 'defaultInstructions'));
      // Household proposals are not hers to decide.
      assert.equal((await ask('ann', 'decideProposals', { body: { apply: ['modelServers'] } })).status, 403);
      const applied = await json<SettingsView>(await ask('ann', 'decideProposals', { body: { apply: ['defaultInstructions'] } }));
      assert.equal(applied.settings.defaultInstructions, 'Answer in French.');
      assert.deepEqual(applied.proposals, []);
      assert.notEqual((await json<SettingsView>(await ask('olive', 'getSettings'))).settings.defaultInstructions, 'Answer in French.');
    });
  });

  describe('a knowledge collection shared with everyone', () => {
    test('the owner shares one of theirs; others search it, read its passages and their turns use it, but cannot change it', async () => {
      const form = new FormData();
      form.set(
        'file',
        new Blob(["The boiler's reset button is red and sits behind the left panel."], { type: 'text/plain' }),
        'boiler.txt',
      );
      const attachmentsRoute = await import('./attachments/route');
      const uploaded = await attachmentsRoute.POST(
        new Request(`${base}/api/attachments`, { method: 'POST', headers: { cookie: cookies.get('olive')! }, body: form }),
        { params: Promise.resolve({}) },
      );
      const { id: attachmentId } = (await uploaded.json()) as { id: string };
      const manuals = await json<{ id: string }>(await ask('olive', 'createCollection', { body: { name: 'House manuals' } }), 201);
      const params = { id: manuals.id };
      await json(await ask('olive', 'addCollectionFiles', { params, body: { attachmentId } }), 201);
      for (const library of hearth.libraries()) await library.knowledge.indexer.settled();

      // Not shared yet: another person's id, as any unknown one.
      assert.equal((await ask('ann', 'getCollection', { params })).status, 404);
      // A member cannot share (not even their own).
      const annsOwn = await json<{ id: string }>(await ask('ann', 'createCollection', { body: { name: 'Ann’s notes' } }), 201);
      assert.equal((await ask('ann', 'patchCollection', { params: { id: annsOwn.id }, body: { shared: true } })).status, 403);

      const shared = await json<{ shared: boolean }>(await ask('olive', 'patchCollection', { params, body: { shared: true } }));
      assert.equal(shared.shared, true);
      const listed = await json<{ collections: { id: string; sharedBy?: string }[] }>(await ask('ann', 'listCollections'));
      assert.deepEqual(
        listed.collections.map((c) => [c.id, c.sharedBy]),
        [
          [annsOwn.id, undefined],
          [manuals.id, 'olive'],
        ],
      );
      assert.equal((await json<{ sharedBy?: string }>(await ask('ann', 'getCollection', { params }))).sharedBy, 'olive');
      const found = await json<{ passages: { fileId: string; text: string; lineStart: number; lineEnd: number }[] }>(
        await ask('ann', 'searchCollection', { params, query: '?q=boiler%20reset' }),
      );
      assert.match(found.passages[0].text, /reset button is red/);
      const excerpt = await ask('ann', 'passage', {
        params: { ...params, fileId: found.passages[0].fileId },
        query: `?from=${found.passages[0].lineStart}&to=${found.passages[0].lineEnd}`,
      });
      assert.equal(excerpt.status, 200);
      // Read-only to everyone but its owner.
      for (const [name, extra] of [
        ['patchCollection', { body: { name: 'mine now' } }],
        ['deleteCollection', {}],
        ['addCollectionFiles', { body: { attachmentId } }],
        ['removeCollectionFile', { params: { ...params, fileId: found.passages[0].fileId } }],
      ] as const) {
        const res = await ask('ann', name, { params, ...extra });
        assert.equal(res.status, 403, name);
        assert.match(((await res.json()) as { error: { message: string } }).error.message, /olive's, shared with everyone to read/);
      }
      // A turn of Ben's, who has no collection of his own, searches it.
      await turn('ben', "Where is the boiler's reset button?");
      const searched = rounds(models.double).at(-1)!;
      assert.match(JSON.stringify(searched.messages.filter((m) => m.role === 'tool')), /reset button is red/);

      // Unshared: gone from the others at once.
      await json(await ask('olive', 'patchCollection', { params, body: { shared: false } }));
      assert.equal((await ask('ann', 'getCollection', { params })).status, 404);
      // Still whole for its owner.
      assert.equal((await json<{ files: number }>(await ask('olive', 'getCollection', { params }))).files, 1);
    });
  });
});
