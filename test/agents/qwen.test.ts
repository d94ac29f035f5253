/**
 * Qwen Code through the entries `agent-hooks bridge --install qwen` writes into `.qwen/settings.json`, each running
 * `agent-hooks bridge --from qwen`.
 *
 * What Qwen Code 0.24.4 does otherwise, and this file asserts in place of the shared case: it applies a PreToolUse
 * answer's `updatedInput` not at all (only a PermissionRequest's), so a HOOK.md rewrite does not reach the call.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
import { qwenDriver, writeUserSettings } from './drivers/qwen.js';
import { makeProject, pinOf } from './support/harness.js';
import { startMockServer, type Turn } from './support/mock-server.js';
import { RUN_MS } from './support/suite.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(qwenDriver);

/** A hook of the project's own, in Qwen Code's file: refuses `touch own-denied.txt`, and leaves `ran-own` when it runs. */
const OWN_GUARD = [
  'input=$(cat)',
  'touch "$QWEN_PROJECT_DIR/ran-own"',
  'case "$input" in *own-denied*) printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"E2E-QWEN-OWN"}}\';; esac',
].join('\n');

const SHELL = ['rm -rf build', 'touch own-denied.txt', 'touch allowed.txt'];
const TURNS: readonly Turn[] = [...SHELL.map((shell) => ({ shell })), { text: 'done' }];
const PROMPT = 'Clean the build folder, then create own-denied.txt and allowed.txt.';

describe(`qwen ${pinOf('qwen').version}: the file bridge --install qwen writes, in Qwen Code and in an agent built here`, () => {
  it('Qwen Code runs the installed line and a hook of the project’s own (matcher Bash, Qwen’s other name for its shell); withHooksFrom({ qwen: true }) decides the same', async () => {
    const project = makeProject(['guard-shell']);
    const mock = await startMockServer(qwenDriver.api(), TURNS);
    try {
      writeUserSettings(project);
      project.cli('bridge', '--install', 'qwen', '--events', 'PreToolUse', '--timeout', '30');
      const file = join(project.dir, '.qwen', 'settings.json');
      const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]> };
      const [group] = settings.hooks['PreToolUse']!;
      expect(group!.hooks[0]).toEqual({ type: 'command', command: 'NODE_OPTIONS= NODE_COMPILE_CACHE= "$QWEN_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from qwen', timeout: 30 });
      settings.hooks['PreToolUse']!.push({ matcher: 'Bash', hooks: [{ type: 'command', command: OWN_GUARD, timeout: 30 }] });
      writeFileSync(file, JSON.stringify(settings, null, 2));

      const run = await qwenDriver.run(project, mock, PROMPT, RUN_MS);
      const why = `exit ${run.exitCode}\n${run.stderr.slice(-3000)}`;
      const seen = mock.mainRequests().map((r) => JSON.stringify(r.body)).join('\n');
      // The bridge's HOOK.md guard refused rm -rf; the project's own hook refused its file; the rest ran.
      expect(existsSync(join(project.dir, 'build', 'keep.txt')), why).toBe(true);
      expect(seen, why).toContain('E2E-DENY');
      expect(existsSync(join(project.dir, 'own-denied.txt')), why).toBe(false);
      expect(seen, why).toContain('E2E-QWEN-OWN');
      expect(existsSync(join(project.dir, 'allowed.txt')), why).toBe(true);
      expect(existsSync(join(project.dir, 'ran-own')), why).toBe(true);
      expect((project.evidenceOf('guard-shell') as { tool_name?: string }[])[0]?.tool_name).toBe('run_shell_command');

      // The same project, the same file, in an agent built here whose shell tool has Qwen Code's name.
      for (const name of ['allowed.txt', 'ran-own']) rmSync(join(project.dir, name));
      const { told } = await runShellAgent({ dir: project.dir, tool: 'run_shell_command', commands: SHELL, from: { hookmd: true, qwen: true }, prompt: PROMPT });
      expect(existsSync(join(project.dir, 'build', 'keep.txt'))).toBe(true);
      expect(told).toContain('E2E-DENY');
      expect(existsSync(join(project.dir, 'own-denied.txt'))).toBe(false);
      expect(told).toContain('E2E-QWEN-OWN');
      expect(existsSync(join(project.dir, 'allowed.txt'))).toBe(true);
      expect(existsSync(join(project.dir, 'ran-own'))).toBe(true);
    } finally {
      await mock.close();
      project.remove();
    }
  }, RUN_MS + 60_000);
});
