import { randomUUID } from 'node:crypto';
import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { folderBody } from '@/lib/contract/requests';
import type { FolderView } from '@/lib/contract/responses';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');

/** GET /api/folders: the folders, by name, each with how many threads it holds. */
export function GET(request: Request) {
  return handle(request, () => json({ folders: getRuntime().store.listFolders() satisfies FolderView[] }));
}

/** POST /api/folders {name} → 201 {id, name}. */
export function POST(request: Request) {
  return handle(request, async () => {
    const { name } = await readJson(request, folderBody);
    const { store, updates } = getRuntime();
    const folder = store.createFolder({ id: randomUUID(), name, now: Date.now() });
    updates.publish({ type: 'library' });
    return json({ id: folder.id, name: folder.name, createdAt: folder.createdAt }, 201);
  });
}
