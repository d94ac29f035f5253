import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
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
    await runShellAgent({ dir: project, tool: 'Bash', commands: ['touch denied.txt', 'touch allowed.txt'], from: { codex: true, hookmd: false } });
    expect(existsSync(join(project, 'denied.txt'))).toBe(false);
    expect(existsSync(join(project, 'allowed.txt'))).toBe(true);
    expect(readFileSync(join(project, 'audit.log'), 'utf8').trim().split('\n')).toEqual(['seen', 'seen']);
  });
});
