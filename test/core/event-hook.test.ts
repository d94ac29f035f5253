import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from 'agent-hooks';
import {
  AgentState,
  AfterStepHook,
  BeforeStepHook,
  BeforeToolHook,
  EventHook,
  ExecutionHookContext,
  HookEvent,
  HookOutcome,
  HookStack,
  PromptHookContext,
  StepHookContext,
  StopHook,
  StopHookContext,
  ToolCall,
  ToolHookContext,
  UserPromptSubmitHook,
  type AnyHookContext,
  type EventHookClass,
  type HookEventName,
} from 'agent-hooks';

const pre = () => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));

const CLASSES: Record<HookEventName, string> = {
  PreToolUse: 'BeforeToolHook',
  PermissionRequest: 'PermissionRequestHook',
  PermissionDenied: 'PermissionDeniedHook',
  PostToolUse: 'AfterToolHook',
  PostToolUseFailure: 'ToolFailureHook',
  PostToolBatch: 'PostToolBatchHook',
  BeforeStep: 'BeforeStepHook',
  AfterStep: 'AfterStepHook',
  BeforeModel: 'BeforeModelHook',
  BeforeToolSelection: 'BeforeToolSelectionHook',
  AfterModel: 'AfterModelHook',
  ExecutionStart: 'ExecutionStartHook',
  ExecutionEnd: 'ExecutionEndHook',
  SessionStart: 'SessionStartHook',
  SessionEnd: 'SessionEndHook',
  UserPromptSubmit: 'UserPromptSubmitHook',
  Stop: 'StopHook',
  StopFailure: 'StopFailureHook',
  AfterStop: 'AfterStopHook',
  AfterAgent: 'AfterAgentHook',
  SubagentStart: 'SubagentStartHook',
  SubagentStop: 'SubagentStopHook',
  PreCompact: 'PreCompactHook',
  PostCompact: 'PostCompactHook',
  AgentFailed: 'AgentFailedHook',
  Notification: 'NotificationHook',
};

describe('event-typed hooks', () => {
  it('there is one named hook class per canonical event', () => {
    for (const event of HookEvent.all) {
      const cls = (api as unknown as Record<string, EventHookClass<HookEventName>>)[CLASSES[event]];
      expect(cls, CLASSES[event]).toBeDefined();
      expect(cls!.name).toBe(CLASSES[event]);
      expect(cls!.event).toBe(event);
      const hook = new cls!(() => {});
      expect(hook).toBeInstanceOf(EventHook);
      expect(hook.events).toEqual([event]);
    }
  });

  it('lets contexts of other events pass through untouched, without calling the callback', async () => {
    let called = 0;
    const hook = new BeforeToolHook(() => {
      called++;
      return HookOutcome.block('should not happen');
    });
    const ctx = StopHookContext.stop({ stopReason: 'no_tool_calls' });
    let passed: AnyHookContext | undefined;
    const outcome = await hook.handle(ctx, (c) => {
      passed = c;
      return HookOutcome.proceed(c);
    });
    expect(called).toBe(0);
    expect(passed).toBe(ctx);
    expect(outcome.isProceed()).toBe(true);
  });

  it('types the callback’s context from the class, with no annotation', () => {
    new BeforeToolHook((ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<ToolHookContext<'PreToolUse'>>();
      expectTypeOf(ctx.toolCall).toEqualTypeOf<ToolCall>();
    });
    new StopHook((ctx) => {
      expectTypeOf(ctx.stopHookActive).toEqualTypeOf<boolean>();
    });
    new EventHook(['BeforeStep', 'AfterStep'], (ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<StepHookContext<'BeforeStep'> | StepHookContext<'AfterStep'>>();
    });
  });

  it('a UserPromptSubmit callback may return a rewritten prompt', async () => {
    const stack = new HookStack().with(new UserPromptSubmitHook((ctx) => ctx.prompt.replace('secret', '[redacted]')));
    const outcome = await stack.process(PromptHookContext.onSubmit('my secret plan'));
    expect((outcome.context as PromptHookContext).prompt).toBe('my [redacted] plan');
  });

  it('a step callback may return a modified AgentState', async () => {
    const stack = new HookStack()
      .with(new BeforeStepHook((ctx) => ctx.state.withMetadata('step_started', ctx.stepNumber)))
      .with(new AfterStepHook(() => HookOutcome.block('never runs on BeforeStep')));
    const outcome = await stack.process(StepHookContext.beforeStep(2, { state: AgentState.create({ agentId: 'a1' }) }));
    expect(outcome.isProceed()).toBe(true);
    expect(outcome.context?.state.metadata.step_started).toBe(3);
    expect(outcome.context?.state.agentId).toBe('a1');
  });

  it('a callback may return a modified context of its own event, but not of another', async () => {
    const ok = new HookStack().with(new BeforeToolHook((ctx) => ctx.withMetadata('seen', true)));
    expect((await ok.process(pre())).context?.get('seen')).toBe(true);
    const wrong = new HookStack().with(new BeforeToolHook(() => ExecutionHookContext.onStart() as never, { name: 'mixup' }));
    await expect(wrong.process(pre())).rejects.toThrow(/Hook 'mixup'.*returned a ExecutionStart context from a PreToolUse hook/);
  });

  it('a string returned by a tool hook is an error, not a silent block or rewrite', async () => {
    const stack = new HookStack().with(new BeforeToolHook(() => 'deny' as never));
    await expect(stack.process(pre())).rejects.toThrow(/returned a string \(deny\), which means nothing on PreToolUse/);
  });

  it('accepts aliases for its events and rejects unknown ones', () => {
    expect(new EventHook('before_tool' as HookEventName, () => {}).events).toEqual(['PreToolUse']);
    expect(() => new EventHook('before_tools' as HookEventName, () => {})).toThrow(/Did you mean 'before_tool'/);
  });

  it('names itself after the callback, or the option, or the event', () => {
    function guardShell() {}
    expect(new BeforeToolHook(guardShell).name).toBe('guardShell');
    expect(new BeforeToolHook(() => {}, { name: 'custom' }).name).toBe('custom');
    expect(new EventHook('Stop', (() => () => {})()).name).toBe('Stop callback');
  });
});
