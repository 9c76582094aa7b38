import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, patchPromptBody } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { editPrompt, removePrompt } from '@/lib/services/prompts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, POST, PUT, OPTIONS } = otherMethods('PATCH', 'DELETE');

type Params = { params: Promise<{ id: string }> };

export function PATCH(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id, 'prompt');
    return json(editPrompt(getRuntime().store, id, await readJson(request, patchPromptBody)));
  });
}

export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    removePrompt(getRuntime().store, parseId(idParam, (await params).id, 'prompt'));
    return new Response(null, { status: 204 });
  });
}
