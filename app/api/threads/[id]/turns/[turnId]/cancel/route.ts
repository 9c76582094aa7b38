import { handle, json, otherMethods, parseId } from '@/lib/http/http';
import { idParam } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { requireTurn } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

type Params = { params: Promise<{ id: string; turnId: string }> };

export function POST(request: Request, { params }: Params) {
  return handle(request, async () => {
    const p = await params;
    const threadId = parseId(idParam, p.id);
    const turnId = parseId(idParam, p.turnId, 'turn');
    const { store, turns } = getRuntime();
    const turn = requireTurn(store, threadId, turnId);
    const stopping = turns.cancel(turnId);
    return json({ turnId, stopping, status: stopping ? 'cancelling' : turn.status }, 202);
  });
}
