import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openLibrary } from './open';
import { mainLibraryHasAccounts } from './has-accounts';
import { skipWithoutPostgres, withTestDatabase } from './pg/testing';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { parseConfig } from '@/lib/shared/config';

/** `npm start` lets Hearth listen beyond loopback without a password when the library has accounts: it must see them on either engine. */

const owner = { id: 'u', username: 'ada', role: 'owner' as const, passwordHash: null, library: 'hearth.db', createdAt: 0 };

async function seen(config: ReturnType<typeof parseConfig>) {
  const before = await mainLibraryHasAccounts(config);
  const store = await openLibrary(config, 'hearth.db');
  try {
    const empty = await mainLibraryHasAccounts(config);
    await store.insertUser(owner);
    return [before, empty, await mainLibraryHasAccounts(config)];
  } finally {
    await store.close();
  }
}

describe('whether the main library has accounts, before the server starts', () => {
  test('on SQLite: no file, no one, an owner', async () => {
    const config = parseConfig({ DATA_DIR: makeTempDir('hearth-accounts') });
    assert.deepEqual(await seen(config), [false, false, true]);
  });

  test('on PostgreSQL: no schema, no one, an owner', { skip: skipWithoutPostgres }, () =>
    withTestDatabase(async (url) => {
      const config = parseConfig({ DATA_DIR: makeTempDir('hearth-accounts'), DATABASE_URL: url });
      assert.deepEqual(await seen(config), [false, false, true]);
    }),
  );
});
