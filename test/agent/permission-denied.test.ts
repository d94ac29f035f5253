import { describe, expect, it } from 'vitest';
import { AgentBuilder, HookOutcome, ScriptedModel, type ContextFor } from 'agent-hooks';
import { callStep, collectWarnings, echoTool, recordEvents, toolMessages } from './support.js';

const RETRY_NOTE = 'The refusal above is not final for this call: the PermissionDenied hook set up for this session allows one more try, which goes through the same permission check. If the user asked for what this call does, make it again now. If they did not, leave it, and in your next words to them say that you made this call without being asked and that it was refused before it ran; then go on with what they did ask for.';

/** An agent whose echo calls need approval (a PreToolUse ask), with `approver`. */
function asking(approver?: Parameters<AgentBuilder['withApprover']>[0]) {
  const echo = echoTool();
  const model = new ScriptedModel([callStep('echo', { text: 'hi' }, 'c1'), 'Done.']);
  const builder = AgentBuilder.new()
    .withModel(model)
    .withTools(echo.tool)
    .onBeforeToolUse(() => HookOutcome.ask('echo needs approval'));
  if (approver !== undefined) builder.withApprover(approver);
  return { builder, model, echo };
}

describe('PermissionDenied in the run loop', () => {
  it('fires when the approver refuses a call, with the call and the approver’s reason, after the approver and before the next model call', async () => {
    const { builder, echo } = asking(() => ({ approved: false, reason: 'not on Fridays' }));
    const rec = recordEvents(builder);
    const result = await builder.build().run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    const at = rec.events.indexOf('PermissionDenied');
    expect(rec.events.slice(at - 2, at + 2)).toEqual(['PermissionRequest', 'Notification', 'PermissionDenied', 'PostToolBatch']);
    const denied = rec.contexts[at] as ContextFor<'PermissionDenied'>;
    expect(denied.toolCall.id).toBe('c1');
    expect(denied.permissionReason).toBe('not on Fridays');
    expect(denied.retry).toBe(false);
    expect(toolMessages(result.messages)[0]!.content).toBe('Tool call refused: not on Fridays');
  });

  it('tells the model it may retry when a hook returns ctx.withRetry(), in Claude Code’s words', async () => {
    const { builder, model } = asking(() => false);
    builder.onPermissionDenied((ctx) => ctx.withRetry());
    await builder.build().run('Go');

    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toBe(`Tool call refused: the approver said no\n${RETRY_NOTE}`);
  });

  it('does not offer a retry when the approver’s refusal ended the run', async () => {
    const { builder } = asking(() => ({ approved: false, reason: 'never', stopRun: true }));
    builder.onPermissionDenied((ctx) => ctx.withRetry());
    const result = await builder.build().run('Go');
    expect(result.stopReason).toBe('tool_rejected');
    expect(toolMessages(result.messages)[0]!.content).toBe('Tool call refused: never');
  });

  it('does not fire for a hook’s refusal, nor for want of an approver (Claude Code fires it for its auto-mode classifier only)', async () => {
    for (const builder of [
      // A PreToolUse deny.
      AgentBuilder.new().withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.'])).withTools(echoTool().tool).onBeforeToolUse(() => HookOutcome.block('no')),
      // A PermissionRequest deny.
      asking(() => true).builder.onPermissionRequest(() => HookOutcome.block('no')),
      // Nobody to ask.
      asking().builder,
    ]) {
      const rec = recordEvents(builder);
      const result = await builder.build().run('Go');
      expect(toolMessages(result.messages)[0]!.content).toMatch(/^Tool call (blocked|refused)/);
      expect(rec.events).not.toContain('PermissionDenied');
    }
  });

  it('matches by tool name like the other tool events, and ignores a block with a warning', async () => {
    const { builder } = asking(() => false);
    const seen: string[] = [];
    builder.onPermissionDenied(() => void seen.push('other tool'), { matcher: 'bash' });
    builder.onPermissionDenied(() => HookOutcome.block('pointless'), { matcher: 'echo' });
    const agent = builder.build();
    const warnings = collectWarnings(agent);
    const result = await agent.run('Go');
    expect(seen).toEqual([]);
    expect(result.status).toBe('completed');
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'ignored-outcome', event: 'PermissionDenied' }));
  });
});
