import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { answers, type Endpoint } from '@/lib/contract/endpoints';
import { installSessionCheck } from '@/lib/services/auth/session-check';
import { noContent, on, refusal, reply, serve } from './serve';

// A Hearth without accounts: every request may go on (until a runtime installs its check, all are held back).
installSessionCheck({ required: async () => false, person: async () => null, owner: async () => null, vouched: async () => null });

/** Route handlers declared through the table: what they are given, what they must answer, and what the rest of the methods get. */

const thing = { schema: z.string().uuid(), names: 'thing', malformed: 'not_found' } as const;
const getThing = {
  method: 'GET',
  path: '/api/things/:id',
  params: { id: thing },
  query: z.object({ n: z.coerce.number().int().default(1) }),
  answer: answers.json<{ id: string; n: number }>(),
} as const satisfies Endpoint;
const putThing = {
  method: 'PUT',
  path: '/api/things/:id',
  params: { id: thing },
  body: z.object({ name: z.string().min(1) }).strict(),
  answer: answers.none,
} as const satisfies Endpoint;

const ID = '9b2f7f36-5d4e-4c55-9d0b-3c1a4f1e2a10';
const url = (rest = '') => `http://127.0.0.1:3000/api/things/${ID}${rest}`;
const context = (id = ID) => ({ params: Promise.resolve({ id }) });

describe('serve', () => {
  const seen: string[] = [];
  const route = serve(
    on(getThing, ({ params, query }) => reply({ id: params.id, n: query().n })),
    on(putThing, async ({ params, body }) => {
      seen.push(`${params.id}:${(await body()).name}`);
      return noContent();
    }),
  );

  test('a handler gets its checked parameters, query and body, and its answer goes out as JSON', async () => {
    const res = await route.GET(new Request(url('?n=3')), context());
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { id: ID, n: 3 });
    const put = await route.PUT(
      new Request(url(), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' }),
      context(),
    );
    assert.equal(put.status, 204);
    assert.deepEqual(seen, [`${ID}:x`]);
  });

  test('a malformed id is 404 before the handler runs; a bad query or body is a 400 naming the field', async () => {
    const res = await route.GET(new Request('http://127.0.0.1:3000/api/things/nope'), context('nope'));
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: { code: 'not_found', message: 'There is no thing with that id.' } });
    const query = await route.GET(new Request(url('?n=x')), context());
    assert.equal(query.status, 400);
    assert.match((await query.json()).error.message, /^n: /);
    const body = await route.PUT(
      new Request(url(), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":""}' }),
      context(),
    );
    assert.equal(body.status, 400);
    assert.equal((await body.json()).error.field, 'name');
  });

  test('HEAD is served by GET; the methods no endpoint has are a JSON 405 with Allow; OPTIONS lists them', async () => {
    assert.equal((await route.HEAD(new Request(url(), { method: 'HEAD' }), context())).status, 200);
    const post = await route.POST(new Request(url(), { method: 'POST' }), context());
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, PUT, HEAD, OPTIONS');
    assert.equal((await post.json()).error.code, 'method_not_allowed');
    assert.equal((await route.OPTIONS(new Request(url(), { method: 'OPTIONS' }))).headers.get('allow'), 'GET, PUT, HEAD, OPTIONS');
  });

  test('an error answer with its own headers (Retry-After) is still the JSON error contract', async () => {
    const limited = serve(on(getThing, () => refusal('rate_limited', 'Wait.', 429, { 'Retry-After': '5' })));
    const res = await limited.GET(new Request(url()), context());
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '5');
    assert.deepEqual(await res.json(), { error: { code: 'rate_limited', message: 'Wait.' } });
  });

  test('one route file serves one path, one handler per method', () => {
    assert.throws(
      () =>
        serve(
          on(getThing, () => reply({ id: '', n: 0 })),
          on({ ...putThing, path: '/api/other/:id' }, () => noContent()),
        ),
      /one path/,
    );
    assert.throws(
      () =>
        serve(
          on(getThing, () => reply({ id: '', n: 0 })),
          on(getThing, () => reply({ id: '', n: 0 })),
        ),
      /two handlers/,
    );
  });

  test('the compiler holds each handler to its endpoint (checked by tsc in npm test)', () => {
    // @ts-expect-error a field of the wrong type
    on(getThing, () => reply({ id: 'x', n: 'one' }));
    // @ts-expect-error a plain Response is not the endpoint's JSON
    on(getThing, () => new Response('{}'));
    // @ts-expect-error an endpoint that answers nothing cannot answer JSON
    on(putThing, () => reply({ ok: true }));
    // @ts-expect-error no such parameter
    on(getThing, ({ params }) => reply({ id: params.other, n: 1 }));
  });
});
