import { handle, otherMethods } from '@/lib/http/http';
import { libraryEventStream, SSE_HEADERS } from '@/lib/http/sse';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

/** Library changes made outside a page's own turn (a fact remembered, a title written), live. */
export function GET(request: Request) {
  return handle(request, async () => new Response(libraryEventStream(getRuntime().updates, request.signal), { headers: SSE_HEADERS }));
}
