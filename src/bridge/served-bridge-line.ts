/**
 * The command line that sends a command agent's hook to a running `agent-hooks serve` with curl, and runs the command
 * bridge when no server answers: `bridge --install AGENT --http`.
 *
 * @module
 * @internal
 */
import { nodeFs, fsPromises } from '../core/internal/node-fs.js';
import { delimiter, isAbsolute, join } from 'node:path';
import { agentProfile } from '../agents/registry.js';
import { InstallBridgeError } from './install-bridge-error.js';
import type { InstallAgent } from './install-targets.js';
import { BRIDGE_FRAME, BRIDGE_PROJECT_HEADER } from './serve/bridge-frame.js';

const { constants } = nodeFs;

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
  /** curl and cat, by their absolute paths. */
  readonly curl: string;
  readonly cat: string;
  /** How long curl waits for the answer, in seconds; the rest of the agent's timeout is the fallback's. */
  readonly maxSeconds: number;
  /** The variable the token is read from at run time (default `AGENT_HOOKS_TOKEN`). */
  readonly tokenVariable?: string | undefined;
}

/**
 * The `sh` line that posts the hook payload to `serve` and prints its answer as the command bridge would — stdout,
 * stderr, exit code (see `BRIDGE_FRAME`) — or gives the same payload to the command bridge when no server answers
 * it: connection refused, curl missing, a timeout, any status but 200 (a wrong token's 401, a 5xx, another project's
 * 421), or a body that is not a frame. The fallback is what fails closed where the hook guards, as the command line
 * alone does.
 *
 * Nothing in it is the project's to steer: curl and cat by absolute path; `-q` first, so that no `.curlrc` (nor a
 * `CURL_HOME` pointing at one) is read; `--noproxy '*'`, so that no `http_proxy` a project sets receives the payload
 * and the token; `--proto =http`. The token comes from `$AGENT_HOOKS_TOKEN` at run time and reaches curl on its
 * stdin, the payload on another descriptor: neither is ever on a command line `ps` shows.
 *
 * @internal
 */
export function servedBridgeLine(options: ServedLineOptions): string {
  const token = options.tokenVariable ?? 'AGENT_HOOKS_TOKEN';
  // The folder the command bridge would load the hooks of: the agent's project variable, else the working folder.
  const project = agentProfile(options.agent).light.projectVariables.reduceRight((inner, name) => `\${${name}:-${inner}}`, '$PWD');
  const { exit, separator, end } = BRIDGE_FRAME;
  const post = [
    shellWord(options.curl),
    `-q -sf --noproxy '*' --proto =http --connect-timeout 2 -m ${Math.max(1, Math.floor(options.maxSeconds))}`,
    `-H @- -H "${BRIDGE_PROJECT_HEADER}: ${project}" --data-binary @/dev/fd/3`,
    shellWord(options.url),
  ].join(' ');
  return [
    `p=$(${shellWord(options.cat)});`,
    `r=$(printf %s "$p"|{ printf 'Authorization: Bearer %s\\n' "$${token}"|${post};} 3<&0)&&`,
    `case $r in ${exit}[0-9]\\;*${separator}*${end})`,
    `x=\${r#${exit}};x=\${x%%;*};e=\${r#*;};o=\${e#*${separator}};e=\${e%%${separator}*};`,
    `printf %s "\${o%${end}}";printf %s "$e" >&2;exit "$x";;esac`,
    `${SERVED_FALLBACK}${options.fallback}`,
  ].join('');
}

/**
 * curl and cat by their absolute paths, for {@link servedBridgeLine}.
 *
 * @throws {@link InstallBridgeError} when either is not on `PATH`.
 * @internal
 */
export async function servedLineTools(env: Readonly<Record<string, string | undefined>> = process.env): Promise<{ curl: string; cat: string }> {
  const curl = await executableOnPath('curl', env);
  const cat = await executableOnPath('cat', env);
  if (curl === undefined || cat === undefined) {
    throw new InstallBridgeError(`--http needs ${curl === undefined ? 'curl' : 'cat'} on PATH, to post the hooks to agent-hooks serve: install it, or install the command bridge (without --http). Nothing was changed.`);
  }
  return { curl, cat };
}
