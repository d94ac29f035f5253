import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, context, trace, type Context, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  DangerousCommandHook,
  HookOutcome,
  HookStack,
  RequireApprovalHook,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  defineSubagent,
  defineTool,
  type ModelRequest,
  type ScriptedStep,
} from 'agent-hooks';
import { OtelAttributes, otelHooks } from 'agent-hooks/otel';
import { callsStep, echoTool, toolMessages } from '../agent/support.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
afterEach(() => exporter.reset());

/** The active context, kept across awaits (what a Node SDK's context manager does). */
class AsyncContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}
beforeAll(() => void context.setGlobalContextManager(new AsyncContextManager()));
afterAll(() => context.disable());

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((s) => s.name === name);
const one = (name: string) => {
  const found = named(name);
  expect(found.map((s) => s.name), `exactly one span named ${name}`).toEqual([name]);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => spans().find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
const childrenOf = (span: ReadableSpan) => spans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
const bash = defineTool({ name: 'bash', input: z.object({ command: z.string() }), execute: ({ command }) => `ran ${command}` });

/** A subagent `helper` that runs `bash ls`, and a model that delegates to it once (and answers as either agent). */
function delegating() {
  const helper = defineSubagent({ name: 'helper', description: 'Helps', tools: [bash] });
  const model = new ScriptedModel((request: ModelRequest): ScriptedStep => {
    const child = request.messages[0]?.content === 'check';
    const done = toolMessages(request).length > 0;
    if (done) return child ? 'checked' : 'Done.';
    return child ? callsStep(['bash', { command: 'ls' }]) : callsStep(['helper', { task: 'check' }]);
  });
  return { helper, model };
}

describe('otelHooks', () => {
  it('turns a run into run, step, tool and hook spans, parented in that order', async () => {
    const tracing = otelHooks({ tracer });
    const model = new ScriptedModel([callsStep(['bash', { command: 'ls' }, 'call-1']), 'Done.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(bash)
      .withHook(tracing)
      .onBeforeToolUse(() => {}, { name: 'guard', priority: 10 })
      .onBeforeStep(() => {}, { name: 'stepper' })
      .onStop(() => {}, { name: 'gate' })
      .build();
    tracing.observe(agent);
    const result = await agent.run('List');
    expect(result.status).toBe('completed');

    const run = one('agent_hooks.run');
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({ [OtelAttributes.AGENT_ID]: agent.id, [OtelAttributes.RUN_STATUS]: 'completed' });
    expect(typeof run.attributes[OtelAttributes.DURATION_MS]).toBe('number');

    const steps = named('agent_hooks.step');
    expect(steps.map((s) => s.attributes[OtelAttributes.STEP_INDEX]).sort()).toEqual([0, 1]);
    for (const step of steps) expect(parentOf(step)).toBe(run);

    const tool = one('agent_hooks.tool bash');
    expect(parentOf(tool)?.attributes[OtelAttributes.STEP_INDEX]).toBe(0);
    expect(tool.attributes).toMatchObject({
      [OtelAttributes.TOOL_NAME]: 'bash',
      [OtelAttributes.TOOL_CALL_ID]: 'call-1',
      [OtelAttributes.OUTCOME]: 'proceed',
      [OtelAttributes.TOOL_STATUS]: 'ok',
    });

    const guard = one('agent_hooks.hook guard');
    expect(parentOf(guard)).toBe(tool);
    expect(guard.attributes).toMatchObject({
      [OtelAttributes.EVENT]: 'PreToolUse',
      [OtelAttributes.HOOK_NAME]: 'guard',
      [OtelAttributes.HOOK_PRIORITY]: 10,
      [OtelAttributes.OUTCOME]: 'proceed',
    });
    expect(typeof guard.attributes[OtelAttributes.DURATION_MS]).toBe('number');
    expect(new Set(named('agent_hooks.hook stepper').map(parentOf))).toEqual(new Set(steps));
    expect(parentOf(one('agent_hooks.hook gate'))).toBe(run);
    // The tracing hook itself shows as the run, step and tool spans, not as a hook span.
    expect(named('agent_hooks.hook OtelHooks')).toEqual([]);
    // One trace for the whole run.
    expect(new Set(spans().map((s) => s.spanContext().traceId)).size).toBe(1);
    // Every dispatch is an event on its span, with the combined outcome and duration.
    const events = run.events.filter((e) => e.name === 'agent_hooks.dispatch').map((e) => e.attributes?.[OtelAttributes.EVENT]);
    expect(events).toEqual(['ExecutionStart', 'UserPromptSubmit', 'Stop', 'AfterStop', 'AfterAgent', 'ExecutionEnd']);
    expect(tool.events.map((e) => e.attributes?.[OtelAttributes.EVENT])).toEqual(['PreToolUse', 'PostToolUse']);
    // The model events of a step are events on its span.
    const first = steps.find((s) => s.attributes[OtelAttributes.STEP_INDEX] === 0)!;
    expect(first.events.filter((e) => e.name === 'agent_hooks.dispatch').map((e) => e.attributes?.[OtelAttributes.EVENT])).toEqual(expect.arrayContaining(['BeforeModel', 'BeforeToolSelection', 'AfterModel']));
  });

  it('records a blocked tool with outcome block and its reason, and the hook that blocked it', async () => {
    const tracing = otelHooks({ tracer });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(['bash', { command: 'rm -rf /' }]), 'Done.']))
      .withTools(bash)
      .withHook(tracing)
      .withHook(new DangerousCommandHook())
      .build();
    tracing.observe(agent);
    await agent.run('Go');

    const tool = one('agent_hooks.tool bash');
    expect(tool.attributes[OtelAttributes.OUTCOME]).toBe('block');
    expect(tool.attributes[OtelAttributes.TOOL_STATUS]).toBe('refused');
    expect(String(tool.attributes[OtelAttributes.REASON])).toMatch(/^Dangerous command refused/);
    const hook = one('agent_hooks.hook DangerousCommandHook');
    expect(parentOf(hook)).toBe(tool);
    expect(hook.attributes[OtelAttributes.OUTCOME]).toBe('block');
  });

  it('marks a failed tool and a failed run as errors, and a hook that threw', async () => {
    const tracing = otelHooks({ tracer });
    const fail = defineTool({ name: 'fail', input: z.object({}), execute: () => { throw new Error('tool exploded'); } });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(['fail', {}]), 'Done.']))
      .withTools(fail)
      .withHook(tracing)
      .onStop(() => { throw new Error('gate broke'); }, { name: 'gate' })
      .build();
    tracing.observe(agent);
    await expect(agent.run('Go')).rejects.toThrow(/gate broke/);

    const tool = one('agent_hooks.tool fail');
    expect([tool.status.code, tool.status.message, tool.attributes[OtelAttributes.TOOL_STATUS]]).toEqual([2, 'tool exploded', 'error']);
    const gate = one('agent_hooks.hook gate');
    expect([gate.status.code, gate.attributes[OtelAttributes.OUTCOME]]).toEqual([2, 'error']);
    expect(gate.events.map((e) => e.name)).toEqual(['exception']);
    const run = one('agent_hooks.run');
    expect([run.status.code, run.attributes[OtelAttributes.RUN_STATUS]]).toEqual([2, 'failed']);
  });

  it('keeps the spans of concurrent runs apart', async () => {
    const tracing = otelHooks({ tracer });
    const echo = echoTool();
    const model = new ScriptedModel((request: ModelRequest): ScriptedStep => (toolMessages(request).length < 2 ? callsStep(['echo', { text: String(request.messages[0]!.content) }]) : 'Done.'));
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool)
      .withHook(tracing)
      .onBeforeToolUse(async () => {
        await new Promise((r) => setImmediate(r));
      }, { name: 'slow' })
      .build();
    tracing.observe(agent);
    await Promise.all([agent.run('a'), agent.run('b'), agent.run('c')]);

    const runs = named('agent_hooks.run');
    expect(runs).toHaveLength(3);
    for (const run of runs) {
      const steps = childrenOf(run).filter((s) => s.name === 'agent_hooks.step');
      expect(steps).toHaveLength(3);
      const tools = steps.flatMap(childrenOf).filter((s) => s.name === 'agent_hooks.tool echo');
      expect(tools).toHaveLength(2);
      const hooks = tools.flatMap(childrenOf);
      expect(hooks.map((h) => h.name)).toEqual(['agent_hooks.hook slow', 'agent_hooks.hook slow']);
      expect(new Set([run, ...steps, ...tools, ...hooks].map((s) => s.spanContext().traceId)).size).toBe(1);
    }
  });

  it('puts a subagent’s run under the tool call that started it', async () => {
    const tracing = otelHooks({ tracer });
    const { helper, model } = delegating();
    const agent = AgentBuilder.new().withModel(model).withTools(bash).withSubagents(helper).withHook(tracing).build();
    tracing.observe(agent);
    expect((await agent.run('Go')).text).toBe('Done.');

    const runs = named('agent_hooks.run');
    const parentRun = runs.find((r) => r.attributes[OtelAttributes.PARENT_AGENT_ID] === undefined)!;
    const childRun = runs.find((r) => r.attributes[OtelAttributes.PARENT_AGENT_ID] === agent.id)!;
    const helperTool = one('agent_hooks.tool helper');
    expect(parentOf(childRun)).toBe(helperTool);
    expect(parentOf(parentOf(helperTool)!)).toBe(parentRun);
    expect(parentOf(parentOf(one('agent_hooks.tool bash'))!)).toBe(childRun);
  });

  it('closes a tool span the approver refused when its step ends, and a session’s SessionEnd gets a span of its own', async () => {
    const tracing = otelHooks({ tracer });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(['bash', { command: 'ls' }]), 'Done.']))
      .withTools(bash)
      .withHook(tracing)
      .withHook(new RequireApprovalHook({ matcher: 'bash' }))
      .withApprover(() => ({ approved: false, reason: 'not now' }))
      .onSessionEnd(() => {}, { name: 'bye' })
      .build();
    tracing.observe(agent);
    const session = agent.session();
    await session.run('Go');
    await session.close();

    const tool = one('agent_hooks.tool bash');
    expect(tool.attributes).toMatchObject({ [OtelAttributes.OUTCOME]: 'ask', [OtelAttributes.TOOL_STATUS]: 'refused' });
    // The approver's refusal: PermissionDenied, on the refused call's span too.
    expect(tool.events.map((e) => e.attributes?.[OtelAttributes.EVENT])).toEqual(['PreToolUse', 'PermissionRequest', 'Notification', 'PermissionDenied']);
    const run = one('agent_hooks.run');
    expect(run.events[0]!.attributes?.[OtelAttributes.EVENT]).toBe('SessionStart');
    const end = one('agent_hooks.dispatch SessionEnd');
    expect(parentOf(one('agent_hooks.hook bye'))).toBe(end);
    expect(end.attributes[OtelAttributes.OUTCOME]).toBe('proceed');
  });

  it('ends an interrupted run’s spans where it stopped (its subagent’s too), and gives the resumed run a span of its own', async () => {
    const { helper, model } = delegating();
    // Built twice, as two processes would: each with its own tracing.
    const build = () => {
      const tracing = otelHooks({ tracer });
      const agent = AgentBuilder.new()
        .withModel(model)
        .withTools(bash)
        .withSubagents(helper)
        .withHook(tracing)
        .withHook(new RequireApprovalHook({ matcher: 'bash' }))
        .withApprovalInterrupts()
        .build();
      tracing.observe(agent);
      return agent;
    };
    const first = await build().run('Go');
    expect(first.status).toBe('interrupted');
    const interruptedRuns = named('agent_hooks.run');
    expect(interruptedRuns.map((r) => r.attributes[OtelAttributes.RUN_STATUS])).toEqual(['interrupted', 'interrupted']);
    expect(one('agent_hooks.tool bash').attributes).toMatchObject({ [OtelAttributes.TOOL_STATUS]: 'interrupted' });
    exporter.reset();

    const { snapshot, pending } = first.interruption!;
    const done = await build().resume(JSON.parse(JSON.stringify(snapshot)), { [pending[0]!.id]: true });
    expect(done.text).toBe('Done.');
    const runs = named('agent_hooks.run');
    expect(runs.map((r) => [r.attributes[OtelAttributes.RUN_STATUS], r.attributes[OtelAttributes.RUN_RESUMED]])).toEqual([
      ['completed', true],
      ['completed', true],
    ]);
    expect(one('agent_hooks.tool bash').attributes).toMatchObject({ [OtelAttributes.TOOL_STATUS]: 'ok' });
  });

  it('ends the run span when the first dispatch stops the run', async () => {
    const tracing = otelHooks({ tracer });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['never']))
      .withHook(tracing)
      .onExecutionStart(() => HookOutcome.stop('closed today'))
      .build();
    const result = await agent.run('Go');
    expect(result.status).toBe('stopped');
    const run = one('agent_hooks.run');
    expect(run.attributes).toMatchObject({ [OtelAttributes.RUN_STATUS]: 'stopped', [OtelAttributes.REASON]: 'closed today' });
    expect(run.events.map((e) => e.attributes?.[OtelAttributes.EVENT])).toEqual(['ExecutionStart', 'AfterStop', 'AfterAgent', 'ExecutionEnd']);
  });

  it('traces a dispatch of a plain HookStack, under the active span, with its observer', async () => {
    const tracing = otelHooks({ tracer });
    const stack = new HookStack().with(tracing).with({ name: 'guard', handle: () => HookOutcome.block('no') });
    const outer = tracer.startSpan('request');
    await context.with(trace.setSpan(context.active(), outer), () =>
      stack.process(ToolHookContext.beforeToolUse(ToolCall.create('bash')), undefined, { observer: tracing.observer }),
    );
    outer.end();
    const dispatch = one('agent_hooks.dispatch PreToolUse');
    expect(parentOf(dispatch)?.name).toBe('request');
    expect(dispatch.attributes[OtelAttributes.OUTCOME]).toBe('block');
    expect(parentOf(one('agent_hooks.hook guard'))).toBe(dispatch);
  });

  it('starts a run’s trace under the span active when the run started', async () => {
    const tracing = otelHooks({ tracer });
    const agent = AgentBuilder.new().withModel(new ScriptedModel(['Done.'])).withHook(tracing).build();
    const request = tracer.startSpan('POST /chat');
    await context.with(trace.setSpan(context.active(), request), () => agent.run('Hi'));
    request.end();
    expect(parentOf(one('agent_hooks.run'))?.name).toBe('POST /chat');
  });

  it('stops recording hook spans when observing ends, and uses the global tracer by default', async () => {
    const tracing = otelHooks({ tracer });
    const agent = AgentBuilder.new().withModel(new ScriptedModel(['Done.'])).withHook(tracing).onStop(() => {}, { name: 'gate' }).build();
    const stop = tracing.observe(agent);
    stop();
    await agent.run('Go');
    expect(named('agent_hooks.hook gate')).toEqual([]);
    expect(named('agent_hooks.run')).toHaveLength(1);
    expect(otelHooks().priority).toBe(1_000_000);
    expect(() => otelHooks({ priority: Number.NaN })).toThrow(/priority must be a finite number/);
  });
});
