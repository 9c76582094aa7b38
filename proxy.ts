import { NextResponse, type NextRequest } from 'next/server';
import { authVerdict } from '@/lib/services/auth/session-check';
import { guardConfigFromEnv, guardedRequest, requestRefusal, STARTING } from '@/lib/http/request-guard';
import { newNonce, pageSecurityPolicy } from '@/lib/http/security-headers';

/**
 * Before any page or static file is served: the methods they answer, the request guard (host
 * names; lib/http/request-guard.ts), the login (lib/services/auth/session-check.ts), and for pages a
 * Content-Security-Policy with a fresh nonce (lib/http/security-headers.ts). API routes make the
 * same checks themselves (see config below).
 */
const guardConfig = guardConfigFromEnv();
const dev = process.env.NODE_ENV === 'development';

const refuse = (status: number, code: string, message: string) =>
  NextResponse.json({ error: { code, message } }, { status, headers: { 'Cache-Control': 'no-store' } });

/** What pages and static files answer: Hearth has no server actions, every write goes to /api. */
const PAGE_METHODS = 'GET, HEAD, OPTIONS';

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // Next answers other methods on a static file with a bare 500, and OPTIONS on a page with 400.
  if (request.method === 'OPTIONS') return new NextResponse(null, { status: 204, headers: { Allow: PAGE_METHODS } });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const refused = refuse(405, 'method_not_allowed', 'Pages and files answer GET and HEAD only.');
    refused.headers.set('Allow', PAGE_METHODS);
    return refused;
  }
  const why = requestRefusal(guardedRequest(request), guardConfig);
  if (why) return refuse(why.code === 'forbidden' ? 403 : 415, why.code, why.message);

  const verdict = await authVerdict(pathname, request.headers);
  if (verdict === 'starting') return refuse(503, 'starting', STARTING);
  if (verdict === 'login') {
    const login = new URL('/login', request.url);
    if (pathname !== '/') login.searchParams.set('next', pathname + request.nextUrl.search);
    return NextResponse.redirect(login, 303);
  }
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
 * Pages and static files, not /api: for a path the proxy runs on, Next reads the whole request
 * body before the proxy's answer goes out (and buffers it, up to its body limit), so a 401 to
 * a stranger's 20 MB POST would come after all of it. Every API route runs the same checks
 * itself, from the headers, before it reads a byte (handle in lib/http/handle.ts).
 */
export const config = {
  matcher: ['/((?!api(?:/|$)).*)', '/'],
};
