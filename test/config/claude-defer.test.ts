import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, ToolCall, ToolHookContext, bridgeAnswer, defineTool } from 'agent-hooks';
import { sandbox } from './support.js';

// `permissionDecision: "defer"` from a Claude Code PreToolUse hook: a headless Claude Code 2.1.332 runs no tool and ends
// the session (test/agents/claude-rules.test.ts). Here it is a deferred ask: the run pauses at the call with approval
// interrupts (to be resumed with a decision), and ends with the tool not run without them. Real settings, real processes.

const setup = sandbox();

const DEFER = `cat >/dev/null; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"needs the owner"}}'`;

async function agentOn(interrupts: boolean, ran: string[], approver?: () => boolean) {
  const { project, write } = await setup();
  await write(project, '.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: DEFER, timeout: 20 }] }] } });
  const bash = defineTool({ name: 'Bash', description: 'Runs a command.', input: z.object({ command: z.string() }), execute: (input) => (ran.push(input.command), 'ran') });
  let builder = AgentBuilder.new()
    .withModel(new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'touch deferred.txt' } }] }, 'done']))
    .withTools(bash)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false });
  if (interrupts) builder = builder.withApprovalInterrupts();
  if (approver !== undefined) builder = builder.withApprover(approver);
  return builder.build();
}

describe('permissionDecision "defer"', () => {
  it('without approval interrupts: the run ends at the call, the tool not run, and no approver is asked', async () => {
    const ran: string[] = [];
    let asked = 0;
    const agent = await agentOn(false, ran, () => (asked++, true));
    const result = await agent.run('go');
    expect(ran).toEqual([]);
    expect(asked).toBe(0);
    expect(result.status).toBe('stopped');
    expect(result.reason).toMatch(/deferred the call to Bash \(needs the owner\).*the tool not run/);
  });

  it('with approval interrupts: the run pauses at the call, and resumes with the decision made later', async () => {
    const ran: string[] = [];
    const agent = await agentOn(true, ran);
    const first = await agent.run('go');
    expect(first.status).toBe('interrupted');
    expect(ran).toEqual([]);
    const { snapshot, pending } = first.interruption!;
    expect(pending.map((p) => [p.toolCall.name, p.reason])).toEqual([['Bash', 'needs the owner']]);
    const done = await agent.resume(snapshot, { [pending[0]!.id]: { approved: true } });
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['touch deferred.txt']);
  });

  it('the bridge answers a deferred ask with Claude Code\'s defer', () => {
    const ctx = ToolHookContext.beforeToolUse(ToolCall.create('Bash', { command: 'deploy' }, 't1'));
    const answer = JSON.parse(bridgeAnswer('claude', HookOutcome.ask('needs the owner', { defer: true }), ctx, 'PreToolUse').stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(answer.hookSpecificOutput).toMatchObject({ permissionDecision: 'defer', permissionDecisionReason: 'needs the owner' });
    const ask = JSON.parse(bridgeAnswer('claude', HookOutcome.ask('sure?'), ctx, 'PreToolUse').stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(ask.hookSpecificOutput.permissionDecision).toBe('ask');
  });

  it('a defer wins over an ask when hooks merge, as in Claude Code', () => {
    const merged = HookOutcome.merge(HookOutcome.ask('later', { defer: true }), HookOutcome.ask('now?'));
    expect(merged.type).toBe('ask');
    expect(merged.deferred).toBe(true);
    expect(HookOutcome.merge(HookOutcome.ask('later', { defer: true }), HookOutcome.proceed()).deferred).toBe(true);
  });
});
