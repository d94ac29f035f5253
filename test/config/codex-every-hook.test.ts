import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from 'agent-hooks';
import { sandbox } from './support.js';

// Codex CLI 0.171 runs every hook of a call, even when one of them denies (test/agents/codex-rules shows the binary).

const setup = sandbox();

describe('Codex hooks.json: every hook of the call runs', () => {
  it('an audit hook after a guard sees the calls the guard denied, and the denied call does not run', async () => {
    const { project, write } = await setup();
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    await write(project, '.codex/hooks.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `if grep -q denied; then echo '${deny}'; fi` }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; echo seen >> audit.log' }] },
        ],
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'touch denied.txt' } }] }, { toolCalls: [{ name: 'Bash', args: { command: 'touch allowed.txt' } }] }, 'done']);
    const bash = defineTool({
      name: 'Bash',
      description: 'Runs a shell command.',
      input: z.object({ command: z.string() }),
      execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project, encoding: 'utf8' }),
    });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(bash)
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, codex: true, hookmd: false })
      .build();
    await agent.run('go');
    expect(existsSync(join(project, 'denied.txt'))).toBe(false);
    expect(existsSync(join(project, 'allowed.txt'))).toBe(true);
    expect(readFileSync(join(project, 'audit.log'), 'utf8').trim().split('\n')).toEqual(['seen', 'seen']);
  });
});
