/**
 * Where HOOK.md hooks live on disk.
 *
 * @module
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { userEnvOf } from '../dialects/project-set-env.js';

/** The environment variables the hook folders depend on. */
export type HookEnv = Readonly<Record<string, string | undefined>>;

/**
 * The user-level hooks folder: `$XDG_CONFIG_HOME/agents/hooks`, else `~/.config/agents/hooks`. A relative
 * `XDG_CONFIG_HOME` is ignored, as the XDG spec requires, so that the folder does not depend on the current directory.
 * A variable a project file set (see `userEnvOf`) is not honoured: the repository does not choose the user's hooks.
 *
 * @internal
 */
export function userHooksDir(hostEnv: HookEnv = process.env): string {
  const env = userEnvOf(hostEnv);
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'agents', 'hooks');
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  return join(home, '.config', 'agents', 'hooks');
}

/**
 * The project-level hooks folder: `<projectDir>/.agents/hooks`.
 *
 * @internal
 */
export function projectHooksDir(projectDir: string = process.cwd()): string {
  return join(resolve(projectDir), '.agents', 'hooks');
}
