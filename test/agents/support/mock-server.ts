/**
 * A model server on a random loopback port that plays a script: each request of the agent's main loop gets the next
 * turn (a shell tool call, or a final text), and every request is recorded so that a test can check what the model
 * was told (a hook's reason, injected context). Each wire API (Anthropic Messages, Gemini, OpenAI Responses) is an
 * adapter under `../mock/`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the scripted model. */
export type Turn =
  /**
   * Call the agent's shell tool with this command — and, in the same answer, once more with each command of `also`
   * (a batch of calls; the Anthropic adapter plays it).
   */
  | { readonly shell: string; readonly also?: readonly string[] }
  /** Answer with this text and no tool call: the turn ends (and the agent's Stop hooks run). */
  | { readonly text: string };

/** One request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
  /** The raw body. */
  readonly text: string;
  /** Whether the adapter took it as a request of the main loop (it consumed a turn). */
  readonly main: boolean;
  /** The turn it was answered with, when main. */
  readonly turn?: Turn | undefined;
  /** When its last byte arrived (`performance.now()`, ms). */
  readonly receivedAt: number;
  /** When the answer's last byte was handed to the socket (`performance.now()`, ms); undefined if it never was. */
  readonly answeredAt?: number | undefined;
}

/** What an adapter does with one request. */
export interface MockApi {
  /** A short name for messages. */
  readonly name: string;
  /**
   * Answers `request`. `next()` takes the next scripted turn (call it only for requests of the main loop: those that
   * offer the agent's tools); requests the agent makes on the side (titles, token counts, model lists) get whatever
   * keeps the agent going. Returns whether a turn was taken.
   */
  handle(request: RecordedRequest, res: ServerResponse, next: () => Turn): { main: boolean; turn?: Turn } | Promise<{ main: boolean; turn?: Turn }>;
}

/** A running mock. */
export interface MockServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Every request, in order. */
  readonly requests: RecordedRequest[];
  /** The main-loop requests, in order. */
  mainRequests(): RecordedRequest[];
  /** The turns not yet played. */
  remaining(): number;
  close(): Promise<void>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** When the script runs out, the model ends the turn: an agent must never hang on a silent mock. */
const FALLBACK: Turn = { text: 'Done.' };

/** Starts `api` on 127.0.0.1 with `turns` to play. */
export async function startMockServer(api: MockApi, turns: readonly Turn[]): Promise<MockServer> {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Kept as text.
      }
      // Recorded as it arrives, and completed as the adapter and the response finish.
      const record: Mutable<RecordedRequest> = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, text, main: false, receivedAt: performance.now() };
      requests.push(record);
      res.on('finish', () => {
        record.answeredAt = performance.now();
      });
      Promise.resolve()
        .then(() => api.handle({ ...record }, res, () => queue.shift() ?? FALLBACK))
        .then(
          (handled) => {
            record.main = handled.main;
            record.turn = handled.turn;
          },
          (error: unknown) => {
            if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message: String(error) } }));
          },
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    mainRequests: () => requests.filter((r) => r.main),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Writes server-sent events, each `{ event?, data }`, then ends the response. */
export function sendSse(res: ServerResponse, events: readonly { readonly event?: string; readonly data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of events) {
    res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}
