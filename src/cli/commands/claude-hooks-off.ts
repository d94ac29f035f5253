/**
 * The line `list`, `validate` and `bridge --install claude` print when a settings file Claude Code reads sets
 * `"disableAllHooks": true`: Claude Code then runs none of the user's hooks in the project, the bridge among them,
 * and nothing the bridge does can say so once Claude Code is running.
 *
 * @module
 * @internal
 */
import { homedir } from 'node:os';
import { relative } from 'node:path';
import { claudeHooksSwitchedOffIn, claudeHooksSwitchMessage } from '../../agents/claude/hooks-switch.js';

/**
 * One line naming the file that switches Claude Code's hooks off in `projectDir`, or none. The user's settings are
 * found under `HOME` of `hostEnv`, as Claude Code finds them.
 *
 * @internal
 */
export async function claudeHooksOffLines(projectDir: string, hostEnv: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const home = hostEnv['HOME'] !== undefined && hostEnv['HOME'] !== '' ? hostEnv['HOME'] : homedir();
  const off = await claudeHooksSwitchedOffIn(projectDir, home);
  if (off === undefined) return [];
  const shown = off.level === 'project' || off.level === 'local' ? relative(projectDir, off.file) : off.file;
  return [`WARNING: ${claudeHooksSwitchMessage(off, shown)}`];
}
