/**
 * The command line that sends a command agent's hook to a running `agent-hooks serve` — through bash's own TCP
 * connection where it can, else with curl — and runs the command bridge when no server answers: `bridge --install
 * AGENT --http`.
 *
 * @module
 * @internal
 */
import { nodeFs, fsPromises } from '../core/internal/node-fs.js';
import { delimiter, isAbsolute, join } from 'node:path';
import { lazyModule } from '../core/internal/lazy-module.js';
import { childProcess } from '../process/internal/node-child-process.js';
import { agentProfile } from '../agents/registry.js';
import { InstallBridgeError } from './install-bridge-error.js';
import type { InstallAgent } from './install-targets.js';
import { BRIDGE_FRAME, BRIDGE_PROJECT_HEADER } from './serve/bridge-frame.js';

const { constants } = nodeFs;

/** `node:net`, for the one connection {@link bashOpensTcp} takes when installing: importing the package loads none. */
const net = lazyModule<typeof import('node:net')>('node:net');

/**
 * What stands between the served part of a line and its fallback: the payload, given again to the command bridge.
 *
 * @internal
 */
export const SERVED_FALLBACK = `;printf '%s\\n' "$p"|`;

/**
 * The command bridge a served line falls back to, or `undefined` when `command` is not a served line.
 *
 * @internal
 */
export function servedFallback(command: string): string | undefined {
  const at = command.indexOf(SERVED_FALLBACK);
  return command.startsWith('p=$(') && at >= 0 ? command.slice(at + SERVED_FALLBACK.length) : undefined;
}

/**
 * The absolute real path of the executable `name` on `PATH` (as `env` gives it), or `undefined`. The line names curl
 * and cat by these paths: a `PATH` the project set (Claude Code's `env` block, Gemini CLI's `.env`) must not choose
 * the program that is handed the token and the payload, nor the one that reads the payload.
 *
 * @internal
 */
export async function executableOnPath(name: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<string | undefined> {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const path = join(dir, name);
    if (await fsPromises().access(path, constants.X_OK).then(() => true, () => false)) return fsPromises().realpath(path).catch(() => path);
  }
  return undefined;
}

/** `word` as one POSIX shell word. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/**
 * What {@link servedBridgeLine} needs.
 *
 * @internal
 */
export interface ServedLineOptions {
  readonly agent: InstallAgent;
  /** The command bridge's line for the event (Copilot's `--event NAME` included): what runs when no server answers. */
  readonly fallback: string;
  /** The route, e.g. `http://127.0.0.1:7391/bridge/codex` (`/bridge/copilot/preToolUse`). */
  readonly url: string;
  /** curl and cat, by their absolute paths (curl may be absent when {@link ServedLineOptions.bash} posts). */
  readonly curl?: string | undefined;
  readonly cat: string;
  /**
   * bash and env, by their absolute paths, when bash opens TCP connections itself (`/dev/tcp`, see
   * {@link bashOpensTcp}): the line then posts through a bash with an empty environment instead of curl, to a server
   * on a loopback address (an IP, so that no name is looked up and no connection can wait on the network).
   */
  readonly bash?: { readonly bash: string; readonly env: string } | undefined;
  /** How long the line waits for the answer, in seconds; the rest of the agent's timeout is the fallback's. */
  readonly maxSeconds: number;
  /** The variable the token is read from at run time (default `AGENT_HOOKS_TOKEN`). */
  readonly tokenVariable?: string | undefined;
}

/**
 * The request bash makes of serve, with `/dev/tcp` (run by {@link servedBridgeLine} as `bash -c CLIENT name HOST PORT
 * PATH HOST_HEADER PROJECT SECONDS`, the token as the one line of its stdin, the payload on descriptor 3): HTTP/1.0,
 * so that the server closes the connection after a body it does not chunk; written in the background, so that a
 * server that stops reading cannot hold the line past its wait; the answer read within SECONDS, and printed only when
 * its status is 200. Every word is a builtin: the bash that runs it has no `PATH`, no variables at all.
 *
 * @internal
 */
export const BASH_CLIENT =
  'IFS= read -r t;b=$(</dev/fd/3);exec 4<>"/dev/tcp/$1/$2"||exit 1;' +
  `{ printf 'POST %s HTTP/1.0\\r\\nHost: %s\\r\\nAuthorization: Bearer %s\\r\\n${BRIDGE_PROJECT_HEADER}: %s\\r\\nContent-Length: %d\\r\\n\\r\\n%s' "$3" "$4" "$t" "$5" "\${#b}" "$b" >&4;}&` +
  'IFS= read -r -d "" -t "$6" r <&4;[ $? -gt 128 ]&&{ kill $!;exit 1;};' +
  `case $r in "HTTP/1."[01]" 200 "*)printf %s "\${r#*$'\\r\\n\\r\\n'}";;*)exit 1;;esac`;

/** Where bash is to connect for `url`, when that is a loopback IP: its address (no brackets), port, path and Host. */
function loopbackTarget(url: string): { address: string; port: string; path: string; host: string } | undefined {
  const parsed = new URL(url);
  const address = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (parsed.protocol !== 'http:' || !(/^127\.\d+\.\d+\.\d+$/.test(address) || address === '::1')) return undefined;
  return { address, port: parsed.port === '' ? '80' : parsed.port, path: `${parsed.pathname}${parsed.search}`, host: parsed.host };
}

/**
 * The `sh` line that posts the hook payload to `serve` and prints its answer as the command bridge would — stdout,
 * stderr, exit code (see `BRIDGE_FRAME`) — or gives the same payload to the command bridge when no server answers
 * it: connection refused, no answer within the wait, any status but 200 (a wrong token's 401, a 5xx, another
 * project's 421), or a body that is not a frame. The fallback is what fails closed where the hook guards, as the
 * command line alone does.
 *
 * It posts through bash where {@link ServedLineOptions.bash} is given and the server is on a loopback IP (see
 * {@link BASH_CLIENT}: a bash costs a call about a millisecond, curl's start some five), else with curl.
 *
 * Nothing in it is the project's to steer: a token or project holding a control character is not sent; every
 * program by absolute path; bash started by `env -i`, so that no
 * `BASH_ENV`, `SHELLOPTS`, exported function or locale a project sets reaches it; curl with `-q` first, so that no
 * `.curlrc` (nor a `CURL_HOME` pointing at one) is read, `--noproxy '*'`, so that no `http_proxy` a project sets
 * receives the payload and the token, and `--proto =http`. The token comes from `$AGENT_HOOKS_TOKEN` at run time and
 * reaches the client on its stdin, the payload on another descriptor: neither is ever on a command line `ps` shows.
 *
 * @internal
 */
export function servedBridgeLine(options: ServedLineOptions): string {
  const token = options.tokenVariable ?? 'AGENT_HOOKS_TOKEN';
  // The folder the command bridge would load the hooks of: the agent's project variable, else the working folder.
  const project = agentProfile(options.agent).light.projectVariables.reduceRight((inner, name) => `\${${name}:-${inner}}`, '$PWD');
  const { exit, separator, end } = BRIDGE_FRAME;
  const seconds = Math.max(1, Math.floor(options.maxSeconds));
  const target = options.bash === undefined ? undefined : loopbackTarget(options.url);
  let post: string;
  let tokenLine: string;
  if (target !== undefined && options.bash !== undefined) {
    post = [shellWord(options.bash.env), '-i', shellWord(options.bash.bash), '-c', shellWord(BASH_CLIENT), 'agent-hooks-post', ...[target.address, target.port, target.path, target.host].map(shellWord), `"${project}"`, String(seconds), '2>/dev/null'].join(' ');
    tokenLine = `printf '%s\\n' "$${token}"`;
  } else {
    if (options.curl === undefined) throw new InstallBridgeError(`--http to ${options.url} needs curl on PATH: install it, or serve on a loopback address such as 127.0.0.1. Nothing was changed.`);
    post = [
      shellWord(options.curl),
      `-q -sf --noproxy '*' --proto =http --connect-timeout 2 -m ${seconds}`,
      `-H @- -H "${BRIDGE_PROJECT_HEADER}: ${project}" --data-binary @/dev/fd/3`,
      shellWord(options.url),
    ].join(' ');
    tokenLine = `printf 'Authorization: Bearer %s\\n' "$${token}"`;
  }
  return [
    `p=$(${shellWord(options.cat)});`,
    // A token or project holding a control character would write headers of its own (a line break ends one, and a
    // Content-Length of the project's making starts a second request): never sent, the command bridge answers.
    `r=$(case "$${token}${project}" in *[[:cntrl:]]*)exit 1;;esac;printf %s "$p"|{ ${tokenLine}|${post};} 3<&0)&&`,
    `case $r in ${exit}[0-9]\\;*${separator}*${end})`,
    `x=\${r#${exit}};x=\${x%%;*};e=\${r#*;};o=\${e#*${separator}};e=\${e%%${separator}*};`,
    `printf %s "\${o%${end}}";printf %s "$e" >&2;exit "$x";;esac`,
    `${SERVED_FALLBACK}${options.fallback}`,
  ].join('');
}

/**
 * Whether `bash`, started by `env -i` as the line starts it, opens a TCP connection through `/dev/tcp` (a bash built
 * without network redirections does not): tried once against a listener of this process on 127.0.0.1. Never throws.
 *
 * @internal
 */
export async function bashOpensTcp(bash: string, env: string, timeoutMs = 5000): Promise<boolean> {
  const server = net().createServer((socket) => socket.destroy());
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
    let connected = false;
    server.on('connection', () => {
      connected = true;
    });
    const code = await new Promise<number | null>((resolve) => {
      const child = childProcess().spawn(env, ['-i', bash, '-c', 'exec 4<>"/dev/tcp/127.0.0.1/$1"', 'agent-hooks-probe', String(port)], { stdio: 'ignore', timeout: timeoutMs });
      child.on('error', () => resolve(null));
      child.on('exit', (exitCode) => resolve(exitCode));
    });
    return code === 0 && connected;
  } catch {
    return false;
  } finally {
    server.close();
  }
}

/**
 * The programs of {@link servedBridgeLine}, by their absolute paths on `PATH`: cat; bash and env when that bash opens
 * TCP connections itself ({@link bashOpensTcp}); curl when there is one.
 *
 * @throws {@link InstallBridgeError} when cat is not on `PATH`, or neither such a bash nor curl is.
 * @internal
 */
export async function servedLineTools(env: Readonly<Record<string, string | undefined>> = process.env): Promise<Pick<ServedLineOptions, 'curl' | 'cat' | 'bash'>> {
  const [curl, cat, bash, envTool] = await Promise.all(['curl', 'cat', 'bash', 'env'].map((name) => executableOnPath(name, env)));
  const posting = bash !== undefined && envTool !== undefined && (await bashOpensTcp(bash, envTool)) ? { bash, env: envTool } : undefined;
  if (cat === undefined || (curl === undefined && posting === undefined)) {
    throw new InstallBridgeError(`--http needs ${cat === undefined ? 'cat' : 'curl (or a bash that opens /dev/tcp)'} on PATH, to post the hooks to agent-hooks serve: install it, or install the command bridge (without --http). Nothing was changed.`);
  }
  return { curl, cat, bash: posting };
}
