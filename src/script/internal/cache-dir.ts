/**
 * Where agent-hooks keeps what one process learns for the next: the regex checker's verdicts, the bridge's
 * notices already given.
 *
 * @module
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { userEnvOf } from '../../dialects/project-set-env.js';

/**
 * The user's cache folder for agent-hooks: `$AGENT_HOOKS_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-hooks` (absolute
 * only, as the XDG spec says), `%LOCALAPPDATA%\agent-hooks` on Windows, or `~/.cache/agent-hooks`. An
 * `AGENT_HOOKS_CACHE_DIR` that is not an absolute path (`off`) turns every cache off: `undefined`. A variable a project
 * file set (see `userEnvOf`) is not honoured: a repository must not choose what the next call believes it learnt.
 */
export function agentHooksCacheDir(
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const env = userEnvOf(hostEnv);
  const explicit = env['AGENT_HOOKS_CACHE_DIR'];
  if (explicit !== undefined) return isAbsolute(explicit) ? explicit : undefined;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'agent-hooks');
  const local = env['LOCALAPPDATA'];
  if (platform === 'win32' && local !== undefined && isAbsolute(local)) return join(local, 'agent-hooks');
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  return join(home, '.cache', 'agent-hooks');
}
