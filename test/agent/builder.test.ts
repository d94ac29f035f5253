import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Agent,
  AgentBuilder,
  HookEvent,
  HookOutcome,
  HookStack,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  defineSubagent,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type NextFn,
  type StopHookContext,
} from 'agent-hooks';
import { catchError } from '../support/catch-error.js';
import { callStep, callsStep, echoTool, failTool, oneCall } from './support.js';

/** Every `on…` method and the canonical event it registers for. */
const ON_METHODS = [
  ['onBeforeToolUse', 'PreToolUse'],
  ['onAfterToolUse', 'PostToolUse'],
  ['onToolFailure', 'PostToolUseFailure'],
  ['onPermissionRequest', 'PermissionRequest'],
  ['onPermissionDenied', 'PermissionDenied'],
  ['onPostToolBatch', 'PostToolBatch'],
  ['onStopFailure', 'StopFailure'],
  ['onBeforeStep', 'BeforeStep'],
  ['onBeforeModel', 'BeforeModel'],
  ['onBeforeToolSelection', 'BeforeToolSelection'],
  ['onAfterModel', 'AfterModel'],
  ['onAfterStep', 'AfterStep'],
  ['onExecutionStart', 'ExecutionStart'],
  ['onExecutionEnd', 'ExecutionEnd'],
  ['onSessionStart', 'SessionStart'],
  ['onSessionEnd', 'SessionEnd'],
  ['onUserPromptSubmit', 'UserPromptSubmit'],
  ['onStop', 'Stop'],
  ['onAfterStop', 'AfterStop'],
  ['onAfterAgent', 'AfterAgent'],
  ['onSubagentStart', 'SubagentStart'],
  ['onSubagentStop', 'SubagentStop'],
  ['onPreCompact', 'PreCompact'],
  ['onPostCompact', 'PostCompact'],
  ['onAgentFailed', 'AgentFailed'],
  ['onNotification', 'Notification'],
] as const satisfies readonly (readonly [keyof AgentBuilder, HookEventName])[];

it('has one on… method per canonical event', () => {
  expect(ON_METHODS.map(([, event]) => event).sort()).toEqual([...HookEvent.all].sort());
});

type OnMethod = (typeof ON_METHODS)[number][0];

/** Calls `builder[method](cb)` without the per-event callback types getting in the way. */
const register = (builder: AgentBuilder, method: OnMethod, cb: (ctx: AnyHookContext) => void): AgentBuilder =>
  (builder[method] as (cb: (ctx: AnyHookContext) => void) => AgentBuilder).call(builder, cb);

/** A PreToolUse hook that logs `name` and goes on. */
const logging = (log: string[], name: string) => () => {
  log.push(name);
};


describe('AgentBuilder', () => {
  it('is made by AgentBuilder.new() or new AgentBuilder(), and both build working agents', async () => {
    for (const builder of [AgentBuilder.new(), new AgentBuilder()]) {
      expect(builder).toBeInstanceOf(AgentBuilder);
      const agent = builder.withModel(new ScriptedModel(['Hi.'])).build();
      expect(agent).toBeInstanceOf(Agent);
      expect((await agent.run('Hello')).text).toBe('Hi.');
    }
  });

  it('registers each on… method for its event, and for no other', () => {
    for (const [method, event] of ON_METHODS) {
      const builder = register(AgentBuilder.new(), method, () => {});
      for (const other of HookEvent.all) {
        expect(builder.hooks.hooksFor(other), `${method} for ${other}`).toHaveLength(other === event ? 1 : 0);
      }
    }
  });

  it('runs each on… method’s callback for its event in a real run, and for no other', async () => {
    // One session reaching all twenty-six events: ask + approval and a refusal, a failing tool, a subagent, compaction, a
    // failed turn.
    const seen = new Map<OnMethod, string[]>(ON_METHODS.map(([m]) => [m, []]));
    const model = new ScriptedModel([
      callStep('echo', { text: 'hi' }),
      callStep('echo', { text: 'no' }),
      callStep('fail'),
      callStep('helper', { task: 'Sub task' }),
      'child answer',
      'Done.',
      // no 6th step: the second turn fails (AgentFailed)
    ]);
    const builder = AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool, failTool().tool)
      .withSubagents(defineSubagent({ name: 'helper' }))
      .withCompaction({ maxMessages: 4, keepLast: 2 })
      .withApprover(({ toolCall }) => toolCall.args.text !== 'no')
      .addHook('PreToolUse', (ctx) => (ctx.toolCall.name === 'echo' ? HookOutcome.ask('Check echo') : undefined));
    for (const [method] of ON_METHODS) {
      register(builder, method, (ctx) => {
        seen.get(method)!.push(ctx.event);
      });
    }
    const session = builder.build().session();
    expect((await session.run('First')).status).toBe('completed');
    expect((await session.run('Second', { rejectOnFailure: false })).status).toBe('failed');
    await session.close();

    for (const [method, event] of ON_METHODS) {
      const events = seen.get(method)!;
      expect(events.length, `${method} never ran`).toBeGreaterThan(0);
      expect(new Set(events), method).toEqual(new Set([event]));
    }
  });

  it('accepts any dialect’s event name in addHook and registers for the canonical event', async () => {
    for (const alias of ['pre-tool-call', 'before_tool', 'preToolUse', 'PreToolUse']) {
      const seen: string[] = [];
      const { builder } = oneCall();
      builder.addHook(alias, (ctx: AnyHookContext) => {
        seen.push(ctx.event);
      });
      expect(builder.hooks.hooksFor('PreToolUse'), alias).toHaveLength(1);
      await builder.build().run('Go');
      expect(seen, alias).toEqual(['PreToolUse']);
    }
  });

  it('runs a Hook given to addHook(event, hook) for that event only, though the hook handles every event', async () => {
    const seen: string[] = [];
    const everywhere: Hook = {
      name: 'everywhere',
      events: HookEvent.all,
      handle(ctx: AnyHookContext, next: NextFn) {
        seen.push(ctx.event);
        return next(ctx);
      },
    };
    const { builder } = oneCall();
    await builder.addHook('PreToolUse', everywhere).build().run('Go');

    expect(seen).toEqual(['PreToolUse']);
  });

  it('refuses addHook(event, hook) when the hook’s own events exclude that event', () => {
    const stopOnly: Hook = { name: 'stopOnly', events: ['Stop'], handle: (ctx, next) => next(ctx) };
    const error = catchError(() => AgentBuilder.new().addHook('PreToolUse', stopOnly));

    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('stopOnly');
    expect((error as Error).message).toContain('Stop');
  });

  it('adds a Hook with withHook(hook, { priority }), honouring its own events and the priority', async () => {
    const log: string[] = [];
    class Audit implements Hook {
      readonly events = ['PreToolUse'] as const;
      handle(ctx: AnyHookContext, next: NextFn) {
        log.push(`audit:${ctx.event}`);
        return next(ctx);
      }
    }
    const { builder } = oneCall();
    builder.onBeforeToolUse(logging(log, 'callback')).withHook(new Audit(), { priority: 50 });
    await builder.build().run('Go');

    expect(log).toEqual(['audit:PreToolUse', 'callback']);
  });

  it('adds a whole stack with withHookStack, keeping its priorities', async () => {
    const log: string[] = [];
    const hook = (name: string): Hook => ({
      name,
      events: ['PreToolUse'],
      handle: (ctx, next) => {
        log.push(name);
        return next(ctx);
      },
    });
    const stack = new HookStack().with(hook('low'), -10).with(hook('high'), 10);
    const { builder } = oneCall();
    builder.onBeforeToolUse(logging(log, 'zero')).withHookStack(stack);

    expect(builder.hooks.hooksFor('PreToolUse').map((e) => e.priority)).toEqual([10, 0, -10]);
    await builder.build().run('Go');
    expect(log).toEqual(['high', 'zero', 'low']);
  });

  it('runs hooks by priority (100, 0, -100), equal priorities in registration order', async () => {
    const log: string[] = [];
    const { builder } = oneCall();
    builder
      .onBeforeToolUse(logging(log, 'first at 0'))
      .onBeforeToolUse(logging(log, 'logging'), { priority: -100 })
      .onBeforeToolUse(logging(log, 'security'), { priority: 100 })
      .onBeforeToolUse(logging(log, 'second at 0'));
    await builder.build().run('Go');

    expect(log).toEqual(['security', 'first at 0', 'second at 0', 'logging']);
  });

  it.each([
    ['bash', ['bash']],
    ['read_*', ['read_file']],
    ['/^(read|write)_/', ['read_file', 'write_file']],
    ['a function', ['other']],
  ] as const)('runs a hook with matcher %s only for matching tools', async (matcher, expected) => {
    const names = ['bash', 'read_file', 'write_file', 'other'];
    const seen: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(...names.map((n) => [n, { text: n }] as [string, Record<string, unknown>])), 'Done.']))
      .withTools(...names.map((n) => echoTool(n).tool))
      .onBeforeToolUse(
        (ctx) => {
          seen.push(ctx.toolCall.name);
        },
        { matcher: matcher === 'a function' ? (ctx: AnyHookContext) => 'toolCall' in ctx && ctx.toolCall.name.startsWith('oth') : matcher },
      )
      .build();
    await agent.run('Go');

    expect(seen).toEqual(expected);
  });

  it('never drops a hook when tools and subagents are added after it', async () => {
    const log: string[] = [];
    const builder = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .onExecutionStart(logging(log, 'ExecutionStart'))
      .onBeforeToolUse(logging(log, 'PreToolUse'))
      .onStop(logging(log, 'Stop'));
    builder.withTools(echoTool().tool).withSubagents(defineSubagent({ name: 'helper' })).withTools(failTool().tool);

    expect(builder.hooks.count).toBe(3);
    await builder.build().run('Go');
    expect(log).toEqual(['ExecutionStart', 'PreToolUse', 'Stop']);
  });

  it('runs the parent’s hooks in a subagent, unless inheritHooks is false', async () => {
    for (const inheritHooks of [true, false]) {
      const seen: string[] = [];
      const echo = echoTool();
      const model = new ScriptedModel([
        callStep('helper', { task: 'Echo something' }),
        callStep('echo', { text: 'from child' }),
        'child done',
        'Done.',
      ]);
      const agent = AgentBuilder.new()
        .withModel(model)
        .withSubagents(defineSubagent({ name: 'helper', tools: [echo.tool], inheritHooks }))
        .onBeforeToolUse((ctx) => {
          seen.push(`${ctx.state.parentAgentId === undefined ? 'parent' : 'child'}:${ctx.toolCall.name}`);
        })
        .build();
      await agent.run('Delegate');

      expect(echo.execute).toHaveBeenCalledTimes(1);
      expect(seen, `inheritHooks: ${inheritHooks}`).toEqual(inheritHooks ? ['parent:helper', 'child:echo'] : ['parent:helper']);
    }
  });

  it('runs the parent’s SubagentStart and SubagentStop hooks for a subagent with inheritHooks: false', async () => {
    // Both events are the parent's view of its subagent: opting out of the parent's hooks inside the child must not
    // silence the parent's own subagent gate.
    const seen: string[] = [];
    const model = new ScriptedModel([callStep('helper', { task: 'Sub task' }), 'child answer', 'Done.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withSubagents(defineSubagent({ name: 'helper', inheritHooks: false }))
      .onSubagentStart((ctx) => {
        seen.push(`${ctx.event}:${ctx.name}`);
      })
      .onSubagentStop((ctx) => {
        seen.push(`${ctx.event}:${ctx.subagentName}`);
      })
      .build();
    await agent.run('Delegate');

    expect(seen).toEqual(['SubagentStart:helper', 'SubagentStop:helper']);
  });

  it('types each on… callback’s context by its event, with no annotation', () => {
    const builder = AgentBuilder.new();
    builder.onBeforeToolUse((ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<ToolHookContext<'PreToolUse'>>();
    });
    builder.onStop((ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<StopHookContext<'Stop'>>();
    });
    builder.addHook('PostToolUse', (ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<ToolHookContext<'PostToolUse'>>();
    });
    type BeforeToolCallback = Parameters<AgentBuilder['onBeforeToolUse']>[0];
    expectTypeOf<Parameters<BeforeToolCallback>[0]>().toEqualTypeOf<ToolHookContext<'PreToolUse'>>();
    type StopCallback = Parameters<AgentBuilder['onStop']>[0];
    expectTypeOf<Parameters<StopCallback>[0]>().toEqualTypeOf<StopHookContext<'Stop'>>();
  });

  it('refuses to build without a model, naming withModel', () => {
    const error = catchError(() => AgentBuilder.new().build());

    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('withModel');
  });

  it('shares no state between concurrent runs of one agent', async () => {
    const prompts = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const model = new ScriptedModel(async (request) => {
      const prompt = request.messages[0]!.content;
      // Later prompts answer sooner, so the runs interleave.
      await new Promise((resolve) => setTimeout(resolve, (prompts.length - prompts.indexOf(prompt)) * 3));
      return `answer to ${prompt}`;
    });
    const seenAtEnd = new Map<string, unknown>();
    const seenAtStart = new Map<string, unknown>();
    const agent = AgentBuilder.new()
      .withModel(model)
      .onExecutionStart((ctx) => {
        seenAtStart.set(ctx.prompt!, ctx.get('owner'));
        return ctx.withMetadata('owner', ctx.prompt);
      })
      .onExecutionEnd((ctx) => {
        seenAtEnd.set(ctx.prompt!, ctx.get('owner'));
      })
      .build();
    const results = await Promise.all(prompts.map((p) => agent.run(p)));

    results.forEach((result, i) => {
      const prompt = prompts[i]!;
      expect(result.messages.map((m) => m.content)).toEqual([prompt, `answer to ${prompt}`]);
      expect(result.metadata['owner']).toBe(prompt);
      expect(seenAtStart.get(prompt)).toBeUndefined();
      expect(seenAtEnd.get(prompt)).toBe(prompt);
    });
  });
});

describe('AgentBuilder.resolveHooks', () => {
  it('loads hook sources into one stack with the callbacks, in run order, under the onHookError policy, with no model', async () => {
    const failing = () => {
      throw new Error('broken hook');
    };
    const builder = AgentBuilder.new()
      .onBeforeToolUse(failing, { priority: 10, name: 'failing' })
      .withHookLoader({
        label: 'test source',
        load: async () => ({
          hooks: [{ hook: (ctx: AnyHookContext, next: NextFn) => next(ctx), priority: 50 }],
          problems: [{ code: 'unknown-key', message: 'unknown key', file: 'x/HOOK.md', hookName: 'x' } as never],
        }),
      })
      .onHookError('block');

    const { stack, problems } = await builder.resolveHooks();

    expect(stack.all().map((e) => e.priority)).toEqual([50, 10]);
    expect(problems).toHaveLength(1);
    const outcome = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('bash')));
    expect(outcome.type).toBe('block');
    expect(outcome.reason).toContain('broken hook');
    // The in-process view leaves the source out.
    expect(builder.hooks.count).toBe(1);
  });
});
