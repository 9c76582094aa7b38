import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { libraryEventStream, SSE_HEADERS } from '@/lib/http/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Changes to the person's library made outside a page's own turn (a fact remembered, a title written), live. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.libraryEvents, ({ request, rt }) => new Response(libraryEventStream(rt.updates, request.signal), { headers: SSE_HEADERS })),
);
