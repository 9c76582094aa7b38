import { randomUUID } from 'node:crypto';
import { decodeCursor } from '@/db/queries/threads';
import { HearthError } from '@/lib/errors';
import { handle, json, otherMethods, parseInput, readJson, searchParams } from '@/lib/api/http';
import { createThreadBody, listThreadsQuery } from '@/lib/api/schemas';
import { getRuntime } from '@/lib/server/runtime';
import { threadSummary } from '@/lib/server/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');

export function GET(request: Request) {
  return handle(request, () => {
    const { limit, cursor } = parseInput(listThreadsQuery, searchParams(request));
    const decoded = cursor ? decodeCursor(cursor) : undefined;
    if (cursor && !decoded) throw new HearthError('bad_request', 'cursor: not a cursor this server gave out');
    const page = getRuntime().store.listThreads({ limit, cursor: decoded ?? undefined });
    return json({ threads: page.threads.map(threadSummary), nextCursor: page.nextCursor });
  });
}

export function POST(request: Request) {
  return handle(request, async () => {
    const body = await readJson(request, createThreadBody);
    const thread = getRuntime().store.createThread({ id: randomUUID(), title: body.title ?? '', now: Date.now() });
    return json({ id: thread.id, title: thread.title, createdAt: thread.createdAt }, 201);
  });
}
