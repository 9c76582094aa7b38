import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { endpoints, type Endpoint, type EndpointName } from '@/lib/contract/endpoints';
import type { Role } from '@/lib/contract/statuses';
import type { Hearth } from '@/lib/services/runtime';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { readSse } from '@/lib/contract/sse';
import { base, makeRuntime, sharedDouble, type Ev } from './harness';

/**
 * Keeping people apart (issue 48, item 3), walked from the endpoint table: an owner and two
 * members each fill a library through the routes; then every endpoint of the table is asked by
 * each person with each other person's ids, and must answer as it does for an id that names
 * nothing. Endpoints without ids must not show another person's words or ids; writes must not
 * change another's library; ids of another person's things inside a body reach nothing. A route
 * added to the table is walked without anyone adding it here: it needs a sample body below only
 * if its body is required, and the test says so when one is missing.
 */

const PASSWORD = 'correct horse battery staple';
const models = sharedDouble();

type Ids = {
  thread: string;
  question: string;
  answer: string;
  turn: string;
  folder: string;
  prompt: string;
  memory: string;
  collection: string;
  collectionFile: string;
  attachment: string;
  /** Their login's session id (the SHA-256 of its token). */
  session: string;
};
type Person = { name: string; role: Role; cookie: string; marker: string; ids: Ids };

/** An id that names nothing in anyone's library. */
const nobody = (): Ids => {
  const id = randomUUID();
  return {
    thread: id,
    question: id,
    answer: id,
    turn: id,
    folder: id,
    prompt: id,
    memory: id,
    collection: id,
    collectionFile: id,
    attachment: id,
    session: createHash('sha256').update(id).digest('hex'),
  };
};

/** The route module of an endpoint: its path with :param as [param]. */
const routeOf = (e: Endpoint) =>
  import(`./${e.path.slice('/api/'.length).replace(/:(\w+)/g, '[$1]')}/route`) as Promise<
    Record<string, (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>>
  >;

/** The path parameters of an endpoint, naming the things of `ids`. */
function paramsFor(e: Endpoint, ids: Ids): Record<string, string> {
  const out: Record<string, string> = {};
  const kind = e.path.split('/')[2];
  for (const name of Object.keys(e.params ?? {})) {
    if (name === 'messageId') out[name] = ids.answer;
    else if (name === 'turnId') out[name] = ids.turn;
    else if (name === 'fileId') out[name] = ids.collectionFile;
    else if (name === 'name') out[name] = 'notes';
    else
      out[name] = {
        threads: ids.thread,
        folders: ids.folder,
        prompts: ids.prompt,
        memories: ids.memory,
        collections: ids.collection,
        attachments: ids.attachment,
        auth: ids.session,
      }[kind]!;
  }
  return out;
}

/** A valid body for each endpoint that needs one; ids in it are `ids`' (another person's, in the walk). */
const BODIES: Partial<Record<EndpointName, (ids: Ids) => unknown>> = {
  createThread: () => ({ title: 'a new thread' }),
  bulkThreads: (ids) => ({ ids: [ids.thread], action: { kind: 'archive', archived: true } }),
  patchThread: () => ({ title: 'renamed by someone else' }),
  answerApproval: () => ({ callId: 'call-1', allow: true }),
  sendMessage: () => ({ content: 'a question from someone else' }),
  rateAnswer: () => ({ rating: 'down' }),
  regenerate: () => ({}),
  createFolder: () => ({ name: 'a folder' }),
  renameFolder: () => ({ name: 'renamed' }),
  addPrompt: () => ({ name: `p${randomUUID().slice(0, 8)}`, text: 'a prompt' }),
  editPrompt: () => ({ text: 'changed' }),
  addMemory: () => ({ text: 'a fact of someone else' }),
  editMemory: () => ({ text: 'changed' }),
  createCollection: () => ({ name: 'a collection' }),
  patchCollection: () => ({ name: 'renamed' }),
  addCollectionFiles: (ids) => ({ attachmentId: ids.attachment }),
  patchSettings: () => ({ assistantName: 'Hearth' }),
  decideProposals: () => ({ dismiss: ['modelServers'] }),
  checkModel: () => ({ url: 'http://127.0.0.1:9/v1' }),
  checkSearch: () => ({ url: 'http://127.0.0.1:9' }),
  checkEmbeddings: () => ({ url: 'http://127.0.0.1:9/v1' }),
  decideToolServerProposals: () => ({ dismiss: ['notes'] }),
  putToolServer: () => ({ server: { url: 'http://127.0.0.1:9/mcp' } }),
  speak: () => ({ text: 'Hello.' }),
  createInvite: () => ({ role: 'member' }),
  patchPerson: () => ({ disabled: true }),
  acceptInvite: () => ({ username: 'mallory', password: 'a password of hers' }),
  login: () => ({ password: 'wrong' }),
};

/** Queries an endpoint needs (a search names another's words). */
const QUERIES: Partial<Record<EndpointName, (p: Person) => string>> = {
  search: (p) => `?q=${encodeURIComponent(p.marker)}`,
  searchCollection: (p) => `?q=${encodeURIComponent(p.marker)}`,
  remoteImage: () => `?url=${encodeURIComponent('http://127.0.0.1:9/a.png')}`,
};

/** Asks an endpoint as `who`, with the path ids of `ids`. */
async function ask(name: EndpointName, who: Person, ids: Ids, query = ''): Promise<Response> {
  const e: Endpoint = endpoints[name];
  const params = paramsFor(e, ids);
  const path = e.path.replace(/:(\w+)/g, (_, p: string) => params[p]);
  const headers: Record<string, string> = { cookie: who.cookie };
  let body: BodyInit | undefined;
  if (e.body === 'upload') {
    const form = new FormData();
    form.set('file', new Blob([`${who.marker} uploaded again`], { type: 'text/plain' }), 'again.txt');
    body = form;
  } else if (e.body === 'bytes') {
    headers['content-type'] = 'application/x-ndjson';
    body = '{"format":"not a library"}\n';
  } else if (e.body) {
    const sample = BODIES[name];
    assert.ok(sample, `${name} takes a body: add a valid one to BODIES so the walk reaches its lookup`);
    headers['content-type'] = 'application/json';
    body = JSON.stringify(sample(ids));
  }
  const route = await routeOf(e);
  const handler = route[e.method];
  assert.ok(handler, `${name}: its route file exports ${e.method}`);
  return handler(new Request(`${base}${path}${query}`, { method: e.method, headers, body }), { params: Promise.resolve(params) });
}

/** What a response says, as text (a stream is read for a moment, then let go). */
async function text(res: Response): Promise<string> {
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return res.text();
  const reader = res.body!.getReader();
  const read = reader.read();
  const first = await Promise.race([read, new Promise<null>((r) => setTimeout(() => r(null), 50))]);
  await reader.cancel();
  return first && !first.done ? new TextDecoder().decode(first.value) : '';
}

let hearth: Hearth;
const people: Person[] = [];

async function login(name: string): Promise<string> {
  const route = await routeOf(endpoints.login);
  const res = await route.POST(
    new Request(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: name, password: PASSWORD }),
    }),
    { params: Promise.resolve({}) },
  );
  assert.equal(res.status, 200, await res.clone().text());
  return /hearth_session=[^;]*/.exec(res.headers.get('set-cookie') ?? '')![0];
}

/** Fills a person's library through the routes: a conversation, a folder, a prompt, a fact, a file in a collection. */
async function fill(p: Omit<Person, 'ids'>): Promise<Ids> {
  const me = { ...p, ids: nobody() };
  const json = async (name: EndpointName, body: unknown, ids = me.ids) => {
    const saved = BODIES[name];
    BODIES[name] = () => body;
    try {
      const res = await ask(name, me, ids);
      assert.ok(res.status < 300, `${p.name} ${name}: ${res.status} ${await res.clone().text()}`);
      return (await res.json()) as Record<string, unknown>;
    } finally {
      BODIES[name] = saved;
    }
  };
  const thread = (await json('createThread', { title: `${p.marker} thread` })).id as string;
  me.ids.thread = thread;
  const sent = await (await ask('sendMessage', me, me.ids)).text();
  const turn = /"turnId":"([0-9a-f-]{36})"/.exec(sent)![1];
  const threadRes = await ask('getThread', me, me.ids);
  const view = (await threadRes.json()) as { messages: { id: string; role: string; turnId?: string }[] };
  const question = view.messages.find((m) => m.role === 'user')!.id;
  const answer = view.messages.find((m) => m.role === 'assistant')!;
  assert.equal(answer.turnId ?? turn, turn);
  const uploadRoute = await routeOf(endpoints.uploadAttachment);
  const form = new FormData();
  form.set('file', new Blob([`${p.marker} the file's words`], { type: 'text/plain' }), `${p.name}.txt`);
  const uploaded = await uploadRoute.POST(
    new Request(`${base}/api/attachments`, { method: 'POST', headers: { cookie: p.cookie }, body: form }),
    {
      params: Promise.resolve({}),
    },
  );
  const attachment = ((await uploaded.json()) as { id: string }).id;
  const collection = (await json('createCollection', { name: `${p.marker} collection` })).id as string;
  const added = await json('addCollectionFiles', { attachmentId: attachment }, { ...me.ids, collection });
  const collectionFile = ((added.files as { id: string }[] | undefined)?.[0]?.id ?? (added.id as string)) as string;
  return {
    thread,
    question,
    answer: answer.id,
    turn,
    folder: (await json('createFolder', { name: `${p.marker} folder` })).id as string,
    prompt: (await json('addPrompt', { name: `${p.name}-prompt`, text: `${p.marker} prompt` })).id as string,
    memory: (await json('addMemory', { text: `${p.marker} is a fact` })).id as string,
    collection,
    collectionFile,
    attachment,
    session: sessionIdOf(p.cookie),
  };
}

/** The session id of a cookie: the SHA-256 of its token. */
const sessionIdOf = (cookie: string) => createHash('sha256').update(cookie.slice('hearth_session='.length)).digest('hex');

/**
 * What a person's own things are, as the routes show them to them: their thread (whole), folder,
 * prompt, fact and collection (whole). What they make themselves during the walk (the creating
 * endpoints write into their own library) is left out.
 */
async function snapshot(p: Person): Promise<string> {
  const own = new Set(Object.values(p.ids));
  const body = async (name: EndpointName) => JSON.parse(await (await ask(name, p, p.ids)).text()) as Record<string, unknown>;
  const mine = (list: unknown) => (list as { id: string }[]).filter((x) => own.has(x.id));
  const parts = [
    mine((await body('listThreads')).threads),
    await body('getThread'),
    mine((await body('listFolders')).folders),
    mine((await body('listPrompts')).prompts),
    mine((await body('listMemories')).memories),
    mine((await body('listCollections')).collections),
    await body('getCollection'),
  ];
  return JSON.stringify(parts).replace(/"updatedAt":\d+,?/g, '');
}

describe('every endpoint, asked by each person with each other person’s ids', () => {
  before(async () => {
    hearth = (await makeRuntime({ llamaUrl: models.double.url })).hearth;
    const cast: [string, Role][] = [
      ['olive', 'owner'],
      ['ann', 'member'],
      ['ben', 'member'],
    ];
    for (const [name, role] of cast) await hearth.auth.people.add({ username: name, role, password: PASSWORD });
    for (const [name, role] of cast) {
      const cookie = await login(name);
      const marker = `zq${name}marker`;
      people.push({ name, role, cookie, marker, ids: await fill({ name, role, cookie, marker }) });
    }
    // Each library's files indexed, so what the walk compares does not change under it.
    for (const library of hearth.libraries()) await library.knowledge.indexer.settled();
  });

  const PUBLIC: EndpointName[] = ['login', 'logout', 'session'];

  test('answers as for an id that names nothing, shows nothing of theirs, and changes nothing of theirs', async () => {
    const before = await Promise.all(people.map(snapshot));
    let walked = 0;
    for (const viewer of people)
      for (const target of people) {
        if (viewer === target) continue;
        for (const name of Object.keys(endpoints) as EndpointName[]) {
          if (PUBLIC.includes(name)) continue;
          const e: Endpoint = endpoints[name];
          // What only an admin or the owner may do changes what everyone shares (servers, settings,
          // tool servers), not a library: a member is refused; the owner's own use is tested elsewhere.
          if (e.who && viewer.role !== 'member') continue;
          const query = QUERIES[name]?.(target) ?? '';
          const res = await ask(name, viewer, target.ids, query);
          const said = await text(res);
          walked++;
          if (e.who && viewer.role === 'member') {
            assert.equal(res.status, 403, `${viewer.name} ${name}: only ${e.who === 'owner' ? 'the owner' : 'an admin'} may`);
            continue;
          }
          if (Object.keys(e.params ?? {}).length && !e.who) {
            const unknown = await ask(name, viewer, nobody(), query);
            await text(unknown);
            assert.equal(res.status, unknown.status, `${viewer.name} ${name} with ${target.name}'s ids answers as an unknown id does`);
            assert.ok(res.status === 404 || res.status === 400, `${viewer.name} ${name} with ${target.name}'s ids: ${res.status} ${said}`);
          }
          assert.ok(!said.includes(target.marker), `${viewer.name} ${name} shows ${target.name}'s words: ${said.slice(0, 300)}`);
          // An id the request itself carried may be said back ("There is no thread …"); no other.
          const asked = `${JSON.stringify(paramsFor(e, target.ids))}${query}${JSON.stringify(BODIES[name]?.(target.ids) ?? '')}`;
          for (const [kind, id] of Object.entries(target.ids))
            assert.ok(asked.includes(id) || !said.includes(id), `${viewer.name} ${name} shows ${target.name}'s ${kind} id`);
        }
      }
    assert.ok(walked >= 6 * 50, `walked ${walked} requests`);
    const after = await Promise.all(people.map(snapshot));
    for (let i = 0; i < people.length; i++) assert.equal(after[i], before[i], `${people[i].name}'s library is as it was`);
  });

  test("another person's ids inside a body reach nothing: a message's files, a collection's file, a thread's collections, a search's thread", async () => {
    const [olive, ann, ben] = people;
    for (const [viewer, target] of [
      [ben, ann],
      [olive, ben],
      [ann, olive],
    ]) {
      const own = viewer.ids;
      // A message in one's own thread, carrying another's attachment.
      BODIES.sendMessage = () => ({ content: 'look at this', attachmentIds: [target.ids.attachment] });
      const sent = await ask('sendMessage', viewer, own);
      await sent.text();
      assert.equal(sent.status, 400, `${viewer.name} cannot attach ${target.name}'s file`);
      // Another's attachment into one's own collection.
      const added = await ask('addCollectionFiles', viewer, { ...own, attachment: target.ids.attachment });
      assert.equal(added.status, 404, `${viewer.name} cannot add ${target.name}'s file to a collection: ${await added.text()}`);
      // Another's collection chosen for one's own thread.
      BODIES.patchThread = () => ({ collectionIds: [target.ids.collection] });
      const chosen = await ask('patchThread', viewer, own);
      assert.ok(chosen.status === 400 || chosen.status === 404, `${viewer.name} cannot choose ${target.name}'s collection`);
      // A search of another's thread finds nothing.
      const found = await ask('search', viewer, own, `?q=${target.marker}&threadId=${target.ids.thread}`);
      assert.deepEqual(((await found.json()) as { results: unknown[] }).results, []);
      // Bulk changes to another's threads: as to threads that are not there.
      const bulk = await ask('bulkThreads', viewer, target.ids);
      assert.equal(bulk.status, 404);
    }
    BODIES.sendMessage = () => ({ content: 'a question from someone else' });
    BODIES.patchThread = () => ({ title: 'renamed by someone else' });
  });

  test('each person sees their own library whole: their threads, facts and files, and no one else’s', async () => {
    for (const p of people) {
      const listed = await (await ask('listThreads', p, p.ids)).text();
      assert.ok(listed.includes(p.ids.thread));
      const memories = await (await ask('listMemories', p, p.ids)).text();
      assert.ok(memories.includes(p.marker));
      const exported = await (await ask('exportLibrary', p, p.ids)).text();
      assert.ok(exported.includes(p.marker), `${p.name}'s export holds their words`);
      for (const other of people)
        if (other !== p) assert.ok(!exported.includes(other.marker), `${p.name}'s export holds none of ${other.name}'s`);
    }
  });
});

describe('fair turns on one slot', () => {
  test(
    "one member's five waiting turns and another's one: the other's runs second, and each hears its place",
    { timeout: 60_000 },
    async () => {
      const [, ann, ben] = people;
      /** A slow question in a new thread of the person's, its events gathered as they come. */
      const start = async (p: Person) => {
        const created = await ask('createThread', p, p.ids);
        const threadId = ((await created.json()) as { id: string }).id;
        BODIES.sendMessage = () => ({ content: 'Answer very slowly please.' });
        const res = await ask('sendMessage', p, { ...p.ids, thread: threadId });
        const seen: Ev[] = [];
        const done = (async () => {
          for await (const frame of readSse(res.body!)) {
            seen.push(JSON.parse(frame.data) as Ev);
            for (const wake of waiting.splice(0)) wake();
          }
        })();
        return { threadId, seen, done, owner: p };
      };
      /** Those waiting for the next event of any stream. */
      const waiting: (() => void)[] = [];
      /** Waits, an event at a time (never on a clock), until the condition holds; the test's timeout bounds it. */
      const until = async (what: string, ok: () => boolean) => {
        while (!ok()) await new Promise<void>((r) => waiting.push(r));
        assert.ok(ok(), what);
      };
      const stage = (t: { seen: Ev[] }) =>
        t.seen.filter((e) => e.type === 'status').at(-1) as (Ev & { stage: string; queuePosition?: number }) | undefined;
      const turnOf = (t: { seen: Ev[] }) => (t.seen.find((e) => e.type === 'turn') as (Ev & { turnId: string }) | undefined)?.turnId;

      type Started = Awaited<ReturnType<typeof start>>;
      const anns: Started[] = [];
      for (let i = 0; i < 5; i++) anns.push(await start(ann));
      await until(
        'ann’s first runs, her other four wait',
        () => anns.slice(1).every((t) => stage(t)?.stage === 'queued') && Boolean(turnOf(anns[0])),
      );
      const bens = await start(ben);
      await until('ben’s one waits first in line', () => stage(bens)?.queuePosition === 1);
      // Each turn's events travel on its own stream: Ann's may hear the news a moment after Ben's.
      await until('ann’s waiting turns hear that they moved back', () => anns.slice(1).every((t, i) => stage(t)?.queuePosition === i + 2));
      // Ann's first is stopped: the slot goes to Ben's, not to her second.
      const cancel = (t: Started) => ask('cancelTurn', t.owner, { ...t.owner.ids, thread: t.threadId, turn: turnOf(t)! });
      await cancel(anns[0]);
      await until('ben’s runs second', () => stage(bens)?.stage !== 'queued');
      assert.equal(stage(anns[1])?.stage, 'queued');
      for (const t of [bens, ...anns.slice(1)]) {
        await until('its turn is named', () => Boolean(turnOf(t)));
        await cancel(t);
      }
      await Promise.all([bens, ...anns].map((t) => t.done));
      BODIES.sendMessage = () => ({ content: 'a question from someone else' });
    },
  );
});

describe('invitations and the admin page', () => {
  test('an owner invites; the link makes one account, once, with a library of its own; admins cannot touch owners', async () => {
    const [olive, ann] = people;
    const json = async (res: Response) => {
      assert.ok(res.status < 300, `${res.status} ${await res.clone().text()}`);
      return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
    };
    BODIES.createInvite = () => ({ role: 'member' });
    const made = (await json(await ask('createInvite', olive, olive.ids))) as { path: string; role: string };
    assert.match(made.path, /^\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = made.path.slice('/invite/'.length);
    const listed = (await json(await ask('listPeople', olive, olive.ids))) as { people: { username: string }[]; invites: { id: string }[] };
    assert.deepEqual(
      listed.people.map((p) => p.username),
      ['olive', 'ann', 'ben'],
    );
    assert.equal(listed.invites.length, 1);
    assert.ok(!JSON.stringify(listed).includes(token), 'the link is shown once, when made');

    // Joining: the account is made and logged in; the link is used up.
    const route = await routeOf(endpoints.acceptInvite);
    const join = (username: string) =>
      route.POST(
        new Request(`${base}/api/invites/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: 'cara password' }),
        }),
        { params: Promise.resolve({ token }) },
      );
    assert.equal((await join('olive')).status, 409, 'a name taken is refused, and the link still works');
    const joined = await join('Cara');
    assert.equal(joined.status, 201);
    const cara: Person = {
      name: 'cara',
      role: 'member',
      cookie: /hearth_session=[^;]*/.exec(joined.headers.get('set-cookie') ?? '')![0],
      marker: 'zqcaramarker',
      ids: nobody(),
    };
    assert.deepEqual(JSON.parse(await (await ask('listThreads', cara, cara.ids)).text()).threads, [], 'a library of her own, empty');
    assert.equal((await join('dora')).status, 404, 'used once');
    assert.equal(((await json(await ask('listPeople', olive, olive.ids))) as { invites: unknown[] }).invites.length, 0);

    // An admin invites members and admins, not owners; changes members, not owners.
    const annId = (listed.people as unknown as { id: string; username: string }[]).find((p) => p.username === 'ann')!.id;
    const oliveId = (listed.people as unknown as { id: string; username: string }[]).find((p) => p.username === 'olive')!.id;
    const patch = (who: Person, id: string, body: unknown) =>
      import('./people/[id]/route').then((r) =>
        r.PATCH(
          new Request(`${base}/api/people/${id}`, {
            method: 'PATCH',
            headers: { cookie: who.cookie, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
          { params: Promise.resolve({ id }) },
        ),
      );
    assert.equal((await patch(olive, annId, { role: 'admin' })).status, 200);
    assert.equal((await patch(ann, oliveId, { disabled: true })).status, 403, 'an admin does not change an owner');
    assert.equal((await patch(ann, annId, { role: 'owner' })).status, 403, 'nor makes one');
    BODIES.createInvite = () => ({ role: 'owner' });
    assert.equal((await ask('createInvite', ann, ann.ids)).status, 403);
    BODIES.createInvite = () => ({ role: 'member' });
    assert.equal((await ask('createInvite', ann, ann.ids)).status, 201);
    // Disabled from the admin page: out at once.
    const caraId = ((await json(await ask('listPeople', olive, olive.ids))) as { people: { id: string; username: string }[] }).people.find(
      (p) => p.username === 'cara',
    )!.id;
    assert.equal((await patch(ann, caraId, { disabled: true })).status, 200);
    assert.equal((await ask('listThreads', cara, cara.ids)).status, 401);
    assert.equal((await patch(olive, annId, { role: 'member' })).status, 200);
    // The owner's copy of a person's library: theirs whole, no one else's; an admin may not.
    const exportOf = (who: Person, id: string) =>
      import('./people/[id]/export/route').then((r) =>
        r.GET(new Request(`${base}/api/people/${id}/export`, { headers: { cookie: who.cookie } }), { params: Promise.resolve({ id }) }),
      );
    const annsFile = await (await exportOf(olive, annId)).text();
    assert.ok(annsFile.includes(ann.marker));
    assert.ok(!annsFile.includes(olive.marker));
    assert.equal((await patch(olive, annId, { role: 'admin' })).status, 200);
    assert.equal((await exportOf(ann, oliveId)).status, 403, 'an admin does not read the owner’s library');
    assert.equal((await patch(olive, annId, { role: 'member' })).status, 200);
    BODIES.patchPerson = () => ({ disabled: true });
  });
});

describe('sessions', () => {
  test('a person sees their own sessions and ends one of them; it is over at once', async () => {
    const ann = people.find((p) => p.name === 'ann')!;
    const second = { ...ann, cookie: await login('ann') };
    const listed = (await (await ask('listSessions', second, ann.ids)).json()) as { sessions: { id: string; current: boolean }[] };
    assert.ok(listed.sessions.length >= 2);
    assert.deepEqual(
      listed.sessions.filter((s) => s.current).map((s) => s.id),
      [sessionIdOf(second.cookie)],
    );
    assert.ok(!JSON.stringify(listed).includes(second.cookie.slice('hearth_session='.length)), 'a token is never shown');
    const ended = await ask('endSession', second, ann.ids);
    assert.equal(ended.status, 204);
    assert.equal((await ask('listThreads', ann, ann.ids)).status, 401, 'the session ended is refused');
    assert.equal((await ask('listThreads', second, ann.ids)).status, 200);
  });
});

describe('a library from before accounts', () => {
  test('upgrades in place: the password in the environment makes its owner, who keeps the sessions and everything in it', async () => {
    const dataDir = makeTempDir('hearth-upgrade');
    // Before accounts: one person on loopback, no login.
    const before = await makeRuntime({ llamaUrl: models.double.url, dataDir });
    const thread = await before.store.createThread({ id: randomUUID(), title: 'from before accounts', now: 1 });
    await before.store.insertSession({ id: 'a'.repeat(64), userId: null, createdAt: 1, expiresAt: Date.now() + 60_000 });
    assert.equal(await before.auth.required(), false);

    // The next start has a password: its owner is made once, with everything.
    const after = await makeRuntime({ llamaUrl: models.double.url, dataDir, env: { HEARTH_PASSWORD: PASSWORD } });
    const owner = (await after.auth.people.owner())!;
    assert.equal(owner.username, 'owner');
    assert.equal(await after.auth.required(), true);
    assert.equal(await after.auth.people.libraryOf(owner.id), 'hearth.db', 'the library stays where it was');
    assert.equal((await after.store.sessionsOfUser(owner.id)).length, 1, 'the session from before is the owner’s');
    const cookie = await login('owner');
    const listed = await (await ask('listThreads', { name: 'owner', role: 'owner', cookie, marker: '', ids: nobody() }, nobody())).text();
    assert.ok(listed.includes(thread.id));
    // Started again with another password in the environment: people live in the database now.
    await makeRuntime({ llamaUrl: models.double.url, dataDir, env: { HEARTH_PASSWORD: 'another password entirely' } });
    assert.ok(await login('owner'));
  });
});
