import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { installSessionCheck, isPublicPath } from '@/lib/services/auth/session-check';
import { base } from './harness';

/**
 * The proxy leaves /api alone (it would read whole bodies before answering), so every API
 * route guards itself. This walks every route file and every method it serves, as a stranger
 * would call it on a Hearth with a password: each answers 401 (405 for a method it does not
 * serve, 415 for a body it never takes) from the headers, without reading a byte of a body that
 * never ends, and a rebinding
 * host name is 403 on each.
 */

const apiDir = path.resolve(import.meta.dirname);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === 'route.ts' ? [full] : [];
  });
}

/** The URL path a route file serves, with sample values for its dynamic parts. */
function urlPath(file: string): string {
  const rel = path.relative(apiDir, path.dirname(file)).split(path.sep).filter(Boolean);
  const parts = rel.map((p) => (p === '[[...path]]' ? 'no-such-path' : p.startsWith('[') ? '00000000-0000-4000-8000-000000000000' : p));
  return `/api/${parts.join('/')}`.replace(/\/$/, '');
}

const params = {
  params: Promise.resolve({
    id: '00000000-0000-4000-8000-000000000000',
    messageId: '00000000-0000-4000-8000-000000000001',
    turnId: '00000000-0000-4000-8000-000000000002',
    path: ['no-such-path'],
  }),
};

/** A body that never ends, which says whether anything read it. */
function endlessBody() {
  const seen = { read: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.read = true;
        controller.enqueue(new Uint8Array(64 * 1024));
        return new Promise(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, seen };
}

test('every API route, every method: no session is 401 (or 405) from the headers, and the body is never read', async () => {
  installSessionCheck({ required: async () => true, person: async () => null, owner: async () => null, vouched: async () => null });
  const files = routeFiles(apiDir);
  assert.ok(files.length >= 20, `found the routes (${files.length})`);
  let checked = 0;
  for (const file of files) {
    const route = (await import(file)) as Record<string, ((req: Request, p: typeof params) => Promise<Response> | Response) | undefined>;
    const at = urlPath(file);
    for (const method of METHODS) {
      const handler = route[method];
      if (!handler) continue;
      const stranger = await handler(new Request(`${base}${at}`, { method, headers: { Host: '127.attacker.com:3000' } }), params);
      assert.ok([403, 405].includes(stranger.status), `${method} ${at} with a rebinding host: ${stranger.status}`);
      checked++;
      // The login's own routes are open without a session (and read their small bodies).
      if (isPublicPath(at)) continue;
      const { body, seen } = endlessBody();
      const hasBody = method !== 'GET';
      const request = new Request(`${base}${at}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...(hasBody ? { 'Content-Length': String(20 * 1024 * 1024) } : {}) },
        ...(hasBody ? { body, duplex: 'half' } : {}),
      } as RequestInit);
      const res = await handler(request, params);
      assert.ok([401, 405, 415].includes(res.status), `${method} ${at}: ${res.status} ${await res.clone().text()}`);
      assert.equal(seen.read, false, `${method} ${at} read the body of a request it refused`);
    }
  }
  assert.ok(checked >= 30, `checked ${checked} route methods`);
});
