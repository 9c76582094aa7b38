import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FileStore } from '@/lib/data/file-store';
import { freshStore } from '@/lib/dev/testing/store';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import type { Runtime } from '@/lib/services/runtime';
import { libraryDownload } from './library-response';

/** A library with one thread, and one tool server configured for everyone. */
async function library(): Promise<Runtime> {
  const store = freshStore();
  await store.createThread({ id: '00000000-0000-4000-8000-000000000001', title: 'Ann’s thread', now: 1 });
  return {
    store,
    files: FileStore.of(makeTempDir('hearth-export')),
    toolServers: { forExport: () => [{ name: 'notes', server: { command: 'notes-server', env: { TOKEN: '••••••' } } }] },
  } as unknown as Runtime;
}

const records = async (res: Response) =>
  (await res.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string });

test('a library file holds its person’s library; the tool servers go only into an admin’s or the owner’s', async () => {
  const member = await records(libraryDownload(await library(), { id: 'a', username: 'ann', role: 'member' }));
  assert.ok(member.some((r) => r.type === 'thread'));
  assert.deepEqual(
    member.filter((r) => r.type === 'tool_server'),
    [],
    'a member does not see the tool servers',
  );
  const owner = await records(libraryDownload(await library(), { id: 'o', username: 'olive', role: 'owner' }));
  assert.equal(owner.filter((r) => r.type === 'tool_server').length, 1);
  const named = libraryDownload(await library(), { id: 'o', username: 'olive', role: 'owner' }, { name: 'ann' });
  assert.match(named.headers.get('content-disposition') ?? '', /^attachment; filename="hearth-library-ann-\d{4}-\d\d-\d\d\.jsonl"$/);
});
