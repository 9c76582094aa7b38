import { randomUUID } from 'node:crypto';
import { handle, json, otherMethods, parseInput, readJson, searchParams } from '@/lib/http/http';
import { createThreadBody, listThreadsQuery } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { threadPage } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');

export function GET(request: Request) {
  return handle(request, () => {
    const { limit, cursor, folder, archived } = parseInput(listThreadsQuery, searchParams(request));
    return json(
      threadPage(getRuntime().store, limit, cursor, { folderId: folder === 'none' ? null : folder, archived: archived === 'true' }),
    );
  });
}

export function POST(request: Request) {
  return handle(request, async () => {
    const body = await readJson(request, createThreadBody);
    const thread = getRuntime().store.createThread({ id: randomUUID(), title: body.title ?? '', now: Date.now() });
    return json({ id: thread.id, title: thread.title, createdAt: thread.createdAt }, 201);
  });
}
