import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore } from '@/lib/dev/testing/store';
import { People } from './people';

/**
 * Who a trusted proxy's header names (People.vouchedFor): tied by the header's exact value, so
 * no two names the proxy tells apart share an account, and no account whose name its holder
 * chose (an invitation, a sign-on provider) can be taken by someone the proxy names the same.
 */

const quickHash = (p: string) => `test$${p}`;
const PASSWORD = 'a long enough password';

async function household() {
  const people = new People(freshStore(), () => 1_000, quickHash);
  await people.add({ username: 'owner', role: 'owner', password: PASSWORD });
  return people;
}

test('no accounts yet: no one is let in by a header (the owner is made first)', async () => {
  const people = new People(freshStore(), () => 1_000, quickHash);
  assert.equal(await people.vouchedFor('alice'), null);
  assert.equal(await people.count(), 0);
});

test('the owner-made account of that very name is tied the first time; a new name is a new member, tied to its exact value', async () => {
  const people = await household();
  assert.deepEqual(await people.vouchedFor('owner'), { id: (await people.owner())!.id, username: 'owner', role: 'owner' });
  const alice = (await people.vouchedFor('Alice@Example.org'))!;
  assert.equal(alice.role, 'member');
  assert.equal(alice.username, 'alice-example.org');
  assert.deepEqual(await people.vouchedFor('Alice@Example.org'), alice, 'the same value, the same person');
  // Names a username cannot tell apart stay apart: each its own account.
  const jose1 = (await people.vouchedFor('josé'))!;
  const jose2 = (await people.vouchedFor('josè'))!;
  assert.notEqual(jose1.id, jose2.id);
  const li = (await people.vouchedFor('李雷'))!;
  const wang = (await people.vouchedFor('王芳'))!;
  assert.notEqual(li.id, wang.id);
  // And the proxy's "alice-example.org" is not the account made for "Alice@Example.org".
  assert.notEqual((await people.vouchedFor('alice-example.org'))!.id, alice.id);
});

test('an account whose name its holder chose is never taken by the header; a repeated header or a disabled account lets no one in', async () => {
  const people = await household();
  const { token } = await people.invite((await people.owner())!, 'member');
  const dave = await people.accept(token, { username: 'dave', password: PASSWORD });
  const named = (await people.vouchedFor('dave'))!;
  assert.notEqual(named.id, dave.id, 'the invited "dave" chose that name: the proxy’s dave is someone else');
  assert.equal(named.username, 'dave-2');
  assert.equal(await people.vouchedFor('alice, mallory'), null);
  assert.equal(await people.vouchedFor('   '), null);
  await people.setDisabled('dave-2', true);
  assert.equal(await people.vouchedFor('dave'), null);
});
