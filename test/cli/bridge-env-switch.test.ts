/**
 * Nothing in the bridge's environment turns a guard into "allow": the environment is partly the project's (a Gemini
 * CLI `.env`, a Claude Code settings `env` block), so no variable may choose a path that answers without the hooks.
 * Once, `AGENT_HOOKS_BRIDGE_FIRST_STAGE=only` made every call a hook could run on exit 99 with no output — a
 * non-blocking error to every agent, so every guard failed open.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';

const project = cliProjects();

const NO_RM = `#!/bin/sh
case "$(cat)" in *rm*) echo "no rm" >&2; exit 2 ;; esac
exit 0`;

const claudeShell = (command: string): string =>
  JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });

describe('the bridge, with a variable that once switched its first stage', () => {
  for (const value of ['only', 'off']) {
    it(`AGENT_HOOKS_BRIDGE_FIRST_STAGE=${value}, as a project's settings could set it: the user's guard still denies rm -rf /`, async () => {
      const { dir } = await project();
      const home = join(dir, 'home');
      await scriptHook(join(home, '.config', 'agents', 'hooks'), 'user-guard', { trigger: 'pre-tool-call' }, NO_RM);
      await mkdir(join(dir, '.claude'), { recursive: true });
      await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ env: { AGENT_HOOKS_BRIDGE_FIRST_STAGE: value } }));
      const env = { CLAUDE_PROJECT_DIR: dir, HOME: home, XDG_CONFIG_HOME: undefined, AGENT_HOOKS_BRIDGE_FIRST_STAGE: value };
      const out = await runCli(['bridge', '--from', 'claude'], { cwd: dir, input: claudeShell('rm -rf /'), env });
      expect(out.code, out.stderr).toBe(0);
      const answer = JSON.parse(out.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
      expect(answer.hookSpecificOutput?.permissionDecision).toBe('deny');
      expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain('no rm');
    });
  }
});
