/**
 * The kinds of model (API) error a turn can end on, as Claude Code names them.
 *
 * @module
 */

/**
 * Why a model call failed, in Claude Code's words (its StopFailure `error` field, which its hooks' matchers test).
 * This runtime tells the kind from the HTTP status the error carries; an error without one is `unknown`.
 */
export type ModelErrorType =
  | 'authentication_failed'
  | 'billing_error'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'max_output_tokens'
  | 'unknown';

/**
 * The HTTP status a model call's error carries (`status`, `statusCode` or `response.status`), if any.
 *
 * @internal
 */
export const statusOf = (error: unknown): number | undefined => {
  if (error === null || typeof error !== 'object') return undefined;
  const e = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } | null };
  // The Anthropic and OpenAI SDKs put it in `status`, the AI SDK in `statusCode`, fetch wrappers on `response`.
  for (const value of [e.status, e.statusCode, e.response?.status]) {
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return undefined;
};

/**
 * The kind of a model call's error, from the HTTP status it carries (`status`, `statusCode` or `response.status`):
 * 401 and 403 `authentication_failed`, 402 `billing_error`, 429 `rate_limit`, 529 `overloaded`, 404
 * `model_not_found`, 400, 413 and 422 `invalid_request`, any other 5xx `server_error`; `unknown` otherwise.
 */
export function modelErrorType(error: unknown): ModelErrorType {
  const status = statusOf(error);
  switch (status) {
    case 401:
    case 403:
      return 'authentication_failed';
    case 402:
      return 'billing_error';
    case 429:
      return 'rate_limit';
    case 529:
      return 'overloaded';
    case 404:
      return 'model_not_found';
    case 400:
    case 413:
    case 422:
      return 'invalid_request';
    default:
      return status !== undefined && status >= 500 && status < 600 ? 'server_error' : 'unknown';
  }
}
