import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { everyonesUsage } from '@/lib/services/usage';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Everyone's usage, by person, day and model: the owner's to see. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.everyonesUsage, async ({ query, rt }) => reply(await everyonesUsage(rt.hearth, query().days, Date.now()))),
);
