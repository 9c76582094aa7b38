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

function household() {
  const people = new People(freshStore(), () => 1_000, quickHash);
  people.add({ username: 'owner', role: 'owner', password: PASSWORD });
  return people;
}

test('no accounts yet: no one is let in by a header (the owner is made first)', () => {
  const people = new People(freshStore(), () => 1_000, quickHash);
  assert.equal(people.vouchedFor('alice'), null);
  assert.equal(people.count(), 0);
});

test('the owner-made account of that very name is tied the first time; a new name is a new member, tied to its exact value', () => {
  const people = household();
  assert.deepEqual(people.vouchedFor('owner'), { id: people.owner()!.id, username: 'owner', role: 'owner' });
  const alice = people.vouchedFor('Alice@Example.org')!;
  assert.equal(alice.role, 'member');
  assert.equal(alice.username, 'alice-example.org');
  assert.deepEqual(people.vouchedFor('Alice@Example.org'), alice, 'the same value, the same person');
  // Names a username cannot tell apart stay apart: each its own account.
  const jose1 = people.vouchedFor('josé')!;
  const jose2 = people.vouchedFor('josè')!;
  assert.notEqual(jose1.id, jose2.id);
  const li = people.vouchedFor('李雷')!;
  const wang = people.vouchedFor('王芳')!;
  assert.notEqual(li.id, wang.id);
  // And the proxy's "alice-example.org" is not the account made for "Alice@Example.org".
  assert.notEqual(people.vouchedFor('alice-example.org')!.id, alice.id);
});

test('an account whose name its holder chose is never taken by the header; a repeated header or a disabled account lets no one in', () => {
  const people = household();
  const { token } = people.invite(people.owner()!, 'member');
  const dave = people.accept(token, { username: 'dave', password: PASSWORD });
  const named = people.vouchedFor('dave')!;
  assert.notEqual(named.id, dave.id, 'the invited "dave" chose that name: the proxy’s dave is someone else');
  assert.equal(named.username, 'dave-2');
  assert.equal(people.vouchedFor('alice, mallory'), null);
  assert.equal(people.vouchedFor('   '), null);
  people.setDisabled('dave-2', true);
  assert.equal(people.vouchedFor('dave'), null);
});
