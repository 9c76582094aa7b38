import { NextResponse, type NextRequest } from 'next/server';
import { guardConfigFromEnv, requestRefusal } from '@/lib/api/request-guard';

/** Refuses rebound host names and cross-site writes before any route runs (see lib/api/request-guard.ts). */
const guardConfig = guardConfigFromEnv();

export function proxy(request: NextRequest) {
  const why = requestRefusal(
    { method: request.method, host: request.headers.get('host'), origin: request.headers.get('origin') },
    guardConfig,
  );
  if (why) return NextResponse.json({ error: { code: 'forbidden', message: why } }, { status: 403 });
  return NextResponse.next();
}

/**
 * Every path but the upload and import routes: for a path it runs on, Next buffers the request
 * body (and cuts it at its proxy body limit), and uploads and imports stream to disk instead.
 * Those two routes run the same guard themselves (guardStreamingRoute).
 */
export const config = {
  matcher: ['/((?!api/attachments$|api/import$).*)', '/'],
};
