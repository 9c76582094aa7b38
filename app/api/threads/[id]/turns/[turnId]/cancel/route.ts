import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { requireTurn } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Stops a turn: 202 with whether it is stopping, or the status it ended with already. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.cancelTurn, async ({ params: { id, turnId }, rt }) => {
    const { store, turns } = rt;
    const turn = await requireTurn(store, id, turnId);
    const stopping = await turns.cancel(turnId);
    return reply({ turnId, stopping, status: stopping ? 'cancelling' : turn.status }, 202);
  }),
);
