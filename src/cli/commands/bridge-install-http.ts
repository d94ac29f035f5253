/**
 * `agent-hooks bridge --install claude --http`: writes Claude Code's `type: "http"` entries that send its hooks to
 * `agent-hooks serve`.
 *
 * @module
 * @internal
 */
import { AGENT_PROFILES } from '../../agents/registry.js';
import { installEventName } from '../../bridge/install-targets.js';
import { InstallBridgeError } from '../../bridge/install-bridge-error.js';
import { installHttpBridge } from '../../bridge/install-http-bridge.js';
import { SERVE_TOKEN_ENV } from '../../bridge/serve/serve-token.js';
import { HookEvent } from '../../core/index.js';
import { ExitCode, UsageError } from '../command.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { printJson } from '../output.js';
import { DEFAULT_SERVE_PORT } from './serve.js';

/**
 * The flags of `bridge --install claude --http`.
 *
 * @internal
 */
export interface InstallHttpFlags {
  readonly events?: string | undefined;
  readonly timeout?: string | undefined;
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  readonly json?: boolean | undefined;
}

/**
 * Runs `bridge --install claude --http [--port N] [--host H]` for the project in `projectDir`.
 *
 * @internal
 */
export async function installHttp(io: CliIO, projectDir: string, agent: string, flags: InstallHttpFlags): Promise<number> {
  // Only an agent that runs http hooks (Claude Code's `type: "http"`) can be given them.
  const httpAgents = AGENT_PROFILES.filter((profile) => profile.httpHooks).map((profile) => profile.id);
  const http = httpAgents.find((id) => id === agent);
  if (http === undefined) throw new UsageError(`--http installs Claude Code's http hooks: use it with --install ${httpAgents.join(' or --install ')}, not ${JSON.stringify(agent)}`);
  const port = flags.port ?? String(DEFAULT_SERVE_PORT);
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new UsageError(`--port takes a port from 1 to 65535, not ${JSON.stringify(port)}`);
  if (flags.timeout !== undefined && (!/^\d+$/.test(flags.timeout.trim()) || Number(flags.timeout) <= 0)) throw new UsageError(`--timeout takes a whole number of seconds above 0, not ${JSON.stringify(flags.timeout)}`);
  const host = flags.host ?? '127.0.0.1';
  const baseUrl = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  let names: string[];
  if (flags.events !== undefined) {
    names = flags.events.split(',').map((e) => e.trim()).filter((e) => e !== '');
  } else {
    // Only the events are read, no hook runs: trust does not come into it.
    const project = await loadProjectHooks({ projectDir, hooksDirs: [], hostEnv: io.env, trust: 'all' }, [hookMdSource]);
    const used = new Set(project.stack.all().flatMap((entry) => [...(entry.events ?? [])]));
    names = HookEvent.all.filter((e) => used.has(e) && installEventName(http, e) !== undefined);
    if (names.length === 0) {
      io.err('No HOOK.md hook of this project runs on an event Claude Code has: add hooks first, or name the events with --events PreToolUse,Stop.');
      return ExitCode.problems;
    }
  }
  let result;
  try {
    result = await installHttpBridge({ projectDir, events: names, baseUrl, timeoutSeconds: flags.timeout === undefined ? undefined : Number(flags.timeout) });
  } catch (error) {
    if (error instanceof InstallBridgeError) {
      io.err(error.message);
      return ExitCode.problems;
    }
    throw error;
  }
  if (result.skipped.length > 0) io.err(`Skipped ${result.skipped.join(', ')}: Claude Code has no such event.`);
  if (flags.json) {
    const { file, backup, added, updated, present, skipped, url } = result;
    printJson(io, { agent: http, file, backup: backup ?? null, added, updated, present, skipped, url });
    return ExitCode.ok;
  }
  if (result.added.length > 0) io.out(`Added http hooks to ${result.file} for ${result.added.join(', ')}.`);
  if (result.updated.length > 0) io.out(`Brought the http hooks (or the command bridge they replace) up to date in ${result.file} for ${result.updated.join(', ')}.`);
  if (result.backup !== undefined) io.out(`The previous file is kept as ${result.backup}.`);
  if (result.present.length > 0) io.out(`Already sent to the server: ${result.present.join(', ')}.`);
  io.out(`Claude Code now POSTs them to ${result.url}. Start the server with: agent-hooks serve --port ${port}`);
  io.out(`and give Claude Code the token in its environment for this project (a .envrc, say, not your shell profile, where every project's http hooks could send it elsewhere): export ${SERVE_TOKEN_ENV}="$(agent-hooks serve --print-token)"`);
  return ExitCode.ok;
}
