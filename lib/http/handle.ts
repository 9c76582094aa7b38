import type { z } from 'zod';
import { nestsDeeperThan, tooDeep } from '@/lib/shared/json-depth';
import { asStorageFull, errorStatus, hasErrorCode, HearthError, isHearthError } from '@/lib/shared/errors';
import { issueInWords, issuePath } from '@/lib/shared/zod-issue';
import { guardConfigFromEnv, guardRoute, JSON_BODY, type BodyTypes } from './request-guard';

/** The edge of the HTTP contract: JSON answers, typed errors, bodies parsed with zod. */

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export function errorResponse(err: unknown): Response {
  // Read by value: err may come from another bundle's copy of HearthError (lib/shared/errors.ts).
  if (isHearthError(err)) {
    // The field at fault, as a path into the body ("modelServers.0.url"), for the page to mark.
    const field = typeof err.detail?.field === 'string' ? err.detail.field : undefined;
    return json({ error: { code: err.code, message: err.message, ...(field !== undefined ? { field } : {}) } }, errorStatus[err.code]);
  }
  const full = asStorageFull(err);
  if (full) return errorResponse(full);
  // Details of unexpected failures go to the log, never to the client.
  console.error(err);
  return json({ error: { code: 'internal', message: 'Something went wrong on the server. The details are in its log.' } }, 500);
}

const guard = guardConfigFromEnv();

/**
 * Runs an API handler: first the request guard and the login (lib/http/request-guard.ts), from
 * the headers alone, so a request that is refused never has its body read; then the handler,
 * turning whatever it throws into the JSON error contract. The proxy leaves /api to this, as
 * Next would read a whole body before the proxy's answer went out. `bodyTypes`: what a write
 * may carry (JSON unless the route takes files).
 */
export async function handle(
  request: Request,
  fn: () => Promise<Response> | Response,
  bodyTypes: BodyTypes = JSON_BODY,
): Promise<Response> {
  try {
    await guardRoute(request, guard, bodyTypes);
    return await fn();
  } catch (err) {
    return errorResponse(err);
  }
}

/** A JSON body larger than this is refused before parsing (a message is capped lower). */
const MAX_JSON_BYTES = 1_000_000;

/**
 * Reads a request body of at most `max` bytes. A larger one is refused as soon as that is
 * known: at once from its declared length, or while reading when it comes chunked (or lies
 * about its length), so an endless body never fills memory.
 */
export async function readBodyCapped(request: Request, max: number, tooLarge: string): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length') ?? 0) > max) throw new HearthError('too_large', tooLarge);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new HearthError('too_large', tooLarge);
    }
    parts.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return body;
}

export async function readJson<S extends z.ZodType>(request: Request, schema: S, labelOf?: FieldLabels): Promise<z.infer<S>> {
  const type = request.headers.get('content-type') ?? '';
  if (type && !/^application\/json\s*(;|$)/i.test(type)) throw new HearthError('unsupported_type', 'Send the body as application/json.');
  const bytes = await readBodyCapped(request, MAX_JSON_BYTES, `The body is larger than ${MAX_JSON_BYTES} bytes.`);
  let value: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (nestsDeeperThan(text)) throw new HearthError('bad_request', `${tooDeep('The body')}.`);
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    if (hasErrorCode(err, 'bad_request')) throw err;
    throw new HearthError('invalid_json', 'The body is not valid JSON (UTF-8).');
  }
  return parseInput(schema, value, labelOf);
}

/** A field's name as the page labels it, from its path; undefined: the path itself is said. */
export type FieldLabels = (path: readonly PropertyKey[]) => string | undefined;

/**
 * The value, or a 400 that says which field is wrong in the page's words ("Fuel: must be at
 * least 100."), with the field's path beside the message for the page to mark it.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, labelOf?: FieldLabels): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issuePath(issue);
    const where = labelOf?.(issue.path) ?? (field || 'body');
    const code = issue.code === 'too_big' && issue.path[0] === 'content' ? 'too_large' : 'bad_request';
    const words = issueInWords(issue);
    throw new HearthError(code, `${where}: ${words}${/[.!?]$/.test(words) ? '' : '.'}`, field ? { field } : undefined);
  }
  return parsed.data;
}

/** A path id: a malformed one names nothing, so it is 404 like an unknown one. */
export function parseId(schema: z.ZodType<string>, value: unknown, what = 'thread'): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HearthError('not_found', `There is no ${what} with that id.`);
  return parsed.data;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type MethodHandlers = Record<Method | 'HEAD' | 'OPTIONS', () => Response>;

/**
 * Handlers for the methods a route does not serve. Next answers those with an empty 405;
 * Hearth's contract is a JSON error, with an Allow header. A route exports what it lacks:
 *   export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');
 * OPTIONS is included so Next's automatic answer does not list these stand-ins as allowed.
 */
export function otherMethods(...allowed: Method[]): MethodHandlers {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const refuse = () =>
    json({ error: { code: 'method_not_allowed', message: `This path answers ${allowed.join(' and ')} only.` } }, 405, { Allow: allow });
  const options = () => new Response(null, { status: 204, headers: { Allow: allow } });
  return { GET: refuse, HEAD: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: options };
}

export function searchParams(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams.entries());
}
