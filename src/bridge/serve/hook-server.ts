/**
 * `agent-hooks serve`: the bridge's stack as a long-running HTTP hook endpoint, for agents whose hooks can be URLs
 * (Claude Code's `type: "http"`).
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HookStack } from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { killLiveProcessGroups } from '../../process/live-groups.js';
import { drainAll } from '../../script/script-hook.js';
import type { BridgeAgent } from '../bridge-answer.js';
import { answerBridgeRequest, BRIDGE_PROJECT_HEADER, bridgeRouteOf } from './bridge-route.js';
import { answerHookRequest, HTTP_HOOK_AGENTS, type HookHttpAnswer } from './hook-request.js';
import { SILENT_LOG, type ServeLog } from './serve-log.js';
import type { ServeNotices } from './serve-notices.js';
import { refusedHost, refusedOrigin } from './request-origin.js';
import { bearerMatches } from './serve-token.js';

/**
 * What {@link startHookServer} needs.
 *
 * @internal
 */
export interface HookServerOptions {
  /** The stack to dispatch through, asked once per request (so a reloaded one is picked up), or its failure. */
  readonly stack: () => HookStack | { readonly failure: string };
  /**
   * The project served, as a real path: a request whose hook input's `cwd` is elsewhere runs no hook, and is refused
   * (see `answerHookRequest`). Without it, every request is answered with the stack.
   */
  readonly project?: string | undefined;
  /** The token every hook request must carry as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** The address to listen on (default `127.0.0.1`). */
  readonly host?: string | undefined;
  /** The port (default 0: any free one). */
  readonly port?: number | undefined;
  /** The largest body accepted, in bytes (default 16 MiB); a larger one gets 413. */
  readonly maxBodyBytes?: number | undefined;
  /** How many requests are dispatched at once (default 64); the next ones wait their turn. */
  readonly maxConcurrent?: number | undefined;
  /** How many requests may wait for a turn (default 1024); one more gets 503. */
  readonly maxQueued?: number | undefined;
  /**
   * How long one request may take, in ms, from its arrival to its answer (default 55 000: under the 60 s the
   * installed entries give the agent's request). Then its dispatch is aborted — the hooks' processes killed — and it
   * gets 504.
   */
  readonly requestTimeoutMs?: number | undefined;
  /** Where requests, reloads and failures are logged. */
  readonly log?: ServeLog | undefined;
  /** What the agent's user is told of each load, once per session, in the answers (see `ServeNotices`). */
  readonly notices?: ServeNotices | undefined;
  /** The stacks whose async hooks shutdown drains (default: each stack a request was dispatched through). */
  readonly served?: (() => Iterable<HookStack>) | undefined;
}

/**
 * How a shutdown went.
 *
 * @internal
 */
export interface HookServerShutdown {
  /** Requests answered while the server was closing. */
  readonly answered: number;
  /** Requests still running at the bound, aborted (answered 503). */
  readonly aborted: number;
  /** Whether every async hook finished within the bound (the rest were stopped with their process groups). */
  readonly drained: boolean;
}

/**
 * A running hook server.
 *
 * @internal
 */
export interface HookServer {
  /** `http://host:port`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The node server. */
  readonly server: Server;
  /** Requests being dispatched, and waiting for a turn. */
  readonly load: () => { readonly inFlight: number; readonly queued: number };
  /**
   * Stops accepting connections, lets the requests in flight finish within `graceMs` (default 10 s; those still
   * running then are aborted and answered 503), then gives async hooks `drainMs` (default 5 s) before stopping them
   * with their process groups.
   */
  close(options?: { readonly graceMs?: number | undefined; readonly drainMs?: number | undefined }): Promise<HookServerShutdown>;
}

const DEFAULTS = { maxBodyBytes: 16 * 1024 * 1024, maxConcurrent: 64, maxQueued: 1024, requestTimeoutMs: 55_000 } as const;

/**
 * Whether `host` is a loopback address: anything else exposes the hooks to the network.
 *
 * @internal
 */
export const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** A request's route: a hook route's (or a command line's bridge route's) agent and event, `health`, or nothing known. */
type Route = { readonly kind: 'hook' | 'bridge'; readonly agent: BridgeAgent; readonly event?: string | undefined } | { readonly kind: 'health' } | { readonly kind: 'unknown'; readonly agent?: string };

function routeOf(url: string | undefined): Route {
  const path = (url ?? '/').split('?', 1)[0]!.replace(/\/+$/, '');
  if (path === '/health') return { kind: 'health' };
  const bridge = bridgeRouteOf(path);
  if (bridge !== undefined) return { kind: 'bridge', ...bridge };
  const match = /^\/hooks\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (match === null) return { kind: 'unknown' };
  const agent = decodeURIComponent(match[1]!);
  if (!(HTTP_HOOK_AGENTS as readonly string[]).includes(agent)) return { kind: 'unknown', agent };
  return { kind: 'hook', agent: agent as BridgeAgent, event: match[2] === undefined ? undefined : decodeURIComponent(match[2]) };
}

/** Why a request's dispatch was aborted. */
type AbortWhy = 'timeout' | 'client gone' | 'shutdown';

/** One request being dispatched. */
interface Flight {
  readonly controller: AbortController;
  why?: AbortWhy;
  /** Ends the wait for the dispatch's answer, once the request waits for it. */
  stopWaiting?: () => void;
}

/**
 * Starts a hook server: `POST /hooks/claude` (or `/hooks/claude/<event>`) dispatches the body through the stack and
 * answers as the command bridge would, in JSON; `POST /bridge/<agent>` answers a command agent's served line with what
 * the command bridge would print, framed (see `answerBridgeRequest`); `GET /health` says it is up. A request whose `Host` is not the address
 * listened on (421) or that carries an `Origin` (403) is refused first, on every route; every hook request then needs
 * the bearer token — without it: 401, and nothing runs. None of these reads the body. See {@link answerHookRequest} for the statuses of the answers, and
 * {@link HookServerOptions} for the bounds.
 *
 * @internal
 */
export async function startHookServer(options: HookServerOptions): Promise<HookServer> {
  const log = options.log ?? SILENT_LOG;
  const host = options.host ?? '127.0.0.1';
  /** The port listened on, known once listening (the one asked for may be 0). */
  let boundPort = -1;
  const maxBody = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const maxConcurrent = options.maxConcurrent ?? DEFAULTS.maxConcurrent;
  const maxQueued = options.maxQueued ?? DEFAULTS.maxQueued;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const used = new Set<HookStack>();
  const flights = new Set<Flight>();
  const waiting: (() => void)[] = [];
  let running = 0;
  let seq = 0;
  let closing = false;
  let answeredWhileClosing = 0;
  let idle: (() => void) | undefined;

  const turn = (): Promise<void> | undefined => {
    if (running < maxConcurrent) {
      running++;
      return Promise.resolve();
    }
    if (waiting.length >= maxQueued) return undefined;
    return new Promise((resolve) => waiting.push(() => (running++, resolve())));
  };
  const release = (): void => {
    running--;
    waiting.shift()?.();
    if (running === 0 && waiting.length === 0) idle?.();
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(closing ? { connection: 'close' } : {}), ...headers });
    res.end(body);
  };
  const fail = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>): void => send(res, status, JSON.stringify({ error: message }), headers);

  /** Reads the body up to the bound: `undefined` when it was too large (413 sent) or the client went away. */
  const readBody = (req: IncomingMessage, res: ServerResponse): Promise<string | undefined> =>
    new Promise((resolve) => {
      const declared = Number(req.headers['content-length']);
      const tooLarge = (): void => {
        fail(res, 413, `The body is larger than ${maxBody} bytes.`, { connection: 'close' });
        // The rest is not read: the connection goes once the answer is out.
        res.on('finish', () => req.destroy());
        resolve(undefined);
      };
      if (Number.isFinite(declared) && declared > maxBody) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > maxBody) {
          done = true;
          req.pause();
          return tooLarge();
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (done) return;
        done = true;
        resolve(Buffer.concat(chunks, size).toString('utf8'));
      });
      req.on('error', () => {
        if (done) return;
        done = true;
        resolve(undefined);
      });
      req.on('aborted', () => {
        if (done) return;
        done = true;
        resolve(undefined);
      });
    });

  const handleHook = async (req: IncomingMessage, res: ServerResponse, route: Extract<Route, { kind: 'hook' | 'bridge' }>, id: number, started: number): Promise<void> => {
    const body = await readBody(req, res);
    if (body === undefined) {
      log.write(res.headersSent ? 'warn' : 'info', res.headersSent ? 'body too large' : 'client went away before its body was read', { id, status: res.headersSent ? 413 : undefined });
      return;
    }
    const slot = turn();
    if (slot === undefined) {
      fail(res, 503, 'Too many hook requests at once: try again.', { 'retry-after': '1' });
      log.write('warn', 'request refused: the queue is full', { id, status: 503, queued: waiting.length });
      return;
    }
    const flight: Flight = { controller: new AbortController() };
    const timer = setTimeout(() => abort(flight, 'timeout'), Math.max(0, timeoutMs - (performance.now() - started)));
    const gone = (): void => {
      if (!res.writableFinished) abort(flight, 'client gone');
    };
    res.on('close', gone);
    let answer: HookHttpAnswer | undefined;
    try {
      await slot;
      if (flight.why !== undefined) return;
      const stack = options.stack();
      if (!('process' in stack)) {
        fail(res, 503, `The hooks cannot be loaded: ${stack.failure}`);
        log.write('warn', 'request refused: the hooks cannot be loaded', { id, status: 503 });
        return;
      }
      used.add(stack);
      flights.add(flight);
      const aborted = new Promise<undefined>((resolve) => (flight.stopWaiting = () => resolve(undefined)));
      const signal = flight.controller.signal;
      const from = req.headers[BRIDGE_PROJECT_HEADER];
      const answering =
        route.kind === 'bridge'
          ? answerBridgeRequest({ agent: route.agent, body, event: route.event, stack, signal, project: options.project, notices: options.notices, from: typeof from === 'string' ? from : undefined })
          : answerHookRequest({ agent: route.agent, body, event: route.event, stack, signal, project: options.project, notices: options.notices });
      answer = await Promise.race([answering, aborted]);
      if (flight.why !== undefined || answer === undefined) return;
      send(res, answer.status, answer.body);
      if (closing) answeredWhileClosing++;
      if (log.enabled('info') || answer.status >= 400) {
        const level = answer.status >= 500 ? 'error' : answer.status >= 400 || answer.note !== undefined ? 'warn' : 'info';
        log.write(level, 'hook request', {
          id,
          agent: route.agent,
          event: answer.event,
          tool: answer.tool,
          status: answer.status,
          decision: answer.decision,
          ms: Number((performance.now() - started).toFixed(2)),
          note: answer.note,
        });
      }
      for (const note of answer.notes) log.write(note.level === 'warning' ? 'warn' : 'info', note.message, { id, hook: note.hookName, event: note.event });
    } catch (error) {
      fail(res, 500, `The request failed: ${messageOf(error)}`);
      log.write('error', 'hook request failed', { id, error: messageOf(error) });
    } finally {
      clearTimeout(timer);
      res.off('close', gone);
      flights.delete(flight);
      release();
      if (flight.why !== undefined) {
        const status = flight.why === 'timeout' ? 504 : 503;
        if (flight.why === 'timeout') fail(res, 504, `The hooks did not answer within ${timeoutMs} ms: they were stopped.`);
        if (flight.why === 'shutdown') fail(res, 503, 'The server is shutting down: the hooks were stopped.');
        log.write('warn', flight.why === 'client gone' ? 'client went away: the dispatch was aborted' : 'dispatch aborted', { id, why: flight.why, status: flight.why === 'client gone' ? undefined : status, ms: Number((performance.now() - started).toFixed(2)) });
      }
    }
  };

  const abort = (flight: Flight, why: AbortWhy): void => {
    if (flight.why !== undefined) return;
    flight.why = why;
    flight.controller.abort(new Error(why === 'timeout' ? `the request took longer than ${timeoutMs} ms` : why === 'shutdown' ? 'the server is shutting down' : 'the client went away'));
    flight.stopWaiting?.();
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const id = ++seq;
    const started = performance.now();
    const route = routeOf(req.url);
    if (closing) {
      req.resume();
      fail(res, 503, 'The server is shutting down.');
      return;
    }
    // Before anything is read or run, on every route: a browser's page — one whose name was rebound to this address
    // included — gets nothing from the server, with the token or without.
    const refused = refusedOrigin(req.headers.origin) ?? refusedHost(req.headers.host, host, boundPort);
    if (refused !== undefined) {
      res.on('finish', () => req.destroy());
      fail(res, req.headers.origin === undefined ? 421 : 403, refused, { connection: 'close' });
      log.write('warn', 'request refused: it comes from a web page or names another host', { id, status: req.headers.origin === undefined ? 421 : 403, host: req.headers.host, origin: req.headers.origin, remote: req.socket.remoteAddress });
      return;
    }
    if (route.kind === 'health') {
      req.resume();
      if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, 'GET /health', { allow: 'GET, HEAD' });
      const stack = options.stack();
      const ok = 'process' in stack;
      return send(res, ok ? 200 : 503, JSON.stringify({ status: ok ? 'ok' : 'failing', inFlight: running, queued: waiting.length }));
    }
    if (route.kind === 'unknown') {
      req.resume();
      const known = [...HTTP_HOOK_AGENTS.map((a) => `/hooks/${a}`), '/bridge/<agent>'].join(', ');
      return fail(res, 404, route.agent === undefined ? `No such route: POST ${known}, or GET /health.` : `No hook route for ${JSON.stringify(route.agent)}: POST ${known}.`);
    }
    if (req.method !== 'POST') {
      req.resume();
      return fail(res, 405, 'Hook requests are POSTs.', { allow: 'POST' });
    }
    // Before the body is read: a request without the token runs nothing and costs nothing.
    if (!bearerMatches(req.headers.authorization, options.token)) {
      // Its body is not read: the connection goes once the answer is out.
      res.on('finish', () => req.destroy());
      fail(res, 401, 'A hook request needs the header Authorization: Bearer <token> (agent-hooks serve --print-token).', { 'www-authenticate': 'Bearer', connection: 'close' });
      log.write('warn', 'request refused: wrong or missing token', { id, status: 401, remote: req.socket.remoteAddress });
      return;
    }
    void handleHook(req, res, route, id, started);
  };

  // Node's own bound on receiving a request (headers and body), which must not be below the headers' own.
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: Math.min(10_000, timeoutMs), requestTimeout: timeoutMs }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  boundPort = port;
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;

  return {
    url,
    port,
    server,
    load: () => ({ inFlight: running, queued: waiting.length }),
    async close(closeOptions = {}) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const graceMs = closeOptions.graceMs ?? 10_000;
      let aborted = 0;
      if (running > 0 || waiting.length > 0) {
        const settled = new Promise<void>((resolve) => (idle = resolve));
        let timer: ReturnType<typeof setTimeout> | undefined;
        const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
        const finished = await Promise.race([settled.then(() => true as const), bound]);
        clearTimeout(timer);
        if (!finished) {
          for (const flight of flights) {
            aborted++;
            abort(flight, 'shutdown');
          }
          await settled;
        }
      }
      const drainMs = closeOptions.drainMs ?? 5000;
      const stacks = [...(options.served?.() ?? used)];
      const drained = Promise.all(stacks.map((stack) => drainAll(stack)));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), drainMs)));
      const done = await Promise.race([drained.then(() => true as const), bound]);
      clearTimeout(timer);
      if (!done) await killLiveProcessGroups();
      server.closeAllConnections();
      await closed;
      return { answered: answeredWhileClosing, aborted, drained: done };
    },
  };
}
