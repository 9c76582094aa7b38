import type { z } from 'zod';
import type { AnswerOf, Body, Endpoint, Method } from '@/lib/contract/endpoints';
import { HearthError } from '@/lib/shared/errors';
import type { Person } from '@/lib/services/auth/people';
import { isPublicPath, requestPerson } from '@/lib/services/auth/session-check';
import { getRuntime, type Runtime } from '@/lib/services/runtime';
import { handle, json, otherMethods, parseInput, readJson, searchParams, type FieldLabels } from './handle';
import { JSON_BODY, type BodyTypes } from './request-guard';

/**
 * Route handlers declared through the endpoint table (lib/contract/endpoints.ts). A route file
 * exports what `serve` gives for its endpoints; each handler receives its path parameters
 * already checked and must answer the endpoint's type: `reply(value)` for JSON (a value of the
 * wrong shape does not compile), `noContent()` for 204, any Response for a stream or a file.
 */

declare const replied: unique symbol;
/** A JSON response whose body is a T. */
export type Reply<T> = Response & { readonly [replied]: T };

export function reply<T>(data: T, status = 200, headers: Record<string, string> = {}): Reply<T> {
  return json(data, status, headers) as Reply<T>;
}

export function noContent(): Reply<void> {
  return new Response(null, { status: 204 }) as Reply<void>;
}

/** An error answer the handler writes itself (with headers a thrown error cannot carry, such as Retry-After). */
export function refusal(code: string, message: string, status: number, headers: Record<string, string> = {}): Reply<never> {
  return json({ error: { code, message } }, status, headers) as Reply<never>;
}

type Result<E extends Endpoint> = E['answer'] extends { kind: 'json' }
  ? Reply<AnswerOf<E>>
  : E['answer'] extends { kind: 'none' }
    ? Reply<void>
    : Response;

export type Input<E extends Endpoint> = {
  request: Request;
  /** The path parameters, each checked by its schema (a malformed id answered 404 before the handler runs). */
  params: { [K in keyof E['params']]: string };
  /** The query, parsed when the handler asks (so it decides what is checked first). */
  query: () => E['query'] extends z.ZodType ? z.output<E['query']> : never;
  /** The JSON body, read and parsed when the handler asks. */
  body: () => Promise<E['body'] extends z.ZodType ? z.output<E['body']> : never>;
  /**
   * Hearth as the request's person has it: the shared parts and their own library. The only way
   * a handler reaches a library, so every route reads and writes the asking person's data only
   * (another's ids are simply not there: 404, as an unknown one). Asked for by the handler, so
   * the login routes, which have no person yet, never resolve one.
   */
  readonly rt: Runtime;
};

type Handler<E extends Endpoint> = (input: Input<E>) => Promise<Result<E>> | Result<E>;

/** Next's route context: the dynamic segments' values. */
type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;

export type Served = { readonly endpoint: Endpoint; readonly run: RouteHandler };

/** What a request of each kind may carry; anything else is refused before it is read. */
const BODY_TYPES: Record<Exclude<Body, z.ZodType | undefined>, BodyTypes> = {
  upload: { pattern: /^multipart\/form-data\s*;/i, name: 'multipart/form-data with the file in a field called "file"' },
  'upload-or-json': {
    pattern: /^(multipart\/form-data\s*;|application\/json\s*(;|$))/i,
    name: 'multipart/form-data with the file in a field called "file", or application/json {attachmentId}',
  },
  bytes: {
    pattern: /^application\/(json|x-ndjson|octet-stream)\s*(;|$)/i,
    name: 'the library file itself (application/json, application/x-ndjson or application/octet-stream), not a form',
  },
};

function bodyTypes(body: Body): BodyTypes {
  return typeof body === 'string' ? BODY_TYPES[body] : JSON_BODY;
}

async function checkedParams(endpoint: Endpoint, context: RouteContext | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  const out: Record<string, string> = {};
  for (const [name, param] of Object.entries(endpoint.params ?? {})) {
    const value = raw[name];
    if (param.malformed === 'bad_request') {
      out[name] = parseInput(param.schema, value);
      continue;
    }
    const parsed = param.schema.safeParse(value);
    if (!parsed.success) throw new HearthError('not_found', `There is no ${param.names} with that id.`);
    out[name] = parsed.data;
  }
  return out;
}

/** One endpoint's handler, for `serve`. `labels`: the page's names for a body's fields, for refusals in its words. */
export function on<E extends Endpoint>(endpoint: E, handler: Handler<E>, options: { labels?: FieldLabels } = {}): Served {
  const run: RouteHandler = (request, context) =>
    handle(
      request,
      async () => {
        // The request's person, looked up once; the open routes (login, logout, invitations) are
        // no one's: they never reach a library, and a failing one cannot keep anyone from logging out.
        const who = isPublicPath(new URL(request.url).pathname) ? null : await requestPerson(request.headers);
        // Who may ask, before anything of the request is looked at.
        if (endpoint.who) allowed(endpoint.who, who);
        const params = await checkedParams(endpoint, context);
        const rt: Runtime | undefined = who ? await (await getRuntime()).as(who) : undefined;
        const input = {
          request,
          get rt() {
            if (!rt) throw new HearthError('unauthorized', 'Log in first.');
            return rt;
          },
          params,
          query: () => (endpoint.query ? parseInput(endpoint.query, searchParams(request)) : undefined),
          body: async () => {
            const schema = endpoint.body;
            if (typeof schema !== 'object') throw new Error(`${endpoint.method} ${endpoint.path} has no JSON body to read`);
            return readJson(request, schema, options.labels);
          },
        } as unknown as Input<E>;
        return handler(input);
      },
      bodyTypes(endpoint.body),
    );
  return { endpoint, run };
}

/** An endpoint for an admin or the owner: anyone else is refused before the handler runs. */
function allowed(who: 'admin' | 'owner', person: Person | null): void {
  if (!person) throw new HearthError('unauthorized', 'Log in first.');
  if (person.role === 'owner' || (who === 'admin' && person.role === 'admin')) return;
  throw new HearthError(
    'forbidden',
    who === 'owner' ? 'Only the owner of this Hearth may change this.' : 'Only the owner or an admin of this Hearth may change this.',
  );
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The exports of a route file: one handler per method its endpoints use, and the JSON 405
 * (with Allow) for the rest. All endpoints given must share one path.
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(on(endpoints.x, …), …);
 */
export function serve(...served: Served[]): Record<Method | 'HEAD' | 'OPTIONS', RouteHandler> {
  const paths = new Set(served.map((s) => s.endpoint.path));
  if (paths.size !== 1) throw new Error(`serve: one path per route file, not ${[...paths].join(', ')}`);
  const byMethod = new Map(served.map((s) => [s.endpoint.method, s.run]));
  if (byMethod.size !== served.length) throw new Error(`serve: two handlers for one method of ${[...paths][0]}`);
  const allowed = METHODS.filter((m) => byMethod.has(m));
  const others = otherMethods(...allowed);
  const pick = (m: Method | 'HEAD' | 'OPTIONS'): RouteHandler => {
    const run = byMethod.get(m === 'HEAD' ? 'GET' : (m as Method));
    if (run && m !== 'OPTIONS') return run;
    const fallback = others[m];
    return async () => fallback();
  };
  return {
    GET: pick('GET'),
    HEAD: pick('HEAD'),
    POST: pick('POST'),
    PUT: pick('PUT'),
    PATCH: pick('PATCH'),
    DELETE: pick('DELETE'),
    OPTIONS: pick('OPTIONS'),
  };
}
