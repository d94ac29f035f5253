import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AgentBuilder,
  AgentStep,
  CompactHookContext,
  HookOutcome,
  HookStack,
  StepHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  ToolNameMatcher,
  type AnyHookContext,
  type ContextFor,
  type Hook,
  type Message,
  type NextFn,
} from 'agent-hooks';
import { catchError } from '../support/catch-error.js';

const call = (name: string) => ToolCall.create(name, { command: 'ls' });
const pre = (name: string) => ToolHookContext.beforeToolUse(call(name));

describe('Hook.matcher takes anything the builder’s matcher option takes', () => {
  class BashOnly implements Hook {
    readonly matcher = 'Bash';
    handle(_ctx: AnyHookContext, _next: NextFn): HookOutcome {
      return HookOutcome.block('Bash is off');
    }
  }

  it('a class writing `matcher = \'Bash\'` typechecks, and the stack compiles it as a tool-name pattern', async () => {
    const stack = new HookStack().with(new BashOnly());
    expect((await stack.process(pre('Bash'))).type).toBe('block');
    expect((await stack.process(pre('Read'))).type).toBe('proceed');
    expect(stack.all()[0]!.matcher).toBeInstanceOf(ToolNameMatcher);
    expect(stack.hooksFor('PreToolUse', 'Read')).toHaveLength(0);
  });

  it.each([
    ['a RegExp', /^Ba/],
    ['a predicate', (ctx: AnyHookContext) => ctx.event === 'PreToolUse' && ctx.toolCall.name === 'Bash'],
    ['a HookMatcher', new ToolNameMatcher('Bash')],
    ['a list', ['Bash', 'Shell']],
  ])('and %s', async (_kind, matcher) => {
    const hook: Hook = { matcher, handle: () => HookOutcome.block('no') };
    const stack = new HookStack().with(hook);
    expect((await stack.process(pre('Bash'))).type).toBe('block');
    expect((await stack.process(pre('Read'))).type).toBe('proceed');
  });

  it('rejects a matcher of the wrong kind at registration, naming the hook', () => {
    // @ts-expect-error a number is no matcher
    const hook: Hook = { name: 'numbered', matcher: 42, handle: (ctx, next) => next(ctx) };
    const error = catchError(() => new HookStack().with(hook));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/The matcher of hook 'numbered' is unusable: Cannot make a matcher from number/);
  });
});

describe('contexts narrow by event', () => {
  it('on PostToolUse, ctx.execution is a ToolExecution', () => {
    const check = (ctx: AnyHookContext): unknown => {
      if (ctx.event === 'PostToolUse') {
        expectTypeOf(ctx.execution).toEqualTypeOf<ToolExecution>();
        return ctx.execution.result;
      }
      if (ctx.event === 'PostToolUseFailure') {
        expectTypeOf(ctx.execution).toEqualTypeOf<ToolExecution>();
        expectTypeOf(ctx.errorMessage).toEqualTypeOf<string>();
        return ctx.execution.error;
      }
      if (ctx.event === 'PreToolUse') {
        expectTypeOf(ctx.execution).toEqualTypeOf<ToolExecution | undefined>();
        expectTypeOf(ctx.errorMessage).toEqualTypeOf<string | undefined>();
      }
      if (ctx.event === 'AfterStep') {
        expectTypeOf(ctx.step).toEqualTypeOf<AgentStep>();
        return ctx.step.executions;
      }
      if (ctx.event === 'BeforeStep') expectTypeOf(ctx.step).toEqualTypeOf<AgentStep | undefined>();
      if (ctx.event === 'PostCompact') expectTypeOf(ctx.messagesAfter).toEqualTypeOf<readonly Message[]>();
      return undefined;
    };
    expect(check(ToolHookContext.afterToolUse(ToolExecution.success(call('Bash'), 'done')))).toBe('done');
    expect(check(ToolHookContext.toolFailure(call('Bash'), new Error('exit 1')))).toBeInstanceOf(Error);
  });

  it('narrows a family-typed context too, and leaves it unnarrowed until the event is known', () => {
    const familyTyped = (c: ToolHookContext): ToolHookContext => c;
    const ctx = familyTyped(ToolHookContext.afterToolUse(ToolExecution.success(call('Bash'), 'done')));
    // @ts-expect-error the execution may be missing until the event is known
    expect(ctx.execution.result).toBe('done');
    if (ctx.event === 'PostToolUse') expect(ctx.execution.result).toBe('done');
    expectTypeOf<ToolHookContext<'PostToolUse'>['execution']>().toEqualTypeOf<ToolExecution>();
    expectTypeOf<ContextFor<'PostToolUse'>>().toEqualTypeOf<ToolHookContext<'PostToolUse'>>();
  });

  it('gives a builder onAfterToolUse callback a ctx whose execution is a ToolExecution', async () => {
    const results: unknown[] = [];
    const builder = AgentBuilder.new()
      .onAfterToolUse((ctx) => {
        expectTypeOf(ctx.execution).toEqualTypeOf<ToolExecution>();
        results.push(ctx.execution.result);
      })
      .onAfterStep((ctx) => {
        expectTypeOf(ctx.step).toEqualTypeOf<AgentStep>();
      });
    const { stack } = await builder.resolveHooks();
    await stack.process(ToolHookContext.afterToolUse(ToolExecution.success(call('Bash'), 42)));
    expect(results).toEqual([42]);
  });

  it('keeps code that names a context by its family alone compiling', async () => {
    const ctx = pre('Bash') as AnyHookContext;
    const rewritten = (ctx as ToolHookContext).withArgs({ command: 'pwd' });
    const outcome = HookOutcome.proceed(rewritten);
    const any: AnyHookContext = ctx as ToolHookContext;
    const step: AnyHookContext = StepHookContext.beforeStep(0) as StepHookContext;
    expect(any.event).toBe('PreToolUse');
    expect(step.event).toBe('BeforeStep');
    expect((await new HookStack().process(rewritten)).type).toBe('proceed');
    expect(outcome.context).toBe(rewritten);
  });

  it('keeps the promise at run time: the constructor refuses a context without the field its event always has', () => {
    const noExecution = catchError(() => new ToolHookContext('PostToolUse', { toolCall: call('Bash') }));
    expect(noExecution).toBeInstanceOf(TypeError);
    expect((noExecution as Error).message).toMatch(/PostToolUse context needs the execution/);
    expect(catchError(() => new StepHookContext('AfterStep', { stepIndex: 0 }))).toBeInstanceOf(TypeError);
    expect(catchError(() => new CompactHookContext('PostCompact', { messagesBefore: [] }))).toBeInstanceOf(TypeError);
    // A failure is fully described by its error: the execution is made from it.
    const failed = new ToolHookContext('PostToolUseFailure', { toolCall: call('Bash'), error: new Error('exit 1') });
    expect(failed.execution.isError).toBe(true);
    expect(failed.errorMessage).toBe('exit 1');
  });

  it('keeps the classes’ names and instanceof', () => {
    expect(ToolHookContext.name).toBe('ToolHookContext');
    expect(StepHookContext.name).toBe('StepHookContext');
    expect(CompactHookContext.name).toBe('CompactHookContext');
    expect(pre('Bash')).toBeInstanceOf(ToolHookContext);
    expect(pre('Bash').constructor.name).toBe('ToolHookContext');
  });
});

describe('AgentStep.toolResults', () => {
  it('is the step’s executions, under the name the AI SDK uses', () => {
    const execution = ToolExecution.success(call('Bash'), 'ok');
    const step = new AgentStep({ index: 0, toolCalls: [execution.toolCall], executions: [execution] });
    expect(step.toolResults).toBe(step.executions);
    expect(step.toolResults[0]!.result).toBe('ok');
    expectTypeOf(step.toolResults).toEqualTypeOf<readonly ToolExecution[]>();
  });
});
