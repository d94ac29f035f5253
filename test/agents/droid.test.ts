/**
 * Factory Droid through the entries `agent-hooks bridge --install droid` writes into `.factory/hooks.json` (the events
 * at its top level), each running `agent-hooks bridge --from droid`.
 *
 * What Factory Droid 0.215.0 does otherwise, and this file asserts in place of the shared case: `droid exec` never
 * fires UserPromptSubmit, so no prompt context reaches the model.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
import { droidDriver, writeUserSettings } from './drivers/droid.js';
import { makeProject, pinOf } from './support/harness.js';
import { startMockServer, type Turn } from './support/mock-server.js';
import { defineAgentSuite, RUN_MS } from './support/suite.js';

defineAgentSuite(droidDriver);

/** A hook of the project's own, in Factory Droid's file: refuses `touch own-denied.txt`, and leaves `ran-own` when it runs. */
const OWN_GUARD = [
  'input=$(cat)',
  'touch "$FACTORY_PROJECT_DIR/ran-own"',
  'case "$input" in *own-denied*) printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"E2E-DROID-OWN"}}\';; esac',
].join('\n');

const SHELL = ['rm -rf build', 'touch own-denied.txt', 'touch allowed.txt'];
const TURNS: readonly Turn[] = [...SHELL.map((shell) => ({ shell })), { text: 'done' }];
const PROMPT = 'Clean the build folder, then create own-denied.txt and allowed.txt.';

type Groups = { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[];

describe(`droid ${pinOf('droid').version}: the file bridge --install droid writes, in Factory Droid and in an agent built here`, () => {
  it('Factory Droid runs the installed line and hooks of the project’s own (matcher Execute runs, Bash does not); withHooksFrom({ droid: true }) decides the same', async () => {
    const project = makeProject(['guard-shell']);
    const mock = await startMockServer(droidDriver.api(), TURNS);
    try {
      writeUserSettings(project, mock);
      project.cli('bridge', '--install', 'droid', '--events', 'PreToolUse', '--timeout', '30');
      const file = join(project.dir, '.factory', 'hooks.json');
      // The events at the top level: Factory Droid runs nothing under a "hooks" key.
      const hooks = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Groups>;
      expect(Object.keys(hooks)).toEqual(['PreToolUse']);
      expect(hooks['PreToolUse']![0]!.hooks[0]).toEqual({ type: 'command', command: 'NODE_OPTIONS= NODE_COMPILE_CACHE= "$FACTORY_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from droid', timeout: 30 });
      hooks['PreToolUse']!.push(
        { matcher: 'Execute', hooks: [{ type: 'command', command: OWN_GUARD, timeout: 30 }] },
        // Claude Code's name for the shell: not Factory Droid's, whose matchers name its tools as it does.
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null; touch "$FACTORY_PROJECT_DIR/ran-bash"', timeout: 30 }] },
      );
      writeFileSync(file, JSON.stringify(hooks, null, 2));

      const run = await droidDriver.run(project, mock, PROMPT, RUN_MS);
      const why = `exit ${run.exitCode}\n${run.stderr.slice(-3000)}`;
      const seen = mock.mainRequests().map((r) => JSON.stringify(r.body)).join('\n');
      // The bridge's HOOK.md guard refused rm -rf; the project's own hook refused its file; the rest ran.
      expect(existsSync(join(project.dir, 'build', 'keep.txt')), why).toBe(true);
      expect(seen, why).toContain('E2E-DENY');
      expect(existsSync(join(project.dir, 'own-denied.txt')), why).toBe(false);
      expect(seen, why).toContain('E2E-DROID-OWN');
      expect(existsSync(join(project.dir, 'allowed.txt')), why).toBe(true);
      expect(existsSync(join(project.dir, 'ran-own')), why).toBe(true);
      expect(existsSync(join(project.dir, 'ran-bash')), why).toBe(false);
      expect((project.evidenceOf('guard-shell') as { tool_name?: string }[])[0]?.tool_name).toBe('Execute');

      // The same project, the same file, in an agent built here whose shell tool has Factory Droid's name.
      for (const name of ['allowed.txt', 'ran-own']) rmSync(join(project.dir, name));
      const { told } = await runShellAgent({ dir: project.dir, tool: 'Execute', commands: SHELL, from: { hookmd: true, droid: true }, prompt: PROMPT });
      expect(existsSync(join(project.dir, 'build', 'keep.txt'))).toBe(true);
      expect(told).toContain('E2E-DENY');
      expect(existsSync(join(project.dir, 'own-denied.txt'))).toBe(false);
      expect(told).toContain('E2E-DROID-OWN');
      expect(existsSync(join(project.dir, 'allowed.txt'))).toBe(true);
      expect(existsSync(join(project.dir, 'ran-own'))).toBe(true);
      expect(existsSync(join(project.dir, 'ran-bash'))).toBe(false);
    } finally {
      await mock.close();
      project.remove();
    }
  }, RUN_MS + 60_000);
});
