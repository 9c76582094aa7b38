import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { usageOf } from '@/lib/services/usage';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** What the person's own turns used, by day and model, and the limits the owner set for them. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.getUsage, async ({ query, rt }) => reply(await usageOf(rt, query().days, Date.now()))),
);
