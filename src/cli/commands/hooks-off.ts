/**
 * The lines `list`, `validate` and `bridge --install` print when a settings file an agent reads switches off every
 * hook it runs (Claude Code's `disableAllHooks`): the agent then runs none of the user's hooks in the project, the
 * bridge among them, and nothing the bridge does can say so once the agent is running.
 *
 * @module
 * @internal
 */
import { homedir } from 'node:os';
import { AGENT_PROFILES } from '../../agents/registry.js';
import type { AgentProfile } from '../../agents/profile.js';

/**
 * One line per agent of `profiles` (default: every agent) whose settings switch its hooks off in `projectDir`. The
 * user's settings are found under `HOME` of `hostEnv`, as the agents find them.
 *
 * @internal
 */
export async function hooksOffLines(projectDir: string, hostEnv: Readonly<Record<string, string | undefined>>, profiles: readonly AgentProfile[] = AGENT_PROFILES): Promise<string[]> {
  const home = hostEnv['HOME'] !== undefined && hostEnv['HOME'] !== '' ? hostEnv['HOME'] : homedir();
  const lines = await Promise.all(profiles.map((profile) => profile.hooksSwitchedOff?.(projectDir, home)));
  return lines.filter((line): line is string => line !== undefined);
}
