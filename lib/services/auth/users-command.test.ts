import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore } from '@/lib/dev/testing/store';
import { hashPassword } from './password';
import { People } from './people';
import { SessionBook } from './sessions';
import { usersCommand } from './users-command';

/** The users command over a fresh library, with the password it would read from stdin and what it prints. */
function shell(passwords: string[] = []) {
  const store = freshStore();
  // A cheap hash: the command's logic is under test, not scrypt's cost.
  let clock = 1_000;
  const people = new People(
    store,
    () => clock++,
    (p) => hashPassword(p, Buffer.alloc(16)),
  );
  const out: string[] = [];
  const err: string[] = [];
  const run = (...argv: string[]) =>
    usersCommand(argv, { people, readPassword: async () => passwords.shift() ?? '', out: (l) => out.push(l), err: (l) => err.push(l) });
  return { store, people, out, err, run };
}

test('add, list, set-role, reset-password, disable, enable and remove, as the issue names them', async () => {
  const { people, out, err, run } = shell(['owner password', 'member password', 'a new password']);
  assert.equal(await run('list'), 0);
  assert.match(out.at(-1)!, /No one yet/);
  assert.equal(await run('add', 'Ann', '--role', 'member', '--password-stdin'), 2, 'the first person is the owner');
  assert.match(err.at(-1)!, /first person is the owner/);
  assert.equal(await run('add', 'Olive', '--role', 'owner', '--password-stdin'), 0);
  assert.equal(out.at(-1), 'Added olive (owner). From now on, Hearth needs a login.');
  assert.equal(await run('add', 'ann', '--role', 'member', '--password-stdin'), 0);
  assert.equal(await run('add', 'ann', '--role', 'member'), 1, 'a name is taken once');
  assert.match(err.at(-1)!, /already someone called ann/);
  assert.equal(await run('set-role', 'ann', 'admin'), 0);
  assert.equal(out.at(-1), 'ann is now admin.');
  assert.equal(await run('reset-password', 'ann'), 0);
  assert.equal(await run('disable', 'ann'), 0);
  await run('list');
  assert.deepEqual(out.slice(-2), [
    `${'olive'.padEnd(24)} ${'owner'.padEnd(7)} active`,
    `${'ann'.padEnd(24)} ${'admin'.padEnd(7)} disabled`,
  ]);
  assert.equal(await run('enable', 'ann'), 0);
  assert.equal(await run('remove', 'ann'), 0);
  assert.deepEqual(
    (await people.list()).map((p) => p.username),
    ['olive'],
  );
  assert.equal(await run('set-role', 'ann', 'superuser'), 2, 'a role is one of three');
  assert.equal(await run('remove', 'nobody'), 1);
  assert.match(err.at(-1)!, /no one called nobody/);
  assert.equal(await run('frobnicate'), 2);
});

test('there is always an owner: the last one cannot be removed, disabled or made something else', async () => {
  const { run, err } = shell(['owner password', 'second owner pw']);
  await run('add', 'olive', '--role', 'owner');
  for (const argv of [
    ['remove', 'olive'],
    ['disable', 'olive'],
    ['set-role', 'olive', 'member'],
  ]) {
    assert.equal(await run(...argv), 1, argv.join(' '));
    assert.match(err.at(-1)!, /only owner/);
  }
  await run('add', 'oscar', '--role', 'owner');
  assert.equal(await run('set-role', 'olive', 'member'), 0, 'with another owner, one may step down');
});

test('bad names and short passwords are refused with the reason; nothing is stored', async () => {
  const { run, err, people } = shell(['short', 'long enough now']);
  assert.equal(await run('add', 'olive', '--role', 'owner'), 1);
  assert.match(err.at(-1)!, /password: must be at least 8 characters/);
  assert.equal(await run('add', '../etc', '--role', 'owner'), 1);
  assert.match(err.at(-1)!, /username: is 1 to 64 letters/);
  assert.equal(await people.count(), 0);
});

test("removing, disabling or resetting a person's password ends their sessions at once", async () => {
  const { store, run } = shell(['owner password', 'member password', 'member password', 'a new password']);
  await run('add', 'olive', '--role', 'owner');
  await run('add', 'ann', '--role', 'member');
  const book = new SessionBook(store, 60_000, () => 1_000);
  const ann = (await store.userByName('ann'))!;
  const session = async () => (await book.start(ann)).token;
  let token = await session();
  assert.equal((await book.person(token))?.username, 'ann');
  await run('disable', 'ann');
  assert.equal(await book.person(token), null, 'disabled');
  await run('enable', 'ann');
  token = await session();
  await run('reset-password', 'ann');
  assert.equal(await book.person(token), null, 'a new password');
  token = await session();
  await run('remove', 'ann');
  assert.equal(await book.person(token), null, 'removed');
});

test('an invitation works once, within its week; withdrawn it works no more; without accounts there is no one to invite for', async () => {
  const store = freshStore();
  let now = 1_000;
  const people = new People(
    store,
    () => now,
    (p) => hashPassword(p, Buffer.alloc(16)),
  );
  const local = { id: 'local', username: 'local', role: 'owner' as const };
  await assert.rejects(people.invite(local, 'member'), /Make yourself the owner first/);
  const olive = await people.add({ username: 'olive', role: 'owner', password: 'owner password' });
  const first = await people.invite(olive, 'member');
  assert.equal(first.expiresAt, 1_000 + 7 * 24 * 60 * 60 * 1000);
  assert.equal(await people.inviteOpen(first.token), 'member');
  now = first.expiresAt;
  assert.equal(await people.inviteOpen(first.token), null, 'expired at its last millisecond');
  await assert.rejects(people.accept(first.token, { username: 'ann', password: 'ann password' }), /used or has expired/);
  now = 2_000;
  const second = await people.invite(olive, 'admin');
  const [open] = await people.invites();
  assert.equal(await people.withdrawInvite(open.id), true);
  assert.equal(await people.inviteOpen(second.token), null);
  const third = await people.invite(olive, 'member');
  // accept checks the password before it returns its promise: an async wrapper takes that throw as a rejection.
  await assert.rejects(async () => people.accept(third.token, { username: 'ann', password: 'short' }), /at least 8/);
  assert.equal((await people.accept(third.token, { username: 'Ann', password: 'ann password' })).username, 'ann');
  assert.match((await store.userByName('ann'))!.library, /^people\/[0-9a-f-]{36}\.db$/);
  await assert.rejects(people.accept(third.token, { username: 'ben', password: 'ben password' }), /used or has expired/);
  assert.equal(await people.inviteOpen('not a token'), null);
});
