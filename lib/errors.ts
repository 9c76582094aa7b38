/**
 * One typed error for everything Hearth reports to a client. The code decides the HTTP
 * status; the message is a sentence for a person. Tests assert on the code.
 */
export const errorStatus = {
  bad_request: 400,
  invalid_json: 400,
  forbidden: 403,
  not_found: 404,
  turn_running: 409,
  too_large: 413,
  unsupported_type: 415,
  refused: 400,
  model_error: 502,
  model_stream_broken: 502,
  context_overflow: 400,
  model_unreachable: 503,
  budget_exhausted: 429,
  cancelled: 499,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class HearthError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HearthError';
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toJSON() {
    return { code: this.code, message: this.message };
  }
}

export function isHearthError(err: unknown): err is HearthError {
  return err instanceof HearthError;
}
