/**
 * A bridged call of `agent-hooks bridge --from AGENT`: the part of the bridge command an agent runs on every hook
 * call, apart from its help text, its installers and every other agent's profile, so that the executable loads only
 * this, the `--from` agent's wire and what the call's hooks need (see src/cli/index.ts).
 *
 * @module
 * @internal
 */
import { resolve, isAbsolute, join } from 'node:path';
import type { AgentId } from '../../agents/agent-id.js';
import type { AgentWire } from '../../agents/agent-wire.js';
import { lightProfileOf } from '../../agents/light-registry.js';
import { agentWire } from '../../agents/wire-registry.js';
import { BRIDGE_ASYNC_DRAIN_MS, drainAfterAnswer, holdBridgeLifetime } from '../../bridge/bridge-lifetime.js';
import { runBridgeWith } from '../../bridge/run-wire.js';
import { noticeOncePerSession, SessionNotices, sessionNoticesFile } from '../../bridge/session-notices.js';
import { readWirePayload } from '../../bridge/wire-payload.js';
import { messageOf } from '../../core/internal/message-of.js';
import { projectSetPath, projectSetPathMessage, projectSetVariables, projectSetVariablesMessage } from '../../dialects/project-set-env.js';
import type { HookCall } from '../../script/internal/call-filter.js';
import { DiscoveryCache, discoveryCacheDir } from '../../script/internal/discovery-cache.js';
import { formatProblem, type HookProblem } from '../../script/problem.js';
import { ENV_POLICY_FLAGS, environmentOf, HelpRequested, parseFlags, positionalsUpTo, PROJECT_FLAGS, trustPolicyOf, type ParsedFlags } from '../args.js';
import { ExitCode, UsageError } from '../command.js';
import { checkConfigModule, configModuleHooks, findConfigModule } from '../config-module.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { isTrustProblem } from '../output.js';
import { skippedHooksNotice } from '../skipped-hooks-notice.js';

/**
 * The flags of `agent-hooks bridge`.
 *
 * @internal
 */
export const BRIDGE_FLAGS = {
  ...PROJECT_FLAGS,
  ...ENV_POLICY_FLAGS,
  from: { type: 'string' },
  event: { type: 'string' },
  detached: { type: 'boolean' },
  config: { type: 'string' },
  install: { type: 'string' },
  uninstall: { type: 'string' },
  events: { type: 'string' },
  command: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  user: { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
} as const;

/**
 * The values of {@link BRIDGE_FLAGS}, parsed.
 *
 * @internal
 */
export type BridgeFlags = ParsedFlags<typeof BRIDGE_FLAGS>['values'];

/** The event and tool of the payload, or `undefined` when it cannot be read (the dispatch then says why). */
function callOf(agent: AgentId, wire: AgentWire, input: string, event: string | undefined): HookCall | undefined {
  try {
    const { ctx } = readWirePayload(agent, wire, JSON.parse(input), event);
    return { event: ctx.event, tool: 'toolCall' in ctx ? ctx.toolCall.name : undefined };
  } catch {
    return undefined;
  }
}

/**
 * The call `args` (after `bridge`) describe, run as the bridge command runs it; `undefined`, having done nothing, for
 * a command line that is not a bridged call or is wrong (`--install`, `--uninstall`, no or an unknown `--from`, a usage error), which
 * the bridge command words.
 *
 * @internal
 */
export async function bridgedCall(args: readonly string[], io: CliIO): Promise<number | undefined> {
  try {
    const { values, positionals } = parseFlags(args, BRIDGE_FLAGS);
    positionalsUpTo(positionals, 0);
    const agent = values.from;
    if (values.install !== undefined || values.uninstall !== undefined || agent === undefined || lightProfileOf(agent) === undefined) return undefined;
    return await bridgeCall(io, agent as AgentId, values);
  } catch (error) {
    if (error instanceof UsageError || error instanceof HelpRequested) return undefined;
    throw error;
  }
}

/**
 * Runs one bridged call of `agent` (an agent's id, checked): reads the payload on stdin, dispatches it through the
 * project's hooks and writes the agent's answer.
 *
 * @internal
 */
export async function bridgeCall(io: CliIO, agent: AgentId, values: BridgeFlags): Promise<number> {
  const wire = agentWire(agent);
  const fromEnv = lightProfileOf(agent)!.projectVariables.map((name) => io.env[name]).find((v) => v !== undefined && v !== '');
  const projectDir = resolve(io.cwd, values.project ?? fromEnv ?? '.');
  // From here on the agent may give up on us (its hook timeout): then no hook process of ours may outlive us.
  const controller = new AbortController();
  let answered: number | undefined;
  const release = holdBridgeLifetime({
    controller,
    onEnd: (reason) => io.err(`agent-hooks bridge: ${reason}`),
    exitCode: () => answered ?? ExitCode.problems,
    // A call the agent made as it exited (see src/bridge/detached-line.ts): its going is no reason to stop.
    followParent: values.detached !== true,
  });
  const input = await io.readStdin();
  // A folder variable a project file set is not honoured (every resolver falls back to the default): the user hears of it.
  const ignoredEnv = projectSetVariablesMessage(projectSetVariables(io.env));
  if (ignoredEnv !== undefined) io.err(`agent-hooks: ${ignoredEnv}`);
  // A PATH a project set is kept (the agent's own hooks have it too), but the user's guards may call tools by name.
  const projectPath = projectSetPathMessage(projectSetPath(io.env));
  if (projectPath !== undefined) io.err(projectPath);

  // Only HOOK.md hooks: the agent already runs the hooks of its own config files, this bridge among them.
  // An untrusted project hook is skipped with a line on stderr; the agent still gets its answer, so it is not blocked.
  const trust = trustPolicyOf(io, values['trust-all']);
  // Only the hooks that may run on this call are loaded: one that cannot is never validated, analysed or hashed, so
  // a project's other hooks cost a call next to nothing (and an untrusted one is reported on the calls it would
  // have run on).
  const cacheFile = discoveryCacheDir(io.env);
  const scope = { call: callOf(agent, wire, input, values.event), cache: cacheFile === undefined ? undefined : new DiscoveryCache(cacheFile) };
  const project = await loadProjectHooks({ projectDir, hooksDirs: values['hooks-dir'] ?? [], hostEnv: io.env, environment: environmentOf(values), trust, scope }, [hookMdSource]);
  const said = new Set<string>();
  const skipped: HookProblem[] = [];
  const tell = (problem: HookProblem): void => {
    const line = `agent-hooks: ${formatProblem(problem)}`;
    if (!said.has(line)) io.err(line);
    said.add(line);
    if (isTrustProblem(problem)) skipped.push(problem);
  };
  project.problems.forEach(tell);
  let stack = project.stack;
  // A module named by its absolute path is the user's choice, as a path given to 'test' is. One found in the
  // project, or named relative to it (which, in a user-level agent config, means a file of every repository
  // opened), is code the repository brings, imported into this process: it needs trust, as its HOOK.md hooks do.
  const chosen = values.config !== undefined && isAbsolute(values.config);
  let configFile = values.config === undefined ? await findConfigModule(projectDir) : chosen ? values.config : join(projectDir, values.config);
  if (!chosen) {
    if (configFile !== undefined && trust !== 'all') {
      const { check, problems } = await checkConfigModule(configFile, projectDir, trust);
      problems.forEach(tell);
      if (check?.status !== 'trusted') configFile = undefined;
    }
  }
  if (configFile !== undefined) {
    try {
      stack = stack.withAll(await configModuleHooks(configFile));
    } catch (error) {
      io.err(`agent-hooks bridge: cannot load ${configFile}: ${messageOf(error)}`);
      release();
      return ExitCode.problems;
    }
  }
  // Agents keep a hook's stderr out of sight: the user hears of skipped hooks in the answer, once per session.
  const notice = [ignoredEnv, projectPath, skippedHooksNotice(skipped, projectDir)].filter((n) => n !== undefined).join(' ') || undefined;
  const once = noticeOncePerSession(new SessionNotices(sessionNoticesFile(io.env)), agent, notice);
  // From here on a hook of ours may be running (see CliIO.hooksStarting).
  io.hooksStarting?.();
  const result = await runBridgeWith(wire, {
    agent,
    input,
    event: values.event,
    stack,
    signal: controller.signal,
    notice: once.notice,
    drainAsync: false,
  });
  once.given(result);
  // The agent gave up on us meanwhile (see holdBridgeLifetime): what the cancelled hooks came to is no answer.
  if (controller.signal.aborted) return ExitCode.problems;
  const early = result.notes.length;
  for (const note of result.notes.slice(0, early)) io.err(`agent-hooks: ${note.message}`);
  if (result.stdout !== '') io.out(result.stdout.trimEnd());
  if (result.stderr !== '') io.err(result.stderr.trimEnd());
  // The answer goes out first: async hooks may take longer than the agent waits, and then it would read none. They
  // get a bounded time after it, and until then the agent giving up still takes their processes with us.
  answered = result.exitCode;
  await io.flush?.();
  const finished = await drainAfterAnswer(stack, controller, BRIDGE_ASYNC_DRAIN_MS);
  release();
  // On a failing exit, stderr is the reason the agent acts on: nothing more may be added to it.
  if (result.exitCode === 0) {
    for (const note of result.notes.slice(early)) io.err(`agent-hooks: ${note.message}`);
    if (!finished) io.err(`agent-hooks bridge: async hooks still running ${BRIDGE_ASYNC_DRAIN_MS / 1000} s after the answer were stopped.`);
  }
  return result.exitCode;
}
