import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { usageDownload, usageOf } from '@/lib/services/usage';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The person's own usage as CSV. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.usageCsv, async ({ query, rt }) => usageDownload(await usageOf(rt, query().days, Date.now()), rt.person.username)),
);
