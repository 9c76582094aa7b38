/**
 * One typed error for everything Hearth reports to a client. The code decides the HTTP
 * status; the message is a sentence for a person. Tests assert on the code.
 */
export const errorStatus = {
  bad_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  turn_running: 409,
  /** The change would break what must hold (a name taken, the last owner removed). */
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  image_unavailable: 422,
  refused: 400,
  model_error: 502,
  model_stream_broken: 502,
  context_overflow: 400,
  model_unreachable: 503,
  /** A speech server is not set (the page speaks and listens with the browser's own), down, or loading. */
  no_speech_server: 503,
  speech_unreachable: 503,
  speech_error: 502,
  db_unavailable: 503,
  budget_exhausted: 429,
  rate_limited: 429,
  /** The single sign-on provider did not answer. */
  sign_on_unreachable: 503,
  /** A person's own limit (turns a day), as the owner set it. */
  limit_reached: 429,
  storage_full: 507,
  starting: 503,
  cancelled: 499,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * Errors are recognised by a brand, never by `instanceof`. Next bundles instrumentation and
 * each route apart, so one class can exist twice in a process: the turn supervisor is built
 * from instrumentation's copy of this module, and a route checking against its own copy
 * would not recognise an error made by that one. A property under a process-wide symbol
 * (Symbol.for) reads the same from every copy.
 */
const BRAND = Symbol.for('hearth.error.brand');

/** Marks an error as being of the named kind, in a way every bundle's copy can read. */
export function brand(err: Error, kind: string): void {
  Object.defineProperty(err, BRAND, { value: kind, enumerable: false });
  err.name = kind;
}

/** Whether a value is an error branded with this kind (whichever bundle made it). */
export function isBranded(err: unknown, kind: string): err is Error {
  return typeof err === 'object' && err !== null && (err as { [BRAND]?: unknown })[BRAND] === kind;
}

export class HearthError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
    brand(this, 'HearthError');
  }

  toJSON() {
    return { code: this.code, message: this.message };
  }
}

/** A HearthError from any bundle, with a code this copy knows (so its status is defined). */
export function isHearthError(err: unknown): err is HearthError {
  return isBranded(err, 'HearthError') && Object.hasOwn(errorStatus, (err as { code?: unknown }).code as PropertyKey);
}

/** Whether err is a HearthError with one of these codes. */
export function hasErrorCode(err: unknown, ...codes: ErrorCode[]): boolean {
  return isHearthError(err) && codes.includes(err.code);
}

export const STORAGE_FULL_MESSAGE =
  'The disk (or HEARTH_MAX_DB_MB) is full: nothing new could be saved. Everything stored before is safe; free some space and try again.';

/**
 * An error and the errors it was caused by (drizzle wraps the database driver's in `cause`,
 * fetch wraps undici's in a TypeError, openai wraps that).
 */
export function* causes(err: unknown): Generator<{ code?: unknown; mark?: unknown; message?: unknown }> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** Codes of a full disk: SQLite's, the file system's, PostgreSQL's disk_full. */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);

/**
 * A full disk, as SQLite (SQLITE_FULL), PostgreSQL (53100) or the file system (ENOSPC, EDQUOT)
 * reports it, becomes the typed storage_full error (507) instead of an internal one: the user
 * can act on it.
 */
export function asStorageFull(err: unknown): HearthError | null {
  for (const e of causes(err)) if (FULL.has(e.code as string)) return new HearthError('storage_full', STORAGE_FULL_MESSAGE);
  return null;
}

/** Whether a write failed for a row it refers to that is not there (SQLite's and PostgreSQL's words for it). */
export function isForeignKeyFailure(err: unknown): boolean {
  for (const e of causes(err)) if (e.code === '23503' || /FOREIGN KEY constraint failed/.test(String(e.message ?? ''))) return true;
  return false;
}
