/**
 * The command line an agent runs the bridge with: the project's own `node_modules/.bin/agent-hooks`, else the
 * `agent-hooks` that is running — by path, never through `npx`, which costs time on every call, fails where the
 * package is not installed, and does not pass the agent's SIGTERM on to the bridge.
 *
 * @module
 */
import { nodeFs, fsPromises } from '../core/internal/node-fs.js';
import { join } from 'node:path';
import { agentProfile } from '../agents/registry.js';
import { InstallBridgeError } from './install-bridge-error.js';
import { INSTALL_TARGETS, type InstallAgent } from './install-targets.js';

const { constants } = nodeFs;

/**
 * `word` as one POSIX shell word: as it is when it needs no quoting, else in single quotes.
 *
 * @internal
 */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The project folder as the command line names it: `"$CLAUDE_PROJECT_DIR"/`, or nothing where the agent sets no
 * variable and runs hooks in the project. Gemini CLI replaces `$GEMINI_PROJECT_DIR` in the command's text with the
 * path already shell-quoted, so inside double quotes a path with a space would keep its quotes and name no file; it
 * leaves the braced form to the shell, which it gives the same variable.
 */
function projectReference(agent: InstallAgent, variable: string | undefined): string {
  if (variable === undefined) return '';
  return agentProfile(agent).projectReference === 'braced' ? `"\${${variable}}"/` : `"$${variable}"/`;
}

const isFile = (path: string): Promise<boolean> => fsPromises().stat(path).then((s) => s.isFile(), () => false);

/**
 * The command `agent` runs to reach the bridge of the project in `projectDir` (without Copilot's `--event NAME`):
 *
 * - when the project has `node_modules/.bin/agent-hooks`, that one — through the agent's project variable where it
 *   sets one (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from claude`), else relative to the
 *   project, where the agent runs its hooks (`node_modules/.bin/agent-hooks bridge --from codex`);
 * - otherwise `executable` (the running `agent-hooks`, `process.argv[1]` by default) by its absolute real path,
 *   which must be a built `.js` file; it is run by this `node` when it is not executable itself.
 *
 * @throws {@link InstallBridgeError} when neither is there, or `executable` is not a built `.js` file.
 *
 * @internal
 */
export async function bridgeCommandLine(agent: InstallAgent, projectDir: string, executable: string | undefined = process.argv[1]): Promise<string> {
  const target = INSTALL_TARGETS[agent];
  const tail = `bridge --from ${agent}`;
  if (await isFile(join(projectDir, 'node_modules', '.bin', 'agent-hooks'))) {
    return `${projectReference(agent, target.projectVariable)}node_modules/.bin/agent-hooks ${tail}`;
  }
  const advice = 'Install agent-hooks in the project (npm install --save-dev agent-hooks), or give the command with --command CMD.';
  if (executable === undefined) throw new InstallBridgeError(`The project has no node_modules/.bin/agent-hooks, and the running agent-hooks cannot be found. ${advice}`);
  const real = await fsPromises().realpath(executable).catch(() => executable);
  if (!/\.[cm]?js$/.test(real) || !(await isFile(real))) {
    throw new InstallBridgeError(`The project has no node_modules/.bin/agent-hooks, and the running agent-hooks (${real}) is not a built .js file an agent could run. ${advice}`);
  }
  const runnable = await fsPromises().access(real, constants.X_OK).then(() => true, () => false);
  return `${runnable ? '' : `${shellWord(process.execPath)} `}${shellWord(real)} ${tail}`;
}
