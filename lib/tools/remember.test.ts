import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '@/db/client';
import { createStore } from '@/db/store';
import { memoryBook } from '@/lib/services/memories';
import { ChangeFeed, type ChangeNotice } from '@/lib/services/change-feed';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { createToolRegistry } from './registry';
import { rememberTool } from './remember';
import type { Tool } from './types';

/** The remember tool over a real store and the Memory panel's rules. */
function setup() {
  const store = createStore(openDatabase(path.join(makeTempDir('hearth-remember'), 'h.db')));
  const updates = new ChangeFeed();
  const seen: ChangeNotice[] = [];
  updates.subscribe((u) => seen.push(u));
  const memory = memoryBook({ store, updates });
  const registry = createToolRegistry([rememberTool as Tool]);
  const deps = { now: () => 0, timezone: 'UTC', threadId: 't', memory };
  const run = (args: Record<string, unknown>) => registry.run('remember', JSON.stringify(args), deps, new AbortController().signal);
  const facts = async () => (await store.listMemories()).map((m) => m.text);
  return { run, facts, seen, store };
}

test('add keeps a fact and announces it; the same fact again is not kept twice', async () => {
  const { run, facts, seen } = setup();
  const r = await run({ action: 'add', fact: 'The user is vegetarian.' });
  assert.deepEqual(r, { ok: true, data: { remembered: 'The user is vegetarian.' } });
  assert.deepEqual(await facts(), ['The user is vegetarian.']);
  assert.deepEqual(seen, [{ type: 'memories' }], 'an open Memory panel hears of it');
  const again = await run({ action: 'add', fact: 'the user is  vegetarian.' });
  assert.ok(again.ok, String(JSON.stringify(again)));
  assert.deepEqual(await facts(), ['The user is vegetarian.']);
});

test('a near-duplicate replaces the fact it repeats instead of sitting beside it', async () => {
  const { run, facts } = setup();
  await run({ action: 'add', fact: 'The user lives in Lyon.' });
  await run({ action: 'add', fact: 'The user has two cats.' });
  const r = await run({ action: 'add', fact: 'The user lives in Lyon, France.' });
  assert.deepEqual(r, { ok: true, data: { remembered: 'The user lives in Lyon, France.', replaced: 'The user lives in Lyon.' } });
  assert.deepEqual((await facts()).sort(), ['The user has two cats.', 'The user lives in Lyon, France.']);
});

test('replace and forget name a kept fact by its words; an unknown one is an error that lists what is kept', async () => {
  const { run, facts } = setup();
  await run({ action: 'add', fact: 'The user eats fish.' });
  await run({ action: 'add', fact: 'The user cycles to work.' });
  const replaced = await run({ action: 'replace', fact: 'The user is vegetarian.', replaces: 'user eats fish' });
  assert.deepEqual(replaced, { ok: true, data: { remembered: 'The user is vegetarian.', replaced: 'The user eats fish.' } });
  const forgot = await run({ action: 'forget', fact: 'The user cycles to work' });
  assert.deepEqual(forgot, { ok: true, data: { forgotten: 'The user cycles to work.' } });
  assert.deepEqual(await facts(), ['The user is vegetarian.']);
  const unknown = await run({ action: 'forget', fact: 'The user owns a boat.' });
  assert.ok(!unknown.ok && /no remembered fact matches[\s\S]*vegetarian/.test(unknown.error), String(JSON.stringify(unknown)));
  const noTarget = await run({ action: 'replace', fact: 'The user is vegan.' });
  assert.ok(!noTarget.ok && /replaces/.test(noTarget.error), String(JSON.stringify(noTarget)));
});

test('a fact named by its exact words is that fact, even beside one with the same words in another order (an imported library may hold both)', async () => {
  for (const named of ['The user likes green tea.', 'Green tea, the user likes.']) {
    const { run, facts, store } = setup();
    await store.insertMemory({ id: 'a', text: 'The user likes green tea.', now: 1 });
    await store.insertMemory({ id: 'b', text: 'Green tea, the user likes.', now: 2 });
    const forgot = await run({ action: 'forget', fact: named });
    assert.deepEqual(forgot, { ok: true, data: { forgotten: named } });
    assert.equal((await facts()).length, 1, 'the other is kept');
  }
});

test('a secret or an over-long fact is refused with the reason, and nothing is kept', async () => {
  const { run, facts, seen } = setup();
  const secret = await run({ action: 'add', fact: "The user's password is hunter2." });
  assert.ok(!secret.ok && /password, key or token/.test(secret.error), String(JSON.stringify(secret)));
  const key = await run({ action: 'add', fact: 'The user API key is sk-abcdefghijklmnopqrstuv.' });
  assert.ok(!key.ok, String(JSON.stringify(key)));
  const long = await run({ action: 'add', fact: `The user likes ${'very '.repeat(80)}long facts.` });
  assert.ok(!long.ok && /at most 300 characters/.test(long.error), String(JSON.stringify(long)));
  assert.deepEqual(await facts(), []);
  assert.deepEqual(seen, [], 'nothing changed, nothing announced');
});

test('without a memory the tool says so instead of failing', async () => {
  const registry = createToolRegistry([rememberTool as Tool]);
  const r = await registry.run(
    'remember',
    JSON.stringify({ action: 'add', fact: 'x' }),
    { now: () => 0, timezone: 'UTC', threadId: 't' },
    new AbortController().signal,
  );
  assert.ok(!r.ok && /not available/.test(r.error), String(JSON.stringify(r)));
});

test('the same fact again: said to be kept already, in the kept words', async () => {
  const { run } = setup();
  await run({ action: 'add', fact: 'The user is vegetarian.' });
  assert.deepEqual(await run({ action: 'add', fact: 'the user is  VEGETARIAN.' }), {
    ok: true,
    data: { remembered: 'The user is vegetarian.', note: 'this was already remembered' },
  });
});

test('naming a fact that is not kept: with nothing kept, said so; else the first 20 kept, and the words asked cut at 80', async () => {
  const { run } = setup();
  const empty = await run({ action: 'forget', fact: 'The user owns a boat.' });
  assert.deepEqual(empty, { ok: false, error: 'nothing is remembered about the user yet' });
  const animals =
    'cat dog horse goat sheep llama parrot canary hamster rabbit ferret turtle iguana gecko python tarantula goldfish koi chicken duck goose pig cow donkey alpaca'.split(
      ' ',
    );
  const kept = animals.map((a) => `The user keeps a ${a}.`);
  for (const fact of kept) assert.ok((await run({ action: 'add', fact })).ok, fact);
  const asked = `Zebra ${'x'.repeat(200)}`;
  const r = await run({ action: 'forget', fact: asked });
  assert.ok(!r.ok, 'nothing matches');
  const listed = JSON.parse(r.error.slice(r.error.indexOf('['))) as string[];
  assert.equal(listed.length, 20);
  assert.ok(r.error.startsWith(`no remembered fact matches "${asked.slice(0, 80)}"; the kept facts are: `), r.error);
});

test('a refusal reaches the model as the rule and "Tell the user why."; any other failure stays unexpected', async () => {
  const { run } = setup();
  const secret = await run({ action: 'add', fact: "The user's password is hunter2." });
  assert.ok(
    !secret.ok && secret.error.endsWith(' Tell the user why.') && !/unexpectedly/.test(secret.error),
    String(JSON.stringify(secret)),
  );
  const broken = {
    list: () => [],
    add: () => {
      throw new Error('disk I/O error');
    },
    edit: () => {
      throw new Error('x');
    },
    forget: () => undefined,
  };
  const registry = createToolRegistry([rememberTool as Tool]);
  const r = await registry.run(
    'remember',
    JSON.stringify({ action: 'add', fact: 'The user likes tea.' }),
    { now: () => 0, timezone: 'UTC', threadId: 't', memory: broken },
    new AbortController().signal,
  );
  assert.ok(
    !r.ok && /failed unexpectedly \(disk I\/O error\)/.test(r.error) && !/Tell the user why/.test(r.error),
    String(JSON.stringify(r)),
  );
});
