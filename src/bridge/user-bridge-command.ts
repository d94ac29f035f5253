/**
 * The bridge in a user-level agent config (`~/.claude/settings.json` and the like): where each agent keeps that file,
 * and the command line it runs there.
 *
 * A user-level entry runs in every repository the user opens. So its command must not be resolved inside the project:
 * `npx --no-install agent-hooks` runs the project's own `node_modules/.bin/agent-hooks` when there is one, and npm
 * applies the project's `.npmrc` (`node-options=--require ./x.js` runs the repository's code before ours), and a bare
 * `agent-hooks` is looked up on a `PATH` the agent may have extended. The line is this `node`, by its absolute path,
 * running this installation's `cli.js`, by its absolute real path — refused when that lies inside the project.
 *
 * @module
 * @internal
 */
import { fsPromises } from '../core/internal/node-fs.js';
import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { AGENT_PROFILES, agentProfile } from '../agents/registry.js';
import { shellWord } from './bridge-command.js';
import { InstallBridgeError } from './install-bridge-error.js';
import type { InstallAgent } from './install-targets.js';

/**
 * Where `agent` keeps its user-level hooks: a folder (the home, or `$CODEX_HOME`) and the file in it, or `undefined`
 * for VS Code, whose user-level file is Claude Code's own.
 *
 * @internal
 */
export function userHookFile(agent: InstallAgent, env: Readonly<Record<string, string | undefined>> = process.env): { dir: string; file: string } | undefined {
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  return agentProfile(agent).userHookFile(home, env);
}

/**
 * The agents whose project files can put variables into their hooks' environment: Claude Code applies the `env` block
 * of the project's `.claude/settings.json` over the user's variables, and Gemini CLI loads a project's `.env` for
 * variables not already set. Their bridge lines clear `NODE_OPTIONS` and `NODE_COMPILE_CACHE` first (see
 * {@link NODE_VARIABLES_CLEARED}).
 *
 * @internal
 */
export const PROJECT_ENV_AGENTS: readonly InstallAgent[] = Object.freeze(AGENT_PROFILES.filter((profile) => profile.projectSetsEnv).map((profile) => profile.id));

/**
 * What a bridge line of a {@link PROJECT_ENV_AGENTS} agent starts with: `NODE_OPTIONS` and `NODE_COMPILE_CACHE`
 * emptied for the bridge's `node` (POSIX `VAR= cmd`, as sh, bash and Git Bash read it). Both act before the first line
 * of ours: Node applies `NODE_OPTIONS` (a project that sets it to `--require ./x.cjs` runs its code inside the bridge,
 * and a `process.exit(0)` there is an "allow" no guard of the user's ever sees), and Node 22.1 and later load the
 * compiled code of our modules from the `NODE_COMPILE_CACHE` folder (one the repository filled would hand us code of its
 * making). An empty value turns each off; the bridge then turns the compile cache on in the user's own cache folder
 * (`src/cli/compile-cache.ts`). `NODE_PATH` is not cleared: it is only looked in for a bare `require` that fails from
 * our own `node_modules`, and never for an `import`.
 *
 * @internal
 */
export const NODE_VARIABLES_CLEARED = 'NODE_OPTIONS= NODE_COMPILE_CACHE= ';

/** The prefix of lines written before `NODE_COMPILE_CACHE` was cleared too: such a line is outdated. */
const OLDER_PREFIX = 'NODE_OPTIONS= ';

/**
 * `line` as `agent` runs it: prefixed with {@link NODE_VARIABLES_CLEARED} when a project can set that agent's env (an
 * older line's `NODE_OPTIONS= ` alone is replaced).
 */
export const clearingNodeVariables = (agent: InstallAgent, line: string): string => {
  if (!PROJECT_ENV_AGENTS.includes(agent) || line.startsWith(NODE_VARIABLES_CLEARED)) return line;
  return `${NODE_VARIABLES_CLEARED}${line.startsWith(OLDER_PREFIX) ? line.slice(OLDER_PREFIX.length) : line}`;
};

const inside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * `node /abs/path/to/agent-hooks/dist/cli.js bridge --from AGENT`: `nodePath` (this `node`) and `executable` (the
 * running `cli.js`, `process.argv[1]`) by their absolute real paths; for Claude Code and Gemini CLI, after
 * {@link NODE_VARIABLES_CLEARED} (`NODE_OPTIONS= NODE_COMPILE_CACHE= /usr/bin/node /…/dist/cli.js bridge --from claude`).
 *
 * @throws {@link InstallBridgeError} when `executable` is not a built `.js` file, or lies inside `projectDir` (a
 *   project's own `node_modules`): a line every repository runs must not run one repository's copy.
 *
 * @internal
 */
export async function userBridgeCommandLine(agent: InstallAgent, projectDir: string, executable: string | undefined = process.argv[1], nodePath: string = process.execPath): Promise<string> {
  const advice = 'Run --install --user from a global install (npm install --global agent-hooks, then agent-hooks bridge --install AGENT --user), or give the command with --command CMD.';
  if (executable === undefined) throw new InstallBridgeError(`The running agent-hooks cannot be found. ${advice}`);
  const real = await fsPromises().realpath(executable).catch(() => executable);
  const isFile = await fsPromises().stat(real).then((s) => s.isFile(), () => false);
  if (!/\.[cm]?js$/.test(real) || !isFile) throw new InstallBridgeError(`The running agent-hooks (${real}) is not a built .js file an agent could run. ${advice}`);
  const project = await fsPromises().realpath(projectDir).catch(() => projectDir);
  if (inside(project, real)) {
    throw new InstallBridgeError(`The running agent-hooks (${real}) is the project's own copy; a user-level config runs its line in every repository, so it must not run one repository's files. ${advice}`);
  }
  const node = await fsPromises().realpath(nodePath).catch(() => nodePath);
  return clearingNodeVariables(agent, `${shellWord(node)} ${shellWord(real)} bridge --from ${agent}`);
}

/** The folder and file of `agent`'s user-level config, for messages and tests. */
export const userHookPath = (agent: InstallAgent, env?: Readonly<Record<string, string | undefined>>): string | undefined => {
  const at = userHookFile(agent, env);
  return at === undefined ? undefined : join(at.dir, at.file);
};
