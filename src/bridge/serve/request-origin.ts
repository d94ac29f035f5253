/**
 * Which requests may reach the server at all, judged by their `Host` and `Origin` headers before anything else: a web
 * page that rebinds its own name to 127.0.0.1 reaches a loopback server with its own name in `Host`, and a browser
 * always says where a page's request comes from in `Origin`. An agent's hook request does neither.
 *
 * @module
 */
import { isIP } from 'node:net';

/** The loopback names a server on a loopback address answers to. */
const LOOPBACK_NAMES: Readonly<Record<string, readonly string[]>> = {
  '127.0.0.1': ['127.0.0.1', 'localhost'],
  '::1': ['[::1]', 'localhost'],
  localhost: ['localhost', '127.0.0.1', '[::1]'],
};

/** Addresses that listen on every interface: no one name is the server's. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

const bracketed = (host: string): string => (isIP(host) === 6 ? `[${host}]` : host);

/**
 * What a request's `Host` header may be for a server listening on `host`:`port`: the address itself, and the loopback
 * names of a loopback address (`localhost`, `127.0.0.1`, `[::1]` as they apply). On a wildcard address (`0.0.0.0`,
 * `::`) any IP literal or `localhost` is taken, never another name: a rebound name is always a name.
 *
 * @returns `undefined` when the `Host` is one of them, else why it is refused.
 * @internal
 */
export function refusedHost(header: string | undefined, host: string, port: number): string | undefined {
  if (header === undefined || header === '') return 'The request has no Host header.';
  const given = header.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d+))?$/.exec(given);
  const name = match?.[1];
  const givenPort = match?.[2] === undefined ? 80 : Number(match[2]);
  if (name === undefined || givenPort !== port) return `The request's Host ${JSON.stringify(header)} is not this server's address (port ${port}).`;
  const listen = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (WILDCARDS.has(listen) || WILDCARDS.has(host)) {
    const literal = name.replace(/^\[(.*)\]$/, '$1');
    if (name === 'localhost' || isIP(literal) !== 0) return undefined;
  } else {
    const names = LOOPBACK_NAMES[listen] ?? (/^127\.\d+\.\d+\.\d+$/.test(listen) ? [listen] : [bracketed(listen)]);
    if (names.includes(name)) return undefined;
  }
  return `The request's Host ${JSON.stringify(header)} is not the address this server listens on: a page whose name was made to point here is refused.`;
}

/**
 * Why a request carrying an `Origin` header is refused: only a browser sends one, for a page's request, and no page
 * may call the hooks (this is also what a CORS preflight gets).
 *
 * @returns `undefined` without an `Origin` header.
 * @internal
 */
export function refusedOrigin(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  return `Requests from a web page (Origin ${JSON.stringify(Array.isArray(header) ? header.join(', ') : header)}) are refused: only the agent may call the hooks.`;
}
