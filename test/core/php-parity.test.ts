import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AgentStep,
  ExecutionHookContext,
  HookOutcome,
  StepHookContext,
  StopHookContext,
  ToolCall,
  ToolHookContext,
  type HookOutcomeArray,
} from 'agent-hooks';
import { catchError } from '../support/catch-error.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));

describe('HookOutcome.toArray: the PHP HookOutcome::toArray() shape', () => {
  it('has exactly the keys type, reason and hasContext, with PHP’s values', () => {
    expect(HookOutcome.proceed().toArray()).toEqual({ type: 'proceed', reason: null, hasContext: false });
    expect(HookOutcome.proceed(ctx).toArray()).toEqual({ type: 'proceed', reason: null, hasContext: true });
    expect(HookOutcome.block('Dangerous command blocked').toArray()).toEqual({ type: 'block', reason: 'Dangerous command blocked', hasContext: false });
    expect(HookOutcome.stop('Budget exceeded').toArray()).toEqual({ type: 'stop', reason: 'Budget exceeded', hasContext: false });
    expect(HookOutcome.ask('Run it?', { context: ctx }).toArray()).toEqual({ type: 'ask', reason: 'Run it?', hasContext: true });
  });

  it('writes a missing reason as null, so its JSON has the same keys as PHP’s', () => {
    expect(JSON.stringify(HookOutcome.proceed().toArray())).toBe('{"type":"proceed","reason":null,"hasContext":false}');
    expectTypeOf(HookOutcome.proceed().toArray()).toEqualTypeOf<HookOutcomeArray>();
    expectTypeOf<HookOutcomeArray['reason']>().toEqualTypeOf<string | null>();
  });
});

describe('ToolCall.fromArray', () => {
  it('is the inverse of toJSON', () => {
    const call = ToolCall.create('bash', { command: 'ls', cwd: '/tmp' }, 'call_9');
    const back = ToolCall.fromArray(call.toJSON());
    expect(back).toBeInstanceOf(ToolCall);
    expect(back.toJSON()).toEqual(call.toJSON());
    expect(ToolCall.fromArray(JSON.parse(JSON.stringify(call))).toJSON()).toEqual(call.toJSON());
  });

  it('reads PHP’s and OpenAI’s `arguments`, as an object or a JSON string, and makes an id when none is given', () => {
    expect(ToolCall.fromArray({ name: 'bash', arguments: { command: 'ls' } }).args).toEqual({ command: 'ls' });
    expect(ToolCall.fromArray({ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }).toJSON()).toEqual({ id: 'c1', name: 'bash', args: { command: 'ls' } });
    expect(ToolCall.fromArray({ name: 'bash', args: '{"command":"ls"}' }).args).toEqual({ command: 'ls' });
    expect(ToolCall.fromArray({ name: 'noop' }).args).toEqual({});
    expect(ToolCall.fromArray({ name: 'noop', arguments: '' }).args).toEqual({});
    expect(ToolCall.fromArray({ name: 'noop' }).id).toMatch(/^call_/);
  });

  it.each([
    [null, /needs an object \{ name, args, id\? \}, got null/],
    [[{ name: 'bash' }], /needs an object .*got an array/],
    ['bash', /needs an object .*got a string/],
    [{}, /'name' must be a non-empty string, got nothing/],
    [{ name: '' }, /'name' must be a non-empty string, got a string \(""\)/],
    [{ name: 42 }, /'name' must be a non-empty string, got a number \(42\)/],
    [{ name: 'bash', id: 7 }, /'id' must be a string when given, got a number/],
    [{ name: 'bash', args: [1] }, /'args' must be an object \(or a JSON string of one\), got an array/],
    [{ name: 'bash', args: 5 }, /'args' must be an object .*got a number/],
    [{ name: 'bash', arguments: '{oops' }, /'arguments' is a string but not valid JSON/],
    [{ name: 'bash', arguments: '[1]' }, /'arguments' must be an object .*got an array/],
    [{ name: 'bash', args: {}, arguments: {} }, /as 'args' or as 'arguments', not both/],
  ])('rejects %j with a TypeError naming the bad field', (input, message) => {
    const error = catchError(() => ToolCall.fromArray(input));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^ToolCall\.fromArray\(\)/);
    expect((error as Error).message).toMatch(message);
  });
});

describe('the PHP context helpers', () => {
  it('ExecutionHookContext.isEnd mirrors isStart', () => {
    const end = ExecutionHookContext.onEnd({ status: 'completed' });
    const start = ExecutionHookContext.onStart();
    expect([start.isStart(), start.isEnd()]).toEqual([true, false]);
    expect([end.isStart(), end.isEnd()]).toEqual([false, true]);
    const either: ExecutionHookContext = end;
    if (either.isEnd()) expectTypeOf(either.event).toEqualTypeOf<'ExecutionEnd'>();
  });

  it('StepHookContext.isAfterStep mirrors isBeforeStep, and narrows step to an AgentStep', () => {
    const after = StepHookContext.afterStep(new AgentStep({ index: 0 }));
    const before = StepHookContext.beforeStep(0);
    expect([before.isBeforeStep(), before.isAfterStep()]).toEqual([true, false]);
    expect([after.isBeforeStep(), after.isAfterStep()]).toEqual([false, true]);
    const either: StepHookContext = after;
    if (either.isAfterStep()) expectTypeOf(either.step).toEqualTypeOf<AgentStep>();
  });

  it('StopHookContext.isStop and isSubagentStop tell the agent’s gate from a subagent’s, and from the observers', () => {
    const stop = StopHookContext.stop({ stopReason: 'no_tool_calls' });
    const sub = StopHookContext.subagentStop({ stopReason: 'no_tool_calls', subagentName: 'coder' });
    const after = new StopHookContext('AfterStop', { stopReason: 'no_tool_calls' });
    expect([stop.isStop(), stop.isSubagentStop()]).toEqual([true, false]);
    expect([sub.isStop(), sub.isSubagentStop()]).toEqual([false, true]);
    expect([after.isStop(), after.isSubagentStop()]).toEqual([false, false]);
    const either: StopHookContext = sub;
    if (either.isSubagentStop()) expectTypeOf(either.event).toEqualTypeOf<'SubagentStop'>();
  });
});
