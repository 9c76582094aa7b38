import { NextResponse, type NextRequest } from 'next/server';
import { authVerdict } from '@/lib/auth/gate';
import { guardConfigFromEnv, guardedRequest, NOT_LOGGED_IN, requestRefusal, STARTING } from '@/lib/api/request-guard';
import { newNonce, pageSecurityPolicy } from '@/lib/api/security-headers';

/**
 * Before any page or route runs: the request guard (host names, cross-site writes, body
 * types; lib/api/request-guard.ts), the login (lib/auth/gate.ts), and for pages a
 * Content-Security-Policy with a fresh nonce (lib/api/security-headers.ts).
 */
const guardConfig = guardConfigFromEnv();
const dev = process.env.NODE_ENV === 'development';

const refuse = (status: number, code: string, message: string) => NextResponse.json({ error: { code, message } }, { status, headers: { 'Cache-Control': 'no-store' } });

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = pathname === '/api' || pathname.startsWith('/api/');
  const why = requestRefusal(guardedRequest(request), guardConfig);
  if (why) return refuse(why.code === 'forbidden' ? 403 : 415, why.code, why.message);

  const verdict = authVerdict(pathname, request.headers.get('cookie'));
  if (verdict === 'starting') return refuse(503, 'starting', STARTING);
  if (verdict === 'login') {
    if (isApi) return refuse(401, 'unauthorized', NOT_LOGGED_IN);
    const login = new URL('/login', request.url);
    if (pathname !== '/') login.searchParams.set('next', pathname + request.nextUrl.search);
    return NextResponse.redirect(login, 303);
  }
  if (isApi) return NextResponse.next();

  const nonce = newNonce();
  const policy = pageSecurityPolicy(nonce, { dev });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

/**
 * Every path but the upload and import routes: for a path it runs on, Next buffers the request
 * body (and cuts it at its proxy body limit), and uploads and imports stream to disk instead.
 * Those two routes run the same checks themselves (guardStreamingRoute).
 */
export const config = {
  matcher: ['/((?!api/attachments$|api/import$).*)', '/'],
};
