import { NextResponse, type NextRequest } from 'next/server';
import { requestRefusal } from '@/lib/api/request-guard';

/** Refuses rebound host names and cross-site writes before any route runs (see lib/api/request-guard.ts). */
const guardConfig = {
  listenHost: (process.env.HOST ?? '127.0.0.1').trim() || '127.0.0.1',
  allowedHosts: (process.env.HEARTH_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean),
};

export function proxy(request: NextRequest) {
  const why = requestRefusal(
    { method: request.method, host: request.headers.get('host'), origin: request.headers.get('origin') },
    guardConfig,
  );
  if (why) return NextResponse.json({ error: { code: 'forbidden', message: why } }, { status: 403 });
  return NextResponse.next();
}
