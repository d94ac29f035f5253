/**
 * `agent-hooks bridge --install AGENT`: writes the line that runs the bridge into the agent's config. Kept apart from
 * the bridged call, which an agent starts once per hook call and which must not load what installing needs.
 *
 * @module
 * @internal
 */
import { resolve } from 'node:path';
import { INSTALL_AGENTS, INSTALL_TARGETS, installEventName, isInstallAgent, type InstallAgent } from '../../bridge/install-targets.js';
import { installBridge, InstallBridgeError } from '../../bridge/install-bridge.js';
import { idleModelEvents } from '../../bridge/install-model-events.js';
import { HookEvent } from '../../core/index.js';
import { ExitCode, UsageError } from '../command.js';
import { findConfigModule } from '../config-module.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { printJson } from '../output.js';
import { bridgeMatchers } from './bridge-matchers.js';
import { hooksOffLines } from './hooks-off.js';
import { AGENT_IDS, agentProfile } from '../../agents/registry.js';

/** `--timeout SECONDS`: a whole number above 0. */
function timeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) <= 0) throw new UsageError(`--timeout takes a whole number of seconds above 0, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** The flags of `bridge --install`. */
export interface InstallFlags {
  readonly events?: string | undefined;
  readonly command?: string | undefined;
  readonly timeout?: string | undefined;
  readonly json?: boolean | undefined;
  readonly user?: boolean | undefined;
  /** `--http` for an agent whose hooks are commands: the server its line posts to first (see `installHttp`). */
  readonly served?: { readonly baseUrl: string } | undefined;
}

/**
 * Runs `bridge --install AGENT` for the project in `projectDir`.
 *
 * @internal
 */
export async function install(io: CliIO, projectDir: string, agent: string, flags: InstallFlags): Promise<number> {
  if (!isInstallAgent(agent)) throw new UsageError(`--install must be one of ${INSTALL_AGENTS.join(', ')}, not ${JSON.stringify(agent)}`);
  const target = INSTALL_TARGETS[agent];
  const timeoutSeconds = timeoutOf(flags.timeout);
  // A plugin runs every hook in the agent's own process: there are no events to choose and no matchers to narrow.
  if (target.layout === 'plugin') return installAgentPlugin(io, projectDir, agent, flags, timeoutSeconds);
  let names: string[];
  // Only the events and matchers are read, no hook runs: trust does not come into it (a hook trusted later must find
  // its tools already covered).
  const project = await loadProjectHooks({ projectDir, hooksDirs: [], hostEnv: io.env, trust: 'all' }, [hookMdSource]);
  // A user-level line runs in every repository: no one project's hooks may narrow it.
  const matchers = await bridgeMatchers(agent, projectDir, project.stack, flags.command !== undefined || flags.user === true);
  if (flags.events !== undefined) {
    names = flags.events.split(',').map((e) => e.trim()).filter((e) => e !== '');
    // A line of the user's own, or one for every repository, may run hooks this project's do not show; so may a module.
    const known = flags.command === undefined && flags.user !== true && (await findConfigModule(projectDir)) === undefined;
    const idle = known ? idleModelEvents(names, project.stack.all()) : [];
    if (idle.length > 0) {
      io.err(`Skipped ${idle.join(', ')}: no hook of this project runs on ${idle.length === 1 ? 'it' : 'them'}, and ${target.title} would start the bridge on every model call (AfterModel: on every streamed chunk of every answer) for nothing. Add a hook on ${idle.length === 1 ? 'it' : 'them'} first.`);
      names = names.filter((name) => !idle.includes(name));
      if (names.length === 0) return ExitCode.problems;
    }
  } else {
    const used = new Set(project.stack.all().flatMap((entry) => [...(entry.events ?? [])]));
    names = HookEvent.all.filter((e) => used.has(e));
    if (!names.some((e) => installEventName(agent, e) !== undefined)) {
      const on = names.length === 0 ? '' : ` (they run on ${names.join(', ')})`;
      io.err(`No HOOK.md hook of this project runs on an event ${target.title} has${on}: add hooks first, or name the events with --events PreToolUse,Stop.`);
      return ExitCode.problems;
    }
  }
  let result;
  try {
    result = await installBridge({ agent, projectDir, events: names, command: flags.command, timeoutSeconds, matchers, level: flags.user ? 'user' : 'project', env: io.env, served: flags.served });
  } catch (error) {
    if (error instanceof InstallBridgeError) {
      io.err(error.message);
      return ExitCode.problems;
    }
    throw error;
  }
  if (result.skipped.length > 0) io.err(`Skipped ${result.skipped.join(', ')}: ${target.title} has no such event.`);
  for (const warning of result.warnings ?? []) io.err(`WARNING: ${warning}`);
  // Installed or not, an agent runs no hook in a project whose settings switch them all off (Claude Code's
  // disableAllHooks): said loudly.
  for (const line of await hooksOffLines(projectDir, io.env, [agentProfile(agent)])) io.err(line);
  // A config file the agent reads (a repository's own among them) can switch its hooks off, the bridge with them
  // (Gemini CLI's hooksConfig): its loader reports that as `bridge-disabled`, and it is said loudly.
  const { problems } = (await agentProfile(agent).config?.loader.load([agent], { projectDir, trust: 'all' })) ?? { problems: [] };
  // A file another agent owns can make this agent run the bridge a second time (Copilot CLI reads the repository's
  // .claude/settings.json): its loader reports that as `bridge-twice`.
  for (const problem of problems.filter((p) => p.code === 'bridge-disabled' || p.code === 'bridge-twice')) io.err(`WARNING: ${problem.file}: ${problem.message}`);
  // And the file this install wrote can make another agent run the bridge a second time (the Claude Code bridge in the
  // repository's .claude/settings.json, beside Copilot CLI's own): that agent's loader reports it, and it is said too.
  for (const other of AGENT_IDS.filter((id) => id !== agent)) {
    // A warning's check: another agent's file that cannot be read is that agent's to report (`list`, `validate`), not
    // a reason to fail this install.
    const loaded = await agentProfile(other)
      .config?.loader.load([other], { projectDir, trust: 'all' })
      .catch(() => undefined);
    for (const problem of loaded?.problems ?? []) {
      if (problem.code === 'bridge-twice' && resolve(problem.file) === resolve(result.file)) io.err(`WARNING: ${problem.file}: ${problem.message}`);
    }
  }
  if (flags.json) {
    const { agent: name, file, backup, added, updated, present, skipped, command } = result;
    printJson(io, { agent: name, file, backup: backup ?? null, added, updated, present, skipped, command });
    return ExitCode.ok;
  }
  if (result.added.length > 0) io.out(`Added the bridge to ${result.file} for ${result.added.join(', ')}.`);
  if (result.updated.length > 0) io.out(`Brought the bridge up to date in ${result.file} for ${result.updated.join(', ')}.`);
  if (result.backup !== undefined) io.out(`The previous file is kept as ${result.backup}.`);
  const narrowed = [...result.added, ...result.updated, ...result.present].filter((name) => matchers(name) !== undefined);
  if (narrowed.length > 0) io.out(`Only for the tools the hooks can match: ${narrowed.map((name) => `${name} (${matchers(name)})`).join(', ')}. Run --install again after changing a hook's tool matcher.`);
  if (result.present.length > 0) io.out(`Already bridged: ${result.present.join(', ')}.`);
  const perEvent = target.eventArgument && !/--event\b/.test(result.command) ? ' --event <event>' : '';
  io.out(`${target.title} now runs: ${result.command}${perEvent}`);
  return ExitCode.ok;
}


/** `bridge --install` for an agent that loads a plugin of ours (the `plugin` layout): writes the plugin file. */
async function installAgentPlugin(io: CliIO, projectDir: string, agent: InstallAgent, flags: InstallFlags, timeoutSeconds: number | undefined): Promise<number> {
  const target = INSTALL_TARGETS[agent];
  if (flags.events !== undefined) io.err(`--events does not apply to ${target.title}: its plugin runs the hooks of every event it has (${Object.keys(target.events).join(', ')}).`);
  let result;
  try {
    result = await installBridge({ agent, projectDir, events: [], command: flags.command, timeoutSeconds, level: flags.user ? 'user' : 'project', env: io.env });
  } catch (error) {
    if (error instanceof InstallBridgeError) {
      io.err(error.message);
      return ExitCode.problems;
    }
    throw error;
  }
  for (const warning of result.warnings ?? []) io.err(`WARNING: ${warning}`);
  if (flags.json) {
    const { agent: name, file, backup, added, updated, present, skipped, command } = result;
    printJson(io, { agent: name, file, backup: backup ?? null, added, updated, present, skipped, command });
    return ExitCode.ok;
  }
  if (result.added.length > 0) io.out(`Added the agent-hooks plugin: ${result.file}.`);
  if (result.updated.length > 0) io.out(`Brought the agent-hooks plugin up to date: ${result.file}.`);
  if (result.backup !== undefined) io.out(`The previous file is kept as ${result.backup}.`);
  if (result.present.length > 0) io.out(`The agent-hooks plugin is already there: ${result.file}.`);
  io.out(`${target.title} loads it when it starts and runs the HOOK.md hooks in its own process: yours, and the project's once trusted with 'npx agent-hooks trust'.`);
  return ExitCode.ok;
}

/**
 * Runs `bridge --uninstall AGENT [--user]`: removes the bridge's entries (the command bridge, the served line, Claude
 * Code's http entries) from the agent's config.
 *
 * @internal
 */
export async function uninstall(io: CliIO, projectDir: string, agent: string, flags: Pick<InstallFlags, 'json' | 'user'>): Promise<number> {
  if (!isInstallAgent(agent)) throw new UsageError(`--uninstall must be one of ${INSTALL_AGENTS.join(', ')}, not ${JSON.stringify(agent)}`);
  const { uninstallBridge } = await import('../../bridge/uninstall-bridge.js');
  let result;
  try {
    result = await uninstallBridge({ agent, projectDir, level: flags.user ? 'user' : 'project', env: io.env });
  } catch (error) {
    if (error instanceof InstallBridgeError) {
      io.err(error.message);
      return ExitCode.problems;
    }
    throw error;
  }
  if (flags.json) {
    printJson(io, { agent, file: result.file, backup: result.backup ?? null, removed: result.removed });
    return ExitCode.ok;
  }
  if (result.removed.length === 0) io.out(`${result.file} runs no bridge of ${INSTALL_TARGETS[agent].title}: nothing was changed.`);
  else io.out(`Removed the bridge from ${result.file} for ${result.removed.join(', ')}.`);
  if (result.backup !== undefined) io.out(`The previous file is kept as ${result.backup}.`);
  return ExitCode.ok;
}
