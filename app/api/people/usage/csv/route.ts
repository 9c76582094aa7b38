import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { everyonesUsage, usageDownload } from '@/lib/services/usage';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Everyone's usage as CSV: one line per person, day and model. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.everyonesUsageCsv, async ({ query, rt }) =>
    usageDownload(await everyonesUsage(rt.hearth, query().days, Date.now()), 'everyone'),
  ),
);
