/**
 * `agent-hooks bridge`: runs the project's HOOK.md hooks (and in-process hooks from `agent-hooks.config.*`) as the
 * hook of another agent, answering in that agent's own format; `--install claude` writes the line that does it.
 *
 * @module
 */
import { access } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { BRIDGE_AGENTS, DEFAULT_CLAUDE_BRIDGE_COMMAND, holdBridgeLifetime, installClaudeBridge, InstallBridgeError, runBridge, type BridgeAgent } from '../../bridge/index.js';
import { HookEvent } from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { formatProblem, type HookProblem } from '../../script/index.js';
import { ENV_POLICY_FLAGS, ENV_POLICY_HELP, environmentOf, parseFlags, positionalsUpTo, PROJECT_FLAGS, TRUST_ALL_HELP, trustPolicyOf } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { checkConfigModule, configModuleHooks, findConfigModule } from '../config-module.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { printJson } from '../output.js';

/** The variable each agent sets to the project directory. */
const PROJECT_ENV: Readonly<Record<BridgeAgent, readonly string[]>> = {
  claude: ['CLAUDE_PROJECT_DIR'],
  vscode: ['CLAUDE_PROJECT_DIR'],
  copilot: [],
  gemini: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  cursor: ['CURSOR_PROJECT_DIR'],
};

const exists = (file: string) => access(file).then(() => true, () => false);

async function install(io: CliIO, projectDir: string, agent: string, events: string | undefined, command: string | undefined, json: boolean | undefined): Promise<number> {
  if (agent !== 'claude') throw new UsageError(`--install writes Claude Code's settings only; for ${agent}, add the line the README shows to its config.`);
  let names: string[];
  if (events !== undefined) {
    names = events.split(',').map((e) => e.trim()).filter((e) => e !== '');
  } else {
    // Only the events are read, no hook runs: trust does not come into it.
    const project = await loadProjectHooks({ projectDir, hooksDirs: [], hostEnv: io.env, trust: 'all' }, [hookMdSource]);
    const used = new Set(project.stack.all().flatMap((entry) => [...(entry.events ?? [])]));
    names = [...used].filter((e) => HookEvent.toDialect(e, 'claude') !== undefined);
    if (names.length === 0) {
      io.err('No HOOK.md hook of this project runs on an event Claude Code has: add hooks first, or name the events with --events PreToolUse,Stop.');
      return ExitCode.problems;
    }
  }
  const local = join(projectDir, 'node_modules', '.bin', 'agent-hooks');
  const line = command ?? ((await exists(local)) ? '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from claude' : DEFAULT_CLAUDE_BRIDGE_COMMAND);
  let result;
  try {
    result = await installClaudeBridge({ projectDir, events: names, command: line });
  } catch (error) {
    if (error instanceof InstallBridgeError) {
      io.err(error.message);
      return ExitCode.problems;
    }
    throw error;
  }
  if (json) {
    printJson(io, { file: result.file, backup: result.backup ?? null, added: result.added, present: result.present, command: line });
    return ExitCode.ok;
  }
  if (result.added.length > 0) {
    io.out(`Added the bridge to ${result.file} for ${result.added.join(', ')}.`);
    if (result.backup !== undefined) io.out(`The previous file is kept as ${result.backup}.`);
  }
  if (result.present.length > 0) io.out(`Already bridged: ${result.present.join(', ')}.`);
  io.out(`Claude Code now runs: ${line}`);
  return ExitCode.ok;
}

/**
 * Bridge mode prints exactly what the agent reads: its JSON answer on stdout (or nothing), a reason on stderr, and
 * its exit code. `--install claude` prints what it changed (`--json`: `{ file, backup, added, present, command }`).
 */
export const bridgeCommand: Command = {
  name: 'bridge',
  synopsis: 'bridge --from claude|copilot|vscode|gemini|cursor [--event E] [--project DIR] [--config FILE] | bridge --install claude [--events E,…] [--command CMD]',
  summary: 'run the project’s HOOK.md hooks as another agent’s hook, answering in its own format',
  help: `Reads the agent's hook payload on stdin, dispatches it through the project's HOOK.md hooks (user and project)
and the in-process hooks of agent-hooks.config.mjs / .js / .mts / .ts (or --config FILE), and answers as that agent's
hook would: JSON on stdout, a reason on stderr, an exit code.

Options:
  --from AGENT       claude, copilot, vscode, gemini or cursor
  --event E          the event, for Copilot's payloads, which name none (e.g. --event preToolUse)
  --project DIR      the project (default: the agent's project variable, e.g. CLAUDE_PROJECT_DIR, else the
                     current directory)
  --hooks-dir DIR    another folder of HOOK.md hook folders, relative to the project (repeatable)
${TRUST_ALL_HELP}
${ENV_POLICY_HELP}
  --config FILE      the module of in-process hooks (default: agent-hooks.config.mjs, .js, .mts or .ts in the
                     project, once trusted; TypeScript needs tsx). An absolute FILE loads without trust: naming
                     it is your consent; a relative one is the project's file, and needs trust like the default
  --install claude   add the bridge to .claude/settings.json for the events the hooks use (merged, with a backup)
  --events E,…       with --install: the events to bridge
  --command CMD      with --install: the command Claude Code runs
  --json             with --install: print { file, backup, added, present, command }

The project's own HOOK.md hooks and its agent-hooks.config.* module run once trusted (agent-hooks trust); an
untrusted or changed one is skipped — the module is not even imported — with a line on stderr, and the agent
still gets its answer. Only the module's own file is pinned, not the files it imports.

When the agent gives up on the bridge — SIGTERM, SIGINT or SIGHUP at its own hook timeout, or the agent gone — the
bridge kills every hook process it started (their whole process groups) and exits 1; a hook still running after a
second is also watched, so that even a SIGKILL of the bridge leaves none behind.

Exit codes: what the agent should see — 0 with the answer, 1 when the input cannot be read or a hook failed;
--install: 0, or 1 when the settings cannot be merged safely (nothing is written).`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...PROJECT_FLAGS,
      ...ENV_POLICY_FLAGS,
      from: { type: 'string' },
      event: { type: 'string' },
      config: { type: 'string' },
      install: { type: 'string' },
      events: { type: 'string' },
      command: { type: 'string' },
      json: { type: 'boolean' },
    });
    positionalsUpTo(positionals, 0);
    if (values.install !== undefined) return install(io, resolve(io.cwd, values.project ?? '.'), values.install, values.events, values.command, values.json);
    const agent = values.from as BridgeAgent | undefined;
    if (agent === undefined) throw new UsageError('bridge needs --from AGENT (claude, copilot, vscode, gemini or cursor), or --install claude');
    if (!BRIDGE_AGENTS.includes(agent)) throw new UsageError(`--from must be one of ${BRIDGE_AGENTS.join(', ')}, not ${JSON.stringify(agent)}`);
    const fromEnv = PROJECT_ENV[agent].map((name) => io.env[name]).find((v) => v !== undefined && v !== '');
    const projectDir = resolve(io.cwd, values.project ?? fromEnv ?? '.');
    // From here on the agent may give up on us (its hook timeout): then no hook process of ours may outlive us.
    const controller = new AbortController();
    const release = holdBridgeLifetime({ controller, onEnd: (reason) => io.err(`agent-hooks bridge: ${reason}`) });
    const input = await io.readStdin();

    // Only HOOK.md hooks: the agent already runs the hooks of its own config files, this bridge among them.
    // An untrusted project hook is skipped with a line on stderr; the agent still gets its answer, so it is not blocked.
    const trust = trustPolicyOf(io, values['trust-all']);
    const project = await loadProjectHooks({ projectDir, hooksDirs: values['hooks-dir'] ?? [], hostEnv: io.env, environment: environmentOf(values), trust }, [hookMdSource]);
    const said = new Set<string>();
    const tell = (problem: HookProblem): void => {
      const line = `agent-hooks: ${formatProblem(problem)}`;
      if (!said.has(line)) io.err(line);
      said.add(line);
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
        if (check.status !== 'trusted') configFile = undefined;
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
    const result = await runBridge({ agent, input, event: values.event, stack, signal: controller.signal });
    release();
    for (const note of result.notes) io.err(`agent-hooks: ${note.message}`);
    if (result.stdout !== '') io.out(result.stdout.trimEnd());
    if (result.stderr !== '') io.err(result.stderr.trimEnd());
    return result.exitCode;
  },
};
