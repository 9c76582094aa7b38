import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, memoryBody } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { editMemory, forgetMemory } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, POST, PUT, OPTIONS } = otherMethods('PATCH', 'DELETE');

type Params = { params: Promise<{ id: string }> };

export function PATCH(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id, 'memory');
    const { text } = await readJson(request, memoryBody);
    return json(editMemory(getRuntime(), id, text));
  });
}

export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    forgetMemory(getRuntime(), parseId(idParam, (await params).id, 'memory'));
    return new Response(null, { status: 204 });
  });
}
