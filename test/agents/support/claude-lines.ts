/**
 * The bridge's Claude Code lines, for an agent that reads hooks in Claude Code's format under a file and a project
 * variable of its own (Qwen Code's `.qwen/settings.json` and `$QWEN_PROJECT_DIR`, Factory Droid's
 * `.factory/hooks.json` and `$FACTORY_PROJECT_DIR`): written by the real `agent-hooks bridge --install claude`, so
 * each entry runs `agent-hooks bridge --from claude`, then moved into the agent's own file. Until the bridge installs
 * for these agents itself, that is what a user of them writes.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { installBridge, type AgentProject } from './harness.js';

/** Claude Code's `hooks` object: event name → matcher groups of command entries. */
export type ClaudeHooks = Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;

/**
 * The `hooks` object `agent-hooks bridge --install claude` writes for `events`, with `$CLAUDE_PROJECT_DIR` in each
 * command replaced by `variable`. The `.claude/` folder it wrote is removed: the agent must run only what its own
 * file says.
 */
export function claudeBridgeHooks(project: AgentProject, events: readonly string[], timeoutSec: number, variable: string): ClaudeHooks {
  installBridge(project, 'claude', events, timeoutSec);
  const file = join(project.dir, '.claude', 'settings.json');
  const { hooks } = JSON.parse(readFileSync(file, 'utf8')) as { hooks: ClaudeHooks };
  rmSync(join(project.dir, '.claude'), { recursive: true, force: true });
  for (const groups of Object.values(hooks)) {
    for (const group of groups) {
      for (const entry of group.hooks) entry.command = entry.command.replaceAll('$CLAUDE_PROJECT_DIR', `$${variable}`);
    }
  }
  return hooks;
}
