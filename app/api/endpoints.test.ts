import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { endpoints, pathOf, type Endpoint } from '@/lib/contract/endpoints';
import { setRuntime } from '@/lib/services/runtime';
import { makeRuntime, params, req, sharedDouble } from './harness';

/**
 * The endpoint table and the route files agree, walked from the table and from the folder: every
 * endpoint has its route, every route serves exactly the table's methods for its path (the rest
 * are a JSON 405 with Allow), and every path parameter is checked before a handler runs. A new
 * endpoint is covered here without anyone adding a test for it.
 */

type RouteHandler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', RouteHandler>>;

const API = path.join(import.meta.dirname);
const table: Endpoint[] = Object.values(endpoints);

/** app/api/threads/[id]/route.ts ↔ /api/threads/:id */
const fileOfPath = (p: string) =>
  path.join(
    API,
    ...p
      .replace(/^\/api\/?/, '')
      .split('/')
      .filter(Boolean)
      .map((s) => s.replace(/^:(\w+)$/, '[$1]')),
    'route.ts',
  );
const pathOfFile = (file: string) =>
  `/api/${path
    .relative(API, path.dirname(file))
    .split(path.sep)
    .filter(Boolean)
    .map((s) => s.replace(/^\[(\w+)\]$/, ':$1'))
    .join('/')}`.replace(/\/$/, '');

function routeFiles(dir = API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('[[...') ? [] : routeFiles(full);
    return entry.name === 'route.ts' ? [full] : [];
  });
}

const load = (file: string) => import(file) as Promise<RouteModule>;

const double = sharedDouble();

describe('the endpoint table', () => {
  before(async () => {
    await makeRuntime({ llamaUrl: double.double.url });
  });
  after(() => setRuntime(undefined));

  test('every endpoint has its route file, and every route file serves a path of the table', () => {
    const paths = new Set(table.map((e) => e.path));
    for (const p of paths) assert.ok(fs.existsSync(fileOfPath(p)), `${p} has no ${path.relative(API, fileOfPath(p))}`);
    for (const file of routeFiles()) assert.ok(paths.has(pathOfFile(file)), `${path.relative(API, file)} serves no endpoint of the table`);
    assert.equal(table.length, new Set(table.map((e) => `${e.method} ${e.path}`)).size, 'one endpoint per method and path');
  });

  test("each route allows exactly its endpoints' methods; any other is a JSON 405 naming them", async () => {
    for (const file of routeFiles()) {
      const p = pathOfFile(file);
      const methods = table.filter((e) => e.path === p).map((e) => e.method);
      const route = await load(file);
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
      const options = await route.OPTIONS!(req('OPTIONS', p));
      assert.equal(options.status, 204, p);
      assert.deepEqual(options.headers.get('allow')?.split(', ').sort(), allow.sort(), p);
      for (const other of (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => !methods.includes(m))) {
        const res = await route[other]!(req(other, p));
        assert.equal(res.status, 405, `${other} ${p}`);
        assert.equal((await res.json()).error.code, 'method_not_allowed');
        assert.equal(res.headers.get('allow')?.split(', ').sort().join(), allow.sort().join());
      }
    }
  });

  test('a path parameter that cannot name anything is answered before the handler: an id as unknown (404), a name as malformed (400)', async () => {
    for (const endpoint of table.filter((e) => e.params)) {
      const given = Object.fromEntries(Object.keys(endpoint.params!).map((name) => [name, 'not an id!']));
      const route = await load(fileOfPath(endpoint.path));
      const res = await route[endpoint.method]!(req(endpoint.method, pathOf(endpoint, given)), params(given));
      const [first] = Object.values(endpoint.params!);
      const where = `${endpoint.method} ${endpoint.path}`;
      assert.equal(res.status, first.malformed === 'not_found' ? 404 : 400, where);
      const { error } = await res.json();
      assert.equal(error.code, first.malformed, where);
      if (first.malformed === 'not_found') assert.equal(error.message, `There is no ${first.names} with that id.`, where);
    }
  });

  test('pathOf fills each parameter encoded and leaves out a query value that is not given', () => {
    assert.equal(pathOf(endpoints.rateAnswer, { id: 'a/b', messageId: 'c d' }), '/api/threads/a%2Fb/messages/c%20d/rating');
    assert.equal(
      pathOf(endpoints.listThreads, {}, { limit: 5, cursor: undefined, folder: '', archived: 'true' }),
      '/api/threads?limit=5&archived=true',
    );
    assert.equal(pathOf(endpoints.followTurn, { id: 't', turnId: 'u' }, { after: 0 }), '/api/threads/t/turns/u/events?after=0');
    assert.throws(() => pathOf(endpoints.getThread, {}), /no value for :id/);
  });
});
