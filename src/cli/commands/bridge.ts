/**
 * `agent-hooks bridge`: runs the project's HOOK.md hooks (and in-process hooks from `agent-hooks.config.*`) as the
 * hook of another agent, answering in that agent's own format; `--install AGENT` writes the line that does it into
 * that agent's project config.
 *
 * @module
 */
import { resolve } from 'node:path';
import { BRIDGE_AGENTS, type BridgeAgent } from '../../bridge/bridge-answer.js';
import { BRIDGE_ASYNC_DRAIN_MS } from '../../bridge/bridge-lifetime.js';
import { ENV_POLICY_HELP, parseFlags, positionalsUpTo, TRUST_ALL_HELP } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { bridgeCall, BRIDGE_FLAGS } from './bridge-call.js';
import { BRIDGE_HELP, option, paragraph } from './bridge-help.js';

/**
 * Bridge mode prints exactly what the agent reads: its JSON answer on stdout (or nothing), a reason on stderr, and
 * its exit code. `--install AGENT` prints what it changed (`--json`: `{ agent, file, backup, added, updated, present,
 * skipped, command }`).
 */
export const bridgeCommand: Command = {
  name: 'bridge',
  synopsis: `bridge --from ${BRIDGE_HELP.from} [--event E] [--project DIR] [--config FILE] [--detached] | bridge --install ${BRIDGE_HELP.install} [--events E,…] [--timeout S] [--command CMD] [--user] | bridge --install AGENT --http [--port N] [--host H] | bridge --uninstall AGENT [--user]`,
  summary: 'run the project’s HOOK.md hooks as another agent’s hook, answering in its own format',
  usageExitCode: ExitCode.problems,
  help: `Reads the agent's hook payload on stdin, dispatches it through the project's HOOK.md hooks (user and project)
and the in-process hooks of agent-hooks.config.mjs / .js / .mts / .ts (or --config FILE), and answers as that agent's
hook would: JSON on stdout, a reason on stderr, an exit code.

Options:
${option('--from AGENT', BRIDGE_HELP.fromList)}
${option('--event E', `the event, for the payloads of ${BRIDGE_HELP.eventArgument}, which name none (e.g. --event preToolUse)`)}
${option('--project DIR', `the project (default: the agent's project variable, e.g. ${BRIDGE_HELP.exampleVariable}, else the current directory)`)}
  --detached         the agent fired the event as it exits (Claude Code's StopFailure): its going away does not
                     stop the hooks, which run to their end, each within its own timeout. --install writes it on
                     those events' lines, which start the bridge out of the agent's reach
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
    const { values, positionals } = parseFlags(args, BRIDGE_FLAGS);
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
    return bridgeCall(io, agent, values);
  },
};
