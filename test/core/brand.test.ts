/**
 * Recognition by brand: what `instanceof` and the `is…` guards mean within one copy of the package, and what a stack
 * does with the objects of a second copy, loaded here from the sources into a module graph of its own (the built ESM
 * and CommonJS copies are exercised in test/packaging/dual-package.test.ts).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AgentState,
  BeforeToolHook,
  EventHook,
  HookContextBase,
  HookError,
  HookOutcome,
  HookStack,
  StopHook,
  StopHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
  type HookOutcome as Outcome,
  type HookRunInfo,
} from 'agent-hooks';

type Package = typeof import('agent-hooks');

/** A second copy of the package, as a plugin depending on its own version would bring. */
let other: Package;

beforeAll(async () => {
  vi.resetModules();
  other = await import('agent-hooks');
  expect(other.HookOutcome).not.toBe(HookOutcome);
});

const pre = (state?: AgentState) => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }, 'call_1'), { state });

describe('instanceof and the is… guards, within one copy', () => {
  it('tell sibling classes apart and accept subclasses, as instanceof always did', () => {
    const tool = pre();
    const stop = StopHookContext.stop({ stopReason: 'no_tool_calls', finalMessage: 'done' });
    expect([tool instanceof ToolHookContext, tool instanceof HookContextBase, tool instanceof StopHookContext]).toEqual([true, true, false]);
    expect([stop instanceof StopHookContext, stop instanceof ToolHookContext]).toEqual([true, false]);
    expect([HookContextBase.isContext(stop), ToolHookContext.isContext(stop), StopHookContext.isContext(stop)]).toEqual([true, false, true]);
    expect(HookContextBase.isContext({ event: 'Stop' })).toBe(false);

    const hook = new StopHook(() => undefined);
    expect([hook instanceof EventHook, hook instanceof StopHook, hook instanceof BeforeToolHook]).toEqual([true, true, false]);
    expect([EventHook.isEventHook(hook), (BeforeToolHook as unknown as typeof EventHook).isEventHook(hook)]).toEqual([true, false]);
    expect([tool instanceof HookOutcome, HookOutcome.proceed() instanceof HookOutcome, (null as unknown) instanceof HookOutcome]).toEqual([false, true, false]);
    expect([ToolCall.isToolCall(tool.toolCall), ToolCall.isToolCall({ name: 'bash', args: {}, id: 'x' })]).toEqual([true, false]);
  });

  it('keep the prototype chain’s meaning for a subclass of yours', () => {
    class AuditedStack extends HookStack {}
    class PolicyError extends HookError {}
    const stack = new HookStack();
    const audited = new AuditedStack();
    expect([audited instanceof HookStack, audited instanceof AuditedStack, stack instanceof AuditedStack]).toEqual([true, true, false]);
    const error = new PolicyError('failed', { hookName: 'policy', event: 'PreToolUse' });
    expect([error instanceof HookError, error instanceof PolicyError, new HookError('failed', { hookName: 'x', event: 'Stop' }) instanceof PolicyError]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('leave no trace on the objects themselves: a brand lives on the prototype', () => {
    const outcome = HookOutcome.block('no');
    const state = AgentState.create();
    const ctx = pre(state).withMetadata('k', 1);
    expect([Object.getOwnPropertySymbols(outcome), Object.getOwnPropertySymbols(ctx), Object.getOwnPropertySymbols(ctx.toolCall)]).toEqual([[], [], []]);
    expect(ctx).toEqual(pre(state).withMetadata('k', 1));
    expect({ ...ctx.toolCall }).toEqual({ id: 'call_1', name: 'bash', args: { command: 'ls' } });
  });
});

describe('the objects of another copy', () => {
  it('are recognised by every guard and by instanceof', () => {
    const ctx = other.ToolHookContext.beforeToolUse(other.ToolCall.create('bash', {}));
    expect([HookOutcome.isOutcome(other.HookOutcome.block('x')), other.HookOutcome.block('x') instanceof HookOutcome]).toEqual([true, true]);
    expect([ctx instanceof ToolHookContext, ctx instanceof StopHookContext, ToolHookContext.isContext(ctx)]).toEqual([true, false, true]);
    expect([ctx.toolCall instanceof ToolCall, ctx.state instanceof AgentState, AgentState.isAgentState(ctx.state)]).toEqual([true, true, true]);
    expect(ToolExecution.isToolExecution(other.ToolExecution.success(ctx.toolCall, 1))).toBe(true);
    expect([new other.HookStack() instanceof HookStack, HookStack.isHookStack(new other.HookStack())]).toEqual([true, true]);
    expect([new other.StopHook(() => undefined) instanceof StopHook, new other.StopHook(() => undefined) instanceof BeforeToolHook]).toEqual([true, false]);
  });

  it('decide in a stack, which answers with an outcome of its own copy carrying every field', async () => {
    const fields = (o: Outcome) => [Object.getPrototypeOf(o) === HookOutcome.prototype, o.type, o.granted, o.reason, o.additionalContext, o.systemMessages, o.context?.event];
    const merged = await new HookStack()
      .with(new BeforeToolHook(() => other.HookOutcome.allow(undefined, { reason: 'trusted', additionalContext: 'one', systemMessage: 'hello' })), 2)
      .with(new BeforeToolHook(() => other.HookOutcome.proceed(undefined, { additionalContext: 'two' })), 1)
      .process(pre());
    expect(fields(merged)).toEqual([true, 'proceed', true, 'trusted', ['one', 'two'], ['hello'], 'PreToolUse']);
    const direct = await new HookStack().with(() => other.HookOutcome.allow(undefined, { reason: 'trusted', systemMessage: 'hello' })).process(pre());
    expect(fields(direct)).toEqual([true, 'proceed', true, 'trusted', [], ['hello'], 'PreToolUse']);
  });

  it('merge by the stack’s rules when a hook class of the other copy merges its own decision with the chain', async () => {
    const approval = new other.RequireApprovalHook({ matcher: 'bash', reason: 'needs review' });
    const asked = await new HookStack().with(approval, 10).process(pre());
    expect([asked.type, asked.reason]).toEqual(['ask', 'needs review']);
    const blocked = await new HookStack()
      .with(approval, 10)
      .with(() => HookOutcome.block('refused later'), 0)
      .process(pre());
    expect(String(blocked)).toBe('block: refused later');
    expect(Object.getPrototypeOf(blocked)).toBe(HookOutcome.prototype);
  });

  it('reach an observer as outcomes of the stack’s copy', async () => {
    const ended: (HookRunInfo & { readonly outcome: Outcome })[] = [];
    await new HookStack().with(() => other.HookOutcome.block('no'), 0).process(pre(), undefined, { observer: { onHookEnd: (info) => ended.push(info) } });
    expect(ended.map((e) => [String(e.outcome), Object.getPrototypeOf(e.outcome) === HookOutcome.prototype])).toEqual([['block: no', true]]);
  });

  it('pass a HookError through unchanged, as one of this copy', async () => {
    const thrown = new other.HookError('failed', { hookName: 'inner', event: 'PreToolUse' }, 'nested stack');
    const error = await new HookStack()
      .with(() => {
        throw thrown;
      })
      .process(pre())
      .catch((e: unknown) => e);
    expect(error).toBe(thrown);
  });

  it('concatenate: another copy’s stack keeps its hooks’ order and priorities', async () => {
    const seen: string[] = [];
    const mark = (name: string) => (ctx: AnyHookContext) => void seen.push(name);
    const theirs = new other.HookStack()
      .with(new other.BeforeToolHook(mark('theirs, 5, first'), { name: 'a' }), 5)
      .with(new other.BeforeToolHook(mark('theirs, 5, second'), { name: 'b' }), 5)
      .with(new other.BeforeToolHook(mark('theirs, 9'), { name: 'c' }), 9);
    const stack = new HookStack().with(new BeforeToolHook(mark('ours, 5'), { name: 'd' }), 5).concat(theirs);
    expect(stack.all().map((e) => [e.name, e.priority])).toEqual([['c', 9], ['d', 5], ['a', 5], ['b', 5]]);
    await stack.process(pre());
    expect(seen).toEqual(['theirs, 9', 'ours, 5', 'theirs, 5, first', 'theirs, 5, second']);
  });

  it('are refused when they only look like one: no brand, or a decision this version does not know', async () => {
    const fake = { type: 'block', reason: 'x', context: undefined, additionalContext: [], systemMessages: [], granted: false };
    // A later version's decision, branded as an outcome: refused rather than misread.
    const newer = { [Symbol.for('agent-hooks.HookOutcome')]: 1, type: 'defer', reason: 'later', additionalContext: [], systemMessages: [] };
    for (const answer of [fake, newer]) {
      const error = await new HookStack()
        .with(function fakeOutcome() {
          return answer as unknown as HookOutcome;
        })
        .process(pre())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HookError);
      expect((error as HookError).message).toMatch(/^Hook 'fakeOutcome' .*instead of a HookOutcome/);
    }
  });
});
