import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { libraryEventStream, SSE_HEADERS } from '@/lib/http/sse';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Library changes made outside a page's own turn (a fact remembered, a title written), live. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(
    endpoints.libraryEvents,
    ({ request }) => new Response(libraryEventStream(getRuntime().updates, request.signal), { headers: SSE_HEADERS }),
  ),
);
