/**
 * `agent-hooks bridge`: runs the project's HOOK.md hooks (and in-process hooks from `agent-hooks.config.*`) as the
 * hook of another agent, answering in that agent's own format; `--install AGENT` writes the line that does it into
 * that agent's project config.
 *
 * @module
 */
import { isAbsolute, join, resolve } from 'node:path';
import { agentProfile } from '../../agents/registry.js';
import { BRIDGE_AGENTS, type BridgeAgent } from '../../bridge/bridge-answer.js';
import { BRIDGE_ASYNC_DRAIN_MS, drainAfterAnswer, holdBridgeLifetime } from '../../bridge/bridge-lifetime.js';
import { readBridgePayload } from '../../bridge/bridge-payload.js';
import { runBridge } from '../../bridge/run-bridge.js';
import { noticeOncePerSession, SessionNotices, sessionNoticesFile } from '../../bridge/session-notices.js';
import { projectSetPath, projectSetPathMessage, projectSetVariables, projectSetVariablesMessage } from '../../dialects/project-set-env.js';
import { messageOf } from '../../core/internal/message-of.js';
import type { HookCall } from '../../script/internal/call-filter.js';
import { DiscoveryCache, discoveryCacheFile } from '../../script/internal/discovery-cache.js';
import { formatProblem, type HookProblem } from '../../script/problem.js';
import { ENV_POLICY_FLAGS, ENV_POLICY_HELP, environmentOf, parseFlags, positionalsUpTo, PROJECT_FLAGS, TRUST_ALL_HELP, trustPolicyOf } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { checkConfigModule, configModuleHooks, findConfigModule } from '../config-module.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { isTrustProblem } from '../output.js';
import { skippedHooksNotice } from '../skipped-hooks-notice.js';
import { BRIDGE_HELP, option, paragraph } from './bridge-help.js';

/** The event and tool of the payload, or `undefined` when it cannot be read (the dispatch then says why). */
function callOf(agent: BridgeAgent, input: string, event: string | undefined): HookCall | undefined {
  try {
    const { ctx } = readBridgePayload(agent, JSON.parse(input), event);
    return { event: ctx.event, tool: 'toolCall' in ctx ? ctx.toolCall.name : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Bridge mode prints exactly what the agent reads: its JSON answer on stdout (or nothing), a reason on stderr, and
 * its exit code. `--install AGENT` prints what it changed (`--json`: `{ agent, file, backup, added, updated, present,
 * skipped, command }`).
 */
export const bridgeCommand: Command = {
  name: 'bridge',
  synopsis: `bridge --from ${BRIDGE_HELP.from} [--event E] [--project DIR] [--config FILE] | bridge --install ${BRIDGE_HELP.install} [--events E,…] [--timeout S] [--command CMD] [--user] | bridge --install AGENT --http [--port N] [--host H] | bridge --uninstall AGENT [--user]`,
  summary: 'run the project’s HOOK.md hooks as another agent’s hook, answering in its own format',
  usageExitCode: ExitCode.problems,
  help: `Reads the agent's hook payload on stdin, dispatches it through the project's HOOK.md hooks (user and project)
and the in-process hooks of agent-hooks.config.mjs / .js / .mts / .ts (or --config FILE), and answers as that agent's
hook would: JSON on stdout, a reason on stderr, an exit code.

Options:
${option('--from AGENT', BRIDGE_HELP.fromList)}
${option('--event E', `the event, for the payloads of ${BRIDGE_HELP.eventArgument}, which name none (e.g. --event preToolUse)`)}
${option('--project DIR', `the project (default: the agent's project variable, e.g. ${BRIDGE_HELP.exampleVariable}, else the current directory)`)}
  --hooks-dir DIR    another folder of HOOK.md hook folders (repeatable). A relative DIR is the project's
                     folder, and its hooks need trust like .agents/hooks (agent-hooks trust --hooks-dir DIR);
                     an absolute one names a folder you chose, and loads without trust
${TRUST_ALL_HELP}
${ENV_POLICY_HELP}
  --config FILE      the module of in-process hooks (default: agent-hooks.config.mjs, .js, .mts or .ts in the
                     project, once trusted; TypeScript needs tsx). An absolute FILE loads without trust: naming
                     it is your consent; a relative one is the project's file, and needs trust like the default
${option('--install AGENT', `add the bridge to the agent's project config, merged into what is there (the old file kept as FILE.bak): ${BRIDGE_HELP.installPlaces}. It runs the project's node_modules/.bin/agent-hooks (through ${BRIDGE_HELP.variables} where the agent sets one), else this agent-hooks by its full path`)}
${option('--events E,…', "with --install: the events to bridge, in any dialect's names (default: those the project's HOOK.md hooks use); events the agent does not have are skipped, with a line on stderr")}
${option('--timeout S', `with --install: how long the agent gives the bridge, in seconds, written in the agent's own unit (milliseconds for ${BRIDGE_HELP.milliseconds}); without it a new entry gets 60 and one already there keeps its own`)}
${option('--command CMD', `with --install: the command the agent runs (the entries of ${BRIDGE_HELP.eventArgument} add --event NAME)`)}
  --json             with --install: print { agent, file, backup, added, updated, present, skipped, command }
${option('--uninstall AGENT', "remove the bridge's entries from the agent's config — the command bridge, the served line of --http, Claude Code's http entries — and nothing else (the old file kept as FILE.bak; --user: the user-level config; --json: { agent, file, backup, removed })")}
${option('--user', `with --install: write the agent's user-level config (${BRIDGE_HELP.userPlaces}), which runs in every repository: the line is this node and this agent-hooks's cli.js by their absolute paths, never the project's own copy or npx (a project's .npmrc could run its code), and it has no tool matcher`)}
${option('--http', `with --install ${BRIDGE_HELP.httpList}: write type "http" entries that POST to 'agent-hooks serve' (http://127.0.0.1:PORT/hooks/AGENT, the token from $AGENT_HOOKS_TOKEN), replacing the command bridge's; --port N (default 7391), --host H. With --install of an agent whose hooks are commands: a line that POSTs the payload with curl to http://127.0.0.1:PORT/bridge/AGENT and prints the server's answer, and runs the command bridge when no server answers (refused, timed out, a status but 200: a wrong token, another project); installing without --http puts the command bridge back`)}

${paragraph(`The project's own HOOK.md hooks and its agent-hooks.config.* module run once trusted (agent-hooks trust); an untrusted or changed one is skipped — the module is not even imported — with a line on stderr, and the agent still gets its answer. Only the module's own file is pinned, not the files it imports. The user is told which hooks were skipped, and how to trust them, once per agent session: in the answer's message for the user (systemMessage; ${BRIDGE_HELP.otherUserFields}), or on stderr for ${BRIDGE_HELP.noUserField}, whose answers have none. The sessions already told are kept in bridge-notices.json in the cache folder (AGENT_HOOKS_CACHE_DIR, else ~/.cache/agent-hooks); with AGENT_HOOKS_CACHE_DIR=off the user is told on every call.`)}

When the agent gives up on the bridge — SIGTERM, SIGINT or SIGHUP at its own hook timeout, or the agent gone — the
bridge kills every hook process it started (their whole process groups) and exits 1; a hook still running after a
second is also watched, so that even a SIGKILL of the bridge leaves none behind.

Async hooks (async: true) never hold back the answer: it is written first, then they get ${BRIDGE_ASYNC_DRAIN_MS / 1000} seconds to finish
(the agent reads the answer only once the bridge exits, and must not hit its own timeout waiting), and those still
running then are stopped with their process groups.

Exit codes: what the agent should see — 0 with the answer, 1 when the input cannot be read, a hook failed or the
command line is wrong (never 2, which agents read as a block); --install: 0, or 1 when the command line is wrong or
the config cannot be merged safely — not JSON, not of the agent's shape, a symbolic link (the config, a folder on the
way to it), no event left to bridge — and nothing is written.`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...PROJECT_FLAGS,
      ...ENV_POLICY_FLAGS,
      from: { type: 'string' },
      event: { type: 'string' },
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
    });
    positionalsUpTo(positionals, 0);
    if (values.uninstall !== undefined) {
      const { uninstall } = await import('./bridge-install.js');
      return uninstall(io, resolve(io.cwd, values.project ?? '.'), values.uninstall, values);
    }
    if (values.install !== undefined && values.http === true) {
      const { installHttp } = await import('./bridge-install-http.js');
      return installHttp(io, resolve(io.cwd, values.project ?? '.'), values.install, values);
    }
    if (values.install !== undefined) {
      // Installing is rare next to bridged calls, which must not load what it needs.
      const { install } = await import('./bridge-install.js');
      return install(io, resolve(io.cwd, values.project ?? '.'), values.install, values);
    }
    const agent = values.from as BridgeAgent | undefined;
    if (agent === undefined) throw new UsageError(`bridge needs --from AGENT (${BRIDGE_HELP.fromList}), or --install AGENT`);
    if (!BRIDGE_AGENTS.includes(agent)) throw new UsageError(`--from must be one of ${BRIDGE_AGENTS.join(', ')}, not ${JSON.stringify(agent)}`);
    const fromEnv = agentProfile(agent).light.projectVariables.map((name) => io.env[name]).find((v) => v !== undefined && v !== '');
    const projectDir = resolve(io.cwd, values.project ?? fromEnv ?? '.');
    // From here on the agent may give up on us (its hook timeout): then no hook process of ours may outlive us.
    const controller = new AbortController();
    let answered: number | undefined;
    const release = holdBridgeLifetime({ controller, onEnd: (reason) => io.err(`agent-hooks bridge: ${reason}`), exitCode: () => answered ?? ExitCode.problems });
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
    const cacheFile = discoveryCacheFile(io.env);
    const scope = { call: callOf(agent, input, values.event), cache: cacheFile === undefined ? undefined : new DiscoveryCache(cacheFile) };
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
    const result = await runBridge({
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
  },
};
