import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { memoryBody } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { addMemory, memoryView } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');

export function GET(request: Request) {
  return handle(request, () => json({ memories: getRuntime().store.listMemories().map(memoryView) }));
}

export function POST(request: Request) {
  return handle(request, async () => {
    const { text } = await readJson(request, memoryBody);
    return json(addMemory(getRuntime(), text), 201);
  });
}
