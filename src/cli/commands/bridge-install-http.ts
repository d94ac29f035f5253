/**
 * `agent-hooks bridge --install claude --http`: writes Claude Code's `type: "http"` entries that send its hooks to
 * `agent-hooks serve`.
 *
 * @module
 * @internal
 */
import { AGENT_PROFILES } from '../../agents/registry.js';
import { InstallBridgeError } from '../../bridge/install-bridge-error.js';
import { installHttpBridge } from '../../bridge/install-http-bridge.js';
import { SERVE_TOKEN_ENV } from '../../bridge/serve/serve-token.js';
import { HookEvent } from '../../core/index.js';
import { ExitCode, UsageError } from '../command.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { printJson } from '../output.js';
import { DEFAULT_SERVE_PORT } from './serve.js';
import { install, type InstallFlags } from './bridge-install.js';
import { INSTALL_TARGETS, installEventName, isInstallAgent } from '../../bridge/install-targets.js';

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
 * Runs `bridge --install AGENT --http [--port N] [--host H]` for the project in `projectDir`: Claude Code's
 * `type: "http"` entries, or, for an agent whose hooks can only be commands, the line that posts to the server (through
 * bash, or with curl) and runs the command bridge when no server answers (see `servedBridgeLine`).
 *
 * @internal
 */
export async function installHttp(io: CliIO, projectDir: string, agent: string, flags: InstallHttpFlags & InstallFlags): Promise<number> {
  const port = flags.port ?? String(DEFAULT_SERVE_PORT);
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new UsageError(`--port takes a port from 1 to 65535, not ${JSON.stringify(port)}`);
  if (flags.timeout !== undefined && (!/^\d+$/.test(flags.timeout.trim()) || Number(flags.timeout) <= 0)) throw new UsageError(`--timeout takes a whole number of seconds above 0, not ${JSON.stringify(flags.timeout)}`);
  const host = flags.host ?? '127.0.0.1';
  const baseUrl = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  const http = AGENT_PROFILES.find((profile) => profile.httpHooks && profile.id === agent)?.id;
  if (http === undefined) {
    // An agent whose hooks are commands: a line that posts to the server in place of the command bridge's, which it falls back to.
    if (isInstallAgent(agent) && INSTALL_TARGETS[agent].layout === 'plugin') throw new UsageError(`--http does not apply to ${INSTALL_TARGETS[agent].title}: its plugin runs the hooks in its own process`);
    const status = await install(io, projectDir, agent, { ...flags, served: { baseUrl } });
    if (status === ExitCode.ok && !flags.json) {
      io.out(`It posts each hook to ${baseUrl}/bridge/${agent} (through bash's /dev/tcp where it can, else with curl), and runs the command bridge when no server answers there. Start the server with: agent-hooks serve --port ${port}`);
      io.out(`and give the agent the token in its environment for this project: export ${SERVE_TOKEN_ENV}="$(agent-hooks serve --print-token)"`);
    }
    return status;
  }
  if (flags.command !== undefined || flags.user === true) throw new UsageError(`--http for ${agent} writes type "http" entries, which run no command and are written in the project: leave out --command and --user`);
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
