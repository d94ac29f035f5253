// Internal: not exported from the package.
import type * as Http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type * as Https from 'node:https';
import { lazyModule } from '../../core/internal/lazy-module.js';
import { messageOf } from '../../core/internal/message-of.js';

// Loaded at the first POST: every bridged call and `import 'agent-hooks'` load this module (the http hooks of config
// files live beside the command hooks), and on Node 22 and later an ES import of `node:http` reads every export of the
// module, which loads Node's fetch implementation (undici) behind one of them: tens of milliseconds on every start.
const http = lazyModule<typeof Http>('node:http');
const https = lazyModule<typeof Https>('node:https');

const MAX_TIMER_MS = 2_147_483_647;

/** One POST to send. */
export interface PostRequest {
  /** Where to (`http:` or `https:`). */
  readonly url: URL;
  /** The request body. */
  readonly body: string;
  /** Every header to send, `Content-Length` included. */
  readonly headers: Readonly<Record<string, string>>;
  /** Milliseconds for the whole exchange, from the request to the last byte of the answer. */
  readonly timeoutMs: number;
  /** The most bytes of answer body read; one more aborts the request. */
  readonly maxBodyBytes: number;
  /** Aborts the request. */
  readonly signal?: AbortSignal | undefined;
}

/** How one POST ended. */
export type PostResult =
  | {
      /** An answer arrived in full. */
      readonly kind: 'response';
      /** Its status code. */
      readonly status: number;
      /** Its body. */
      readonly body: Buffer;
      /** From the request to the last byte, in milliseconds. */
      readonly durationMs: number;
    }
  | {
      /** The body passed the cap: the request was aborted. */
      readonly kind: 'overflow';
      /** The status of the answer whose body was cut. */
      readonly status: number;
      /** From the request to the abort, in milliseconds. */
      readonly durationMs: number;
    }
  | {
      /** No full answer within the timeout: the request was aborted. */
      readonly kind: 'timeout';
      /** From the request to the abort, in milliseconds. */
      readonly durationMs: number;
    }
  | {
      /** The signal aborted the request (or had before it was sent). */
      readonly kind: 'aborted';
      /** From the request to the abort, in milliseconds. */
      readonly durationMs: number;
    }
  | {
      /** The request could not be made or the connection failed. */
      readonly kind: 'error';
      /** What went wrong. */
      readonly message: string;
      /** The system error code (`ECONNREFUSED`, `ERR_INVALID_CHAR`, …), when there is one. */
      readonly code: string | undefined;
      /** From the request to the failure, in milliseconds. */
      readonly durationMs: number;
    };

/**
 * Sends one POST with `node:http` / `node:https` and reads the answer, bounded in time and size. Never rejects: every
 * way it can end is a {@link PostResult}. Redirects are not followed (a 3xx is an answer like any other), the body is
 * not decompressed, and only the given headers are sent (besides `Host` and `Connection`, which Node adds).
 */
export function postJson(request: PostRequest): Promise<PostResult> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  if (request.signal?.aborted === true) return Promise.resolve({ kind: 'aborted', durationMs: 0 });
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let req: Http.ClientRequest | undefined;
    const onAbort = (): void => finish({ kind: 'aborted', durationMs: elapsed() }, true);
    function finish(result: PostResult, destroy: boolean): void {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // Destroying the request closes its socket: the server sees the abort, and nothing is read any further.
      if (destroy) req?.destroy();
      resolve(result);
    }
    const onResponse = (res: IncomingMessage): void => {
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > request.maxBodyBytes) {
        finish({ kind: 'overflow', status, durationMs: elapsed() }, true);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBodyBytes) {
          finish({ kind: 'overflow', status, durationMs: elapsed() }, true);
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish({ kind: 'response', status, body: Buffer.concat(chunks), durationMs: elapsed() }, false));
      res.on('close', () => {
        if (!res.complete) finish({ kind: 'error', message: 'the connection closed before the whole answer arrived', code: 'ECONNRESET', durationMs: elapsed() }, true);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'error', message: messageOf(error), code: error.code, durationMs: elapsed() }, true));
    };
    try {
      const send = request.url.protocol === 'https:' ? https().request : http().request;
      req = send(request.url, { method: 'POST', headers: { ...request.headers } }, onResponse);
    } catch (error) {
      // Node refuses a header name or value it cannot send (ERR_INVALID_HTTP_TOKEN, ERR_INVALID_CHAR) before connecting.
      finish({ kind: 'error', message: messageOf(error), code: (error as NodeJS.ErrnoException).code, durationMs: elapsed() }, false);
      return;
    }
    req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'error', message: messageOf(error), code: error.code, durationMs: elapsed() }, true));
    // setTimeout fires at once past 2^31 - 1 ms; no timeout a config can mean is that long.
    timer = setTimeout(() => finish({ kind: 'timeout', durationMs: elapsed() }, true), Math.min(request.timeoutMs, MAX_TIMER_MS));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(request.body);
  });
}
