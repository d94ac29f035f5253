/**
 * An event of a subagent's run, as Claude Code 2.1.332 sends it through the bridge (recorded from the binary:
 * test/agents/fixtures/claude/2.1.332/PreToolUse-subagent.json): its `agent_id` and `agent_type` name the subagent
 * in `ctx.subagent`, as an agent built here names its own; the parent's calls and SubagentStart (sent from the parent's
 * run) name none.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookStack, runBridge, type AnyHookContext } from 'agent-hooks';

const FIXTURES = join(import.meta.dirname, '..', 'agents', 'fixtures', 'claude', '2.1.332');
const recorded = (name: string): Record<string, unknown> => ({ ...(JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>), cwd: tmpdir(), transcript_path: join(tmpdir(), 'none.jsonl') });

async function subagentOf(payload: Record<string, unknown>): Promise<AnyHookContext['subagent'] | 'not run'> {
  let seen: AnyHookContext['subagent'] | 'not run' = 'not run';
  const stack = new HookStack().with((ctx, next) => {
    seen = ctx.subagent;
    return next(ctx);
  });
  await runBridge({ agent: 'claude', input: JSON.stringify(payload), stack });
  return seen;
}

describe('a subagent named through the bridge from Claude Code', () => {
  it('a subagent’s PreToolUse and SubagentStop name it', async () => {
    expect(await subagentOf(recorded('PreToolUse-subagent'))).toEqual({ name: '<ID>', type: 'general-purpose' });
    expect(await subagentOf(recorded('SubagentStop'))).toEqual({ name: '<ID>', type: 'general-purpose' });
  });

  it('the parent’s own call and SubagentStart name none', async () => {
    expect(await subagentOf(recorded('PreToolUse'))).toBeUndefined();
    expect(await subagentOf(recorded('SubagentStart'))).toBeUndefined();
  });
});
