import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import {
  AgentState,
  AgentStep,
  CompactHookContext,
  ExecutionHookContext,
  FailureHookContext,
  HookContextBase,
  ModelHookContext,
  NotificationHookContext,
  PromptHookContext,
  SessionHookContext,
  StepHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolExecution,
  ToolBatchHookContext,
  ToolHookContext,
  type AnyHookContext,
  type ContextFor,
  type HookContextInit,
  type HookEventName,
  type Message,
} from 'agent-hooks';

// ---------------------------------------------------------------------------------------------------------------------
// Fixtures

const USER: Message = { role: 'user', content: 'list the files' };
const ASSISTANT: Message = { role: 'assistant', content: 'ok' };

const makeState = (): AgentState =>
  new AgentState({
    agentId: 'agent-A',
    parentAgentId: 'parent-P',
    sessionId: 'sess-S',
    stepCount: 4,
    messages: [USER],
    metadata: { shared: 'fromState', onlyState: 7 },
  });

const bash = (): ToolCall => ToolCall.create('bash', { command: 'ls -la' }, 'call-1');

// ---------------------------------------------------------------------------------------------------------------------
// Shared behaviour, run inside every family's describe

interface SharedCase {
  /** Build a context of the family for `event`, from the given base init. */
  make: (init: HookContextInit) => AnyHookContext;
  event: HookEventName;
  /** The class every copy must stay an instance of. */
  cls: abstract new (...args: never[]) => HookContextBase;
  /** Family fields toJSON must contain (exact values). */
  json: Record<string, unknown>;
  /** A family field to try to overwrite on the frozen context. */
  field: string;
}

function behavesLikeAContext(c: SharedCase): void {
  describe(`shared context behaviour (${c.event})`, () => {
    it('has the right event and carries the given state', () => {
      const state = makeState();
      const ctx = c.make({ state });
      expect(ctx.event).toBe(c.event);
      expect(ctx).toBeInstanceOf(c.cls);
      expect(ctx).toBeInstanceOf(HookContextBase);
      expect(ctx.state).toBe(state);
      expect(ctx.state.agentId).toBe('agent-A');
      expect(ctx.state.parentAgentId).toBe('parent-P');
      expect(ctx.state.sessionId).toBe('sess-S');
      expect(ctx.state.stepCount).toBe(4);
      expect(ctx.state.messages).toEqual([USER]);
      expect(ctx.state.metadata).toEqual({ shared: 'fromState', onlyState: 7 });
      expect(ctx.metadata).toEqual({});
    });

    it('makes a fresh state when none is given', () => {
      const ctx = c.make({});
      expect(ctx.state).toBeInstanceOf(AgentState);
      expect(ctx.state.agentId).toMatch(/^agent_\d+$/);
      expect(ctx.state.stepCount).toBe(0);
    });

    it('withMetadata returns a new context of the same class, leaving the original unchanged', () => {
      const ctx = c.make({ state: makeState() });
      const next = ctx.withMetadata('k', 'v');
      expect(next).not.toBe(ctx);
      expect(next).toBeInstanceOf(c.cls);
      expect(Object.getPrototypeOf(next)).toBe(Object.getPrototypeOf(ctx));
      expect(next.event).toBe(c.event);
      expect(next.state).toBe(ctx.state);
      expect(next.get('k')).toBe('v');
      expect(next.has('k')).toBe(true);
      expect(next.metadata).toEqual({ k: 'v' });
      expect(ctx.get('k')).toBeUndefined();
      expect(ctx.has('k')).toBe(false);
      expect(ctx.metadata).toEqual({});
      // Chained: earlier keys survive.
      const both = next.withMetadata('k2', 2);
      expect(both.metadata).toEqual({ k: 'v', k2: 2 });
      expect(next.metadata).toEqual({ k: 'v' });
    });

    it('withMetadata keeps the family fields', () => {
      const ctx = c.make({ state: makeState() });
      const next = ctx.withMetadata('k', 1);
      const own = (o: AnyHookContext) => {
        const { metadata: _m, ...rest } = o.toJSON();
        return rest;
      };
      expect(own(next)).toEqual(own(ctx));
      expect(next.subject).toBe(ctx.subject);
    });

    it('get reads the context, then the state, then the fallback; has sees both', () => {
      const ctx = c.make({ state: makeState(), metadata: { own: 'ctx' } }).withMetadata('shared', 'fromCtx');
      expect(ctx.get('shared')).toBe('fromCtx');
      expect(ctx.get('own')).toBe('ctx');
      expect(ctx.get('onlyState')).toBe(7);
      expect(ctx.get('missing', 'fb')).toBe('fb');
      expect(ctx.get('missing')).toBeUndefined();
      expect(ctx.get('onlyState', 'fb')).toBe(7);
      expect(ctx.has('shared')).toBe(true);
      expect(ctx.has('onlyState')).toBe(true);
      expect(ctx.has('missing')).toBe(false);
      // Prototype keys are not metadata.
      expect(ctx.has('toString')).toBe(false);
      expect(ctx.get('toString', 'fb')).toBe('fb');
    });

    it('withState replaces the state in a new context of the same class', () => {
      const ctx = c.make({ state: makeState() });
      const other = AgentState.create({ agentId: 'agent-B', metadata: { shared: 'other' } });
      const next = ctx.withState(other);
      expect(next).not.toBe(ctx);
      expect(next).toBeInstanceOf(c.cls);
      expect(next.event).toBe(c.event);
      expect(next.state).toBe(other);
      expect(next.get('shared')).toBe('other');
      expect(ctx.state.agentId).toBe('agent-A');
      expect(ctx.get('shared')).toBe('fromState');
      expect(Object.isFrozen(next)).toBe(true);
    });

    it('is frozen, and assigning a field throws', () => {
      const ctx = c.make({ state: makeState() });
      const copy = ctx.withMetadata('k', 1);
      for (const o of [ctx, copy]) {
        expect(Object.isFrozen(o)).toBe(true);
        expect(Object.isFrozen(o.metadata)).toBe(true);
        expect(() => {
          (o as unknown as Record<string, unknown>).event = 'Stop';
        }).toThrow(TypeError);
        expect(() => {
          (o as unknown as Record<string, unknown>)[c.field] = 'changed';
        }).toThrow(TypeError);
        expect(() => {
          (o as unknown as Record<string, unknown>).state = AgentState.create();
        }).toThrow(TypeError);
        expect(o.event).toBe(c.event);
      }
      expect(() => {
        (copy.metadata as Record<string, unknown>).k = 2;
      }).toThrow(TypeError);
    });

    it('toJSON contains the event, the ids, merged metadata and the family fields', () => {
      const ctx = c.make({ state: makeState() }).withMetadata('shared', 'fromCtx');
      const json = ctx.toJSON();
      expect(json).toMatchObject({
        event: c.event,
        agentId: 'agent-A',
        parentAgentId: 'parent-P',
        sessionId: 'sess-S',
        stepCount: 4,
        metadata: { shared: 'fromCtx', onlyState: 7 },
        ...c.json,
      });
      // It is plain JSON.
      expect(JSON.parse(JSON.stringify(ctx))).toEqual(JSON.parse(JSON.stringify(json)));
    });

    it('toJSON leaves out the absent ids', () => {
      const json = c.make({ state: AgentState.create({ agentId: 'solo' }) }).toJSON();
      expect(json.agentId).toBe('solo');
      expect(json.event).toBe(c.event);
      expect('parentAgentId' in json).toBe(false);
      expect('sessionId' in json).toBe(false);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------------

describe('ToolHookContext', () => {
  it('beforeToolUse: PreToolUse with the call and no execution', () => {
    const call = bash();
    const ctx = ToolHookContext.beforeToolUse(call);
    expect(ctx.event).toBe('PreToolUse');
    expect(ctx.toolCall).toBe(call);
    expect(ctx.toolName).toBe('bash');
    expect(ctx.subject).toBe('bash');
    expect(ctx.execution).toBeUndefined();
    expect(ctx.error).toBeUndefined();
    expect(ctx.errorMessage).toBeUndefined();
    expect(ctx.permissionReason).toBeUndefined();
    expect(ctx.isBeforeTool()).toBe(true);
    expect(ctx.isAfterTool()).toBe(false);
  });

  it('permissionRequest: carries the reason', () => {
    const ctx = ToolHookContext.permissionRequest(bash(), { reason: 'writes to disk' });
    expect(ctx.event).toBe('PermissionRequest');
    expect(ctx.permissionReason).toBe('writes to disk');
    expect(ctx.isBeforeTool()).toBe(false);
    expect(ctx.isAfterTool()).toBe(false);
    expect(ctx.toJSON().permissionReason).toBe('writes to disk');
    expect(ToolHookContext.permissionRequest(bash()).permissionReason).toBeUndefined();
  });

  it('afterToolUse: PostToolUse with the execution result', () => {
    const call = bash();
    const exec = ToolExecution.success(call, 'file-a\nfile-b', 12);
    const ctx = ToolHookContext.afterToolUse(exec);
    expect(ctx.event).toBe('PostToolUse');
    expect(ctx.toolCall).toBe(call);
    expect(ctx.execution).toBe(exec);
    expect(ctx.execution?.result).toBe('file-a\nfile-b');
    expect(ctx.error).toBeUndefined();
    expect(ctx.errorMessage).toBeUndefined();
    expect(ctx.isAfterTool()).toBe(true);
    expect(ctx.isBeforeTool()).toBe(false);
    expect(ctx.toJSON().execution).toEqual({
      toolCall: { id: 'call-1', name: 'bash', args: { command: 'ls -la' } },
      result: 'file-a\nfile-b',
      isError: false,
      durationMs: 12,
    });
  });

  it('afterToolUse of a failed execution exposes its error', () => {
    const exec = ToolExecution.failure(bash(), new Error('exit 1'));
    const ctx = ToolHookContext.afterToolUse(exec);
    expect(ctx.error).toBeInstanceOf(Error);
    expect(ctx.errorMessage).toBe('exit 1');
  });

  it('toolFailure: PostToolUseFailure with error, errorMessage and a failed execution', () => {
    const call = bash();
    const err = new RangeError('disk full');
    const ctx = ToolHookContext.toolFailure(call, err);
    expect(ctx.event).toBe('PostToolUseFailure');
    expect(ctx.error).toBe(err);
    expect(ctx.errorMessage).toBe('disk full');
    expect(ctx.execution?.isError).toBe(true);
    expect(ctx.execution?.error).toBe(err);
    expect(ctx.execution?.toolCall).toBe(call);
    expect(ctx.isAfterTool()).toBe(true);
    expect(ctx.isBeforeTool()).toBe(false);
    expect(ctx.toJSON().execution).toEqual({
      toolCall: { id: 'call-1', name: 'bash', args: { command: 'ls -la' } },
      error: 'disk full',
      isError: true,
    });
  });

  it('toolFailure with a non-Error value stringifies it', () => {
    const ctx = ToolHookContext.toolFailure(bash(), 'timed out');
    expect(ctx.error).toBe('timed out');
    expect(ctx.errorMessage).toBe('timed out');
    expect(ToolHookContext.toolFailure(bash(), 404).errorMessage).toBe('404');
  });

  it('the constructor requires a ToolCall', () => {
    expect(
      () => new ToolHookContext('PreToolUse', { toolCall: { name: 'bash', args: {} } as unknown as ToolCall }),
    ).toThrow(TypeError);
  });

  it('withToolCall returns a new instance of the same class; the original is untouched', () => {
    const ctx = ToolHookContext.beforeToolUse(bash()).withMetadata('m', 1);
    const other = ToolCall.create('read', { path: '/etc/hosts' }, 'call-2');
    const next = ctx.withToolCall(other);
    expect(next).not.toBe(ctx);
    expect(next).toBeInstanceOf(ToolHookContext);
    expect(next.event).toBe('PreToolUse');
    expect(next.toolCall).toBe(other);
    expect(next.toolName).toBe('read');
    expect(next.subject).toBe('read');
    expect(next.get('m')).toBe(1);
    expect(next.isBeforeTool()).toBe(true);
    expect(Object.isFrozen(next)).toBe(true);
    expect(ctx.toolName).toBe('bash');
    expect(ctx.toolCall.args).toEqual({ command: 'ls -la' });
    expect(() => ctx.withToolCall({ name: 'x' } as unknown as ToolCall)).toThrow(TypeError);
  });

  it('withArgs replaces the arguments and keeps the call id and name', () => {
    const ctx = ToolHookContext.beforeToolUse(bash());
    const next = ctx.withArgs({ command: 'ls' });
    expect(next).not.toBe(ctx);
    expect(next).toBeInstanceOf(ToolHookContext);
    expect(next.toolCall.args).toEqual({ command: 'ls' });
    expect(next.toolCall.id).toBe('call-1');
    expect(next.toolCall.name).toBe('bash');
    expect(ctx.toolCall.args).toEqual({ command: 'ls -la' });
  });

  it('withExecution and withResult replace the result; the original is untouched', () => {
    const call = bash();
    const exec = ToolExecution.success(call, 'raw', 3);
    const ctx = ToolHookContext.afterToolUse(exec);

    const replaced = ToolExecution.success(call, 'redacted');
    const next = ctx.withExecution(replaced);
    expect(next).not.toBe(ctx);
    expect(next).toBeInstanceOf(ToolHookContext);
    expect(next.event).toBe('PostToolUse');
    expect(next.execution).toBe(replaced);

    const viaResult = ctx.withResult({ lines: 2 });
    expect(viaResult).not.toBe(ctx);
    expect(viaResult).toBeInstanceOf(ToolHookContext);
    expect(viaResult.execution?.result).toEqual({ lines: 2 });
    expect(viaResult.execution?.toolCall).toBe(call);
    expect(viaResult.execution?.durationMs).toBe(3);
    expect(viaResult.execution?.isError).toBe(false);

    expect(ctx.execution).toBe(exec);
    expect(ctx.execution?.result).toBe('raw');
    expect(() => ctx.withExecution('nope' as unknown as ToolExecution)).toThrow(TypeError);
  });

  it('withResult on a context without an execution makes a successful one', () => {
    const ctx = ToolHookContext.beforeToolUse(bash());
    const next = ctx.withResult('cached');
    expect(next.execution?.isSuccess()).toBe(true);
    expect(next.execution?.result).toBe('cached');
    expect(next.execution?.toolCall).toBe(ctx.toolCall);
    expect(ctx.execution).toBeUndefined();
  });

  it('toJSON has the call', () => {
    expect(ToolHookContext.beforeToolUse(bash()).toJSON().toolCall).toEqual({
      id: 'call-1',
      name: 'bash',
      args: { command: 'ls -la' },
    });
  });

  const toolJson = { toolCall: { id: 'call-1', name: 'bash', args: { command: 'ls -la' } } };
  behavesLikeAContext({
    event: 'PreToolUse',
    make: (init) => ToolHookContext.beforeToolUse(bash(), init),
    cls: ToolHookContext,
    json: toolJson,
    field: 'toolCall',
  });
  behavesLikeAContext({
    event: 'PermissionRequest',
    make: (init) => ToolHookContext.permissionRequest(bash(), { ...init, reason: 'why' }),
    cls: ToolHookContext,
    json: { ...toolJson, permissionReason: 'why' },
    field: 'permissionReason',
  });
  behavesLikeAContext({
    event: 'PostToolUse',
    make: (init) => ToolHookContext.afterToolUse(ToolExecution.success(bash(), 'out'), init),
    cls: ToolHookContext,
    json: { ...toolJson, execution: { ...toolJson, result: 'out', isError: false } },
    field: 'execution',
  });
  behavesLikeAContext({
    event: 'PostToolUseFailure',
    make: (init) => ToolHookContext.toolFailure(bash(), new Error('boom'), init),
    cls: ToolHookContext,
    json: { ...toolJson, execution: { ...toolJson, error: 'boom', isError: true } },
    field: 'error',
  });
});

describe('StepHookContext', () => {
  it('beforeStep: stepIndex is 0-based, stepNumber 1-based, no step', () => {
    const ctx = StepHookContext.beforeStep(0);
    expect(ctx.event).toBe('BeforeStep');
    expect(ctx.stepIndex).toBe(0);
    expect(ctx.stepNumber).toBe(1);
    expect(ctx.step).toBeUndefined();
    expect(ctx.isBeforeStep()).toBe(true);
    expect(ctx.subject).toBeUndefined();
    expect(StepHookContext.beforeStep(6).stepNumber).toBe(7);
  });

  it('afterStep: the completed step, its index, hasErrors()', () => {
    const call = bash();
    const failed = new AgentStep({
      index: 2,
      text: 'running',
      toolCalls: [call],
      executions: [ToolExecution.failure(call, new Error('x'))],
    });
    const ctx = StepHookContext.afterStep(failed);
    expect(ctx.event).toBe('AfterStep');
    expect(ctx.step).toBe(failed);
    expect(ctx.stepIndex).toBe(2);
    expect(ctx.stepNumber).toBe(3);
    expect(ctx.isBeforeStep()).toBe(false);
    expect(ctx.step?.hasErrors()).toBe(true);
    expect(ctx.step?.hasToolCalls()).toBe(true);

    const ok = new AgentStep({ index: 0, executions: [ToolExecution.success(call, 'y')] });
    expect(StepHookContext.afterStep(ok).step?.hasErrors()).toBe(false);
    expect(new AgentStep({ index: 0 }).hasToolCalls()).toBe(false);
  });

  it('a negative or non-integer stepIndex throws RangeError', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => StepHookContext.beforeStep(bad), String(bad)).toThrow(RangeError);
    }
    expect(() => StepHookContext.afterStep(new AgentStep({ index: -2 }))).toThrow(RangeError);
  });

  it('toJSON has the index and the step', () => {
    const step = new AgentStep({ index: 1, text: 'hi', toolCalls: [bash()] });
    expect(StepHookContext.afterStep(step).toJSON()).toMatchObject({
      stepIndex: 1,
      step: { index: 1, text: 'hi', toolCalls: [{ id: 'call-1', name: 'bash', args: { command: 'ls -la' } }] },
    });
  });

  behavesLikeAContext({
    event: 'BeforeStep',
    make: (init) => StepHookContext.beforeStep(3, init),
    cls: StepHookContext,
    json: { stepIndex: 3 },
    field: 'stepIndex',
  });
  behavesLikeAContext({
    event: 'AfterStep',
    make: (init) => StepHookContext.afterStep(new AgentStep({ index: 1, text: 't' }), init),
    cls: StepHookContext,
    json: { stepIndex: 1, step: { index: 1, text: 't', toolCalls: [] } },
    field: 'step',
  });
});

describe('ModelHookContext', () => {
  const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });
  const request = () => ({ system: 'Be brief.', messages: [USER], tools: [tool('read'), tool('write'), tool('bash')] });
  const before = () => ModelHookContext.beforeModel({ stepIndex: 1, request: request(), modelName: 'gpt-x' });

  it('BeforeModel: the request, the model name as subject, and no answer until a hook gives one', () => {
    const ctx = before();
    expect(ctx.event).toBe('BeforeModel');
    expect(ctx.isBeforeModel()).toBe(true);
    expect(ctx.stepNumber).toBe(2);
    expect(ctx.subject).toBe('gpt-x');
    expect(ctx.response).toBeUndefined();
    expect(ctx.synthetic).toBe(false);
    const answered = ctx.withResponse('Cached.');
    expect(answered.response).toEqual({ text: 'Cached.', toolCalls: [] });
    expect(answered.synthetic).toBe(true);
    expect(answered.withResponse(undefined).response).toBeUndefined();
    expect(ctx.response).toBeUndefined();
  });

  it('rewrites the request piece by piece; settings merge', () => {
    const ctx = before()
      .withSystem('Be verbose.')
      .withSettings({ temperature: 0 })
      .withSettings({ maxTokens: 10 })
      .withMessages([])
      .withTools([tool('read')]);
    expect(ctx.request).toEqual({ system: 'Be verbose.', messages: [], tools: [tool('read')], settings: { temperature: 0, maxTokens: 10 } });
    expect(Object.isFrozen(ctx.request)).toBe(true);
  });

  it('tool selection only narrows: allowTools keeps what is still allowed, removeTools takes away, mode none offers nothing', () => {
    const ctx = ModelHookContext.beforeToolSelection({ stepIndex: 0, request: request() });
    expect(ctx.allowedTools.map((t) => t.name)).toEqual(['read', 'write', 'bash']);
    const narrowed = ctx.removeTools('bash').allowTools('bash', 'write', 'nope');
    expect(narrowed.allowedTools.map((t) => t.name)).toEqual(['write']);
    expect(narrowed.request.toolConfig).toEqual({ mode: 'auto', allowedFunctionNames: ['write'] });
    expect(ctx.withToolConfig({ mode: 'none' }).allowedTools).toEqual([]);
    expect(ctx.withToolConfig({ mode: 'any', allowedFunctionNames: ['bash'] }).allowedTools.map((t) => t.name)).toEqual(['bash']);
    expect(() => ctx.withToolConfig({ mode: 'sometimes' as 'auto' })).toThrow(/mode must be 'auto', 'any' or 'none'/);
  });

  it('AfterModel: always an answer, normalised; text and tool calls rewrite separately', () => {
    const ctx = ModelHookContext.afterModel({
      stepIndex: 0,
      request: request(),
      response: { toolCalls: [{ name: 'read', args: { path: 'a' }, id: 'c1' }] },
      retryCount: 2,
    });
    expect(ctx.isAfterModel()).toBe(true);
    expect(ctx.response.text).toBe('');
    expect(ctx.response.toolCalls[0]).toBeInstanceOf(ToolCall);
    expect(ctx.retryCount).toBe(2);
    const redacted = ctx.withText('[redacted]');
    expect(redacted.response.text).toBe('[redacted]');
    expect(redacted.response.toolCalls.map((c) => c.id)).toEqual(['c1']);
    expect(redacted.withToolCalls([]).response).toEqual({ text: '[redacted]', toolCalls: [] });
    expect(() => ctx.withResponse(undefined)).toThrow(/needs a response/);
    expect(() => new ModelHookContext('AfterModel', { stepIndex: 0, request: request() })).toThrow(/needs the response/);
    expectTypeOf(ctx.response.text).toEqualTypeOf<string>();
  });

  it('rejects a request that is not one, and a bad stepIndex or retryCount', () => {
    expect(() => ModelHookContext.beforeModel({ stepIndex: 0, request: { system: undefined, messages: 'hi' as never, tools: [] } })).toThrow(/messages must be an array/);
    expect(() => ModelHookContext.beforeModel({ stepIndex: -1, request: request() })).toThrow(RangeError);
    expect(() => ModelHookContext.beforeModel({ stepIndex: 0, request: request(), retryCount: 0.5 })).toThrow(RangeError);
  });

  it('toJSON gives the conversation by its length and the tools by name', () => {
    expect(before().withSettings({ temperature: 1 }).toJSON()).toMatchObject({
      event: 'BeforeModel',
      stepIndex: 1,
      modelName: 'gpt-x',
      retryCount: 0,
      request: { system: 'Be brief.', messages: 1, tools: ['read', 'write', 'bash'], settings: { temperature: 1 } },
    });
  });

  behavesLikeAContext({
    event: 'BeforeModel',
    make: (init) => ModelHookContext.beforeModel({ ...init, stepIndex: 0, request: request() }),
    cls: ModelHookContext,
    json: { stepIndex: 0, retryCount: 0, request: { system: 'Be brief.', messages: 1, tools: ['read', 'write', 'bash'] } },
    field: 'request',
  });
  behavesLikeAContext({
    event: 'AfterModel',
    make: (init) => ModelHookContext.afterModel({ ...init, stepIndex: 0, request: request(), response: { text: 'ok' } }),
    cls: ModelHookContext,
    json: { response: { text: 'ok', toolCalls: [] }, synthetic: false },
    field: 'response',
  });
});

describe('StopHookContext', () => {
  it('stop: stopReason; stepCount defaults to the state; no continuation', () => {
    const ctx = StopHookContext.stop({ stopReason: 'no_tool_calls', state: makeState(), finalMessage: 'Done.' });
    expect(ctx.event).toBe('Stop');
    expect(ctx.stopReason).toBe('no_tool_calls');
    expect(ctx.stepCount).toBe(4);
    expect(ctx.finalMessage).toBe('Done.');
    expect(ctx.continuationCount).toBe(0);
    expect(ctx.stopHookActive).toBe(false);
    expect(ctx.subject).toBeUndefined();
  });

  it('an explicit stepCount wins over the state', () => {
    const ctx = StopHookContext.stop({ stopReason: 'max_steps', state: makeState(), stepCount: 10 });
    expect(ctx.stepCount).toBe(10);
    expect(ctx.stopReason).toBe('max_steps');
    expect(ctx.finalMessage).toBeUndefined();
  });

  it('stopHookActive defaults to continuationCount > 0, and can be given', () => {
    const cont = StopHookContext.stop({ stopReason: 'no_tool_calls', continuationCount: 2 });
    expect(cont.continuationCount).toBe(2);
    expect(cont.stopHookActive).toBe(true);
    expect(StopHookContext.stop({ stopReason: 'no_tool_calls', continuationCount: 1 }).stopHookActive).toBe(true);
    expect(
      StopHookContext.stop({ stopReason: 'no_tool_calls', continuationCount: 2, stopHookActive: false }).stopHookActive,
    ).toBe(false);
    expect(StopHookContext.stop({ stopReason: 'tool_rejected', stopHookActive: true }).stopHookActive).toBe(true);
  });

  it('subagentStop: subject is the type, else the name', () => {
    const typed = StopHookContext.subagentStop({ stopReason: 'no_tool_calls', subagentName: 'bob', subagentType: 'coder' });
    expect(typed.event).toBe('SubagentStop');
    expect(typed.subagentName).toBe('bob');
    expect(typed.subagentType).toBe('coder');
    expect(typed.subject).toBe('coder');
    expect(StopHookContext.subagentStop({ stopReason: 'no_tool_calls', subagentName: 'bob' }).subject).toBe('bob');
  });

  it('AfterStop and AfterAgent are StopHookContexts too', () => {
    expect(new StopHookContext('AfterStop', { stopReason: 'max_steps' }).event).toBe('AfterStop');
    expect(new StopHookContext('AfterAgent', { stopReason: 'max_steps' }).event).toBe('AfterAgent');
  });

  const stopJson = { stopReason: 'no_tool_calls', stepCount: 4, finalMessage: 'bye', stopHookActive: true, continuationCount: 1 };
  behavesLikeAContext({
    event: 'Stop',
    make: (init) => StopHookContext.stop({ ...init, stopReason: 'no_tool_calls', finalMessage: 'bye', continuationCount: 1 }),
    cls: StopHookContext,
    json: stopJson,
    field: 'stopReason',
  });
  behavesLikeAContext({
    event: 'SubagentStop',
    make: (init) =>
      StopHookContext.subagentStop({
        ...init,
        stopReason: 'no_tool_calls',
        finalMessage: 'bye',
        continuationCount: 1,
        subagentName: 'bob',
        subagentType: 'coder',
      }),
    cls: StopHookContext,
    json: { ...stopJson, subagentName: 'bob', subagentType: 'coder' },
    field: 'stopHookActive',
  });
  behavesLikeAContext({
    event: 'AfterAgent',
    make: (init) => new StopHookContext('AfterAgent', { ...init, stopReason: 'max_steps', stepCount: 9 }),
    cls: StopHookContext,
    json: { stopReason: 'max_steps', stepCount: 9, stopHookActive: false, continuationCount: 0 },
    field: 'stepCount',
  });
});

describe('ExecutionHookContext', () => {
  it('onStart: isStart, the prompt', () => {
    const ctx = ExecutionHookContext.onStart({ prompt: 'fix the bug' });
    expect(ctx.event).toBe('ExecutionStart');
    expect(ctx.isStart()).toBe(true);
    expect(ctx.prompt).toBe('fix the bug');
    expect(ctx.status).toBeUndefined();
    expect(ctx.durationMs).toBeUndefined();
  });

  it('onEnd: status, reason and durationMs', () => {
    const ctx = ExecutionHookContext.onEnd({ status: 'stopped', reason: 'budget', durationMs: 1234 });
    expect(ctx.event).toBe('ExecutionEnd');
    expect(ctx.isStart()).toBe(false);
    expect(ctx.status).toBe('stopped');
    expect(ctx.reason).toBe('budget');
    expect(ctx.durationMs).toBe(1234);
    expect(ctx.toJSON()).toMatchObject({ status: 'stopped', reason: 'budget', durationMs: 1234 });
    expect(ExecutionHookContext.onEnd().status).toBeUndefined();
  });

  behavesLikeAContext({
    event: 'ExecutionStart',
    make: (init) => ExecutionHookContext.onStart({ ...init, prompt: 'go' }),
    cls: ExecutionHookContext,
    json: { prompt: 'go' },
    field: 'prompt',
  });
  behavesLikeAContext({
    event: 'ExecutionEnd',
    make: (init) => ExecutionHookContext.onEnd({ ...init, status: 'completed', durationMs: 5 }),
    cls: ExecutionHookContext,
    json: { status: 'completed', durationMs: 5 },
    field: 'status',
  });
});

describe('FailureHookContext', () => {
  it('error, exception alias, errorMessage, errorClass of an Error subclass', () => {
    const err = new TypeError('bad input');
    const ctx = FailureHookContext.onFailure(err);
    expect(ctx.event).toBe('AgentFailed');
    expect(ctx.error).toBe(err);
    expect(ctx.exception).toBe(err);
    expect(ctx.errorMessage).toBe('bad input');
    expect(ctx.errorClass).toBe('TypeError');
    expect(ctx.subject).toBeUndefined();
  });

  it('a thrown string: errorMessage is the string, errorClass is "string"', () => {
    const ctx = FailureHookContext.onFailure('kaboom');
    expect(ctx.error).toBe('kaboom');
    expect(ctx.exception).toBe('kaboom');
    expect(ctx.errorMessage).toBe('kaboom');
    expect(ctx.errorClass).toBe('string');
  });

  it('errorClass of a custom error class and of a number', () => {
    class QuotaExceeded extends Error {}
    expect(FailureHookContext.onFailure(new QuotaExceeded('q')).errorClass).toBe('QuotaExceeded');
    expect(FailureHookContext.onFailure(42).errorClass).toBe('number');
    expect(FailureHookContext.onFailure(42).errorMessage).toBe('42');
  });

  behavesLikeAContext({
    event: 'AgentFailed',
    make: (init) => FailureHookContext.onFailure(new TypeError('bad'), init),
    cls: FailureHookContext,
    json: { errorClass: 'TypeError', errorMessage: 'bad' },
    field: 'error',
  });
});

describe('SessionHookContext', () => {
  it('onStart: source defaults to startup, and is the subject', () => {
    const ctx = SessionHookContext.onStart();
    expect(ctx.event).toBe('SessionStart');
    expect(ctx.source).toBe('startup');
    expect(ctx.subject).toBe('startup');
    const resumed = SessionHookContext.onStart({ source: 'resume' });
    expect(resumed.source).toBe('resume');
    expect(resumed.subject).toBe('resume');
  });

  it('onEnd: the reason is the subject', () => {
    const ctx = SessionHookContext.onEnd({ reason: 'close' });
    expect(ctx.event).toBe('SessionEnd');
    expect(ctx.reason).toBe('close');
    expect(ctx.subject).toBe('close');
    expect(SessionHookContext.onEnd().subject).toBeUndefined();
  });

  behavesLikeAContext({
    event: 'SessionStart',
    make: (init) => SessionHookContext.onStart({ ...init, source: 'clear' }),
    cls: SessionHookContext,
    json: { source: 'clear' },
    field: 'source',
  });
  behavesLikeAContext({
    event: 'SessionEnd',
    make: (init) => SessionHookContext.onEnd({ ...init, reason: 'logout' }),
    cls: SessionHookContext,
    json: { source: 'startup', reason: 'logout' },
    field: 'reason',
  });
});

describe('PromptHookContext', () => {
  it('onSubmit: the prompt; withPrompt gives a new context', () => {
    const ctx = PromptHookContext.onSubmit('hello').withMetadata('m', true);
    expect(ctx.event).toBe('UserPromptSubmit');
    expect(ctx.prompt).toBe('hello');
    const next = ctx.withPrompt('hello, politely');
    expect(next).not.toBe(ctx);
    expect(next).toBeInstanceOf(PromptHookContext);
    expect(next.prompt).toBe('hello, politely');
    expect(next.get('m')).toBe(true);
    expect(Object.isFrozen(next)).toBe(true);
    expect(ctx.prompt).toBe('hello');
  });

  it('requires a string prompt', () => {
    expect(() => PromptHookContext.onSubmit(undefined as unknown as string)).toThrow(TypeError);
    expect(() => PromptHookContext.onSubmit('x').withPrompt(3 as unknown as string)).toThrow(TypeError);
  });

  behavesLikeAContext({
    event: 'UserPromptSubmit',
    make: (init) => PromptHookContext.onSubmit('do it', init),
    cls: PromptHookContext,
    json: { prompt: 'do it' },
    field: 'prompt',
  });
});

describe('SubagentHookContext', () => {
  it('name, type defaulting to the name, task; subject is the type', () => {
    const ctx = SubagentHookContext.onStart({ name: 'bob', task: 'write tests' });
    expect(ctx.event).toBe('SubagentStart');
    expect(ctx.name).toBe('bob');
    expect(ctx.type).toBe('bob');
    expect(ctx.task).toBe('write tests');
    expect(ctx.subject).toBe('bob');
    const typed = SubagentHookContext.onStart({ name: 'bob', type: 'coder', task: 't' });
    expect(typed.type).toBe('coder');
    expect(typed.subject).toBe('coder');
  });

  it('withTask gives a new context', () => {
    const ctx = SubagentHookContext.onStart({ name: 'bob', task: 'a' });
    const next = ctx.withTask('b');
    expect(next).toBeInstanceOf(SubagentHookContext);
    expect(next.task).toBe('b');
    expect(next.name).toBe('bob');
    expect(ctx.task).toBe('a');
  });

  behavesLikeAContext({
    event: 'SubagentStart',
    make: (init) => SubagentHookContext.onStart({ ...init, name: 'bob', type: 'coder', task: 'refactor' }),
    cls: SubagentHookContext,
    json: { name: 'bob', type: 'coder', task: 'refactor' },
    field: 'task',
  });
});

describe('CompactHookContext', () => {
  it('before: trigger defaults to auto, messagesBefore, no messagesAfter', () => {
    const before = [USER, ASSISTANT];
    const ctx = CompactHookContext.before({ messagesBefore: before });
    expect(ctx.event).toBe('PreCompact');
    expect(ctx.trigger).toBe('auto');
    expect(ctx.subject).toBe('auto');
    expect(ctx.messagesBefore).toEqual([USER, ASSISTANT]);
    expect(ctx.messagesAfter).toBeUndefined();
    // A frozen copy: the caller's array may change without affecting the context.
    expect(Object.isFrozen(ctx.messagesBefore)).toBe(true);
    before.push(USER);
    expect(ctx.messagesBefore).toHaveLength(2);
  });

  it('after: manual trigger, messagesBefore and messagesAfter', () => {
    const summary: Message = { role: 'system', content: 'summary' };
    const ctx = CompactHookContext.after({ trigger: 'manual', messagesBefore: [USER, ASSISTANT], messagesAfter: [summary] });
    expect(ctx.event).toBe('PostCompact');
    expect(ctx.trigger).toBe('manual');
    expect(ctx.subject).toBe('manual');
    expect(ctx.messagesBefore).toHaveLength(2);
    expect(ctx.messagesAfter).toEqual([summary]);
    expect(Object.isFrozen(ctx.messagesAfter)).toBe(true);
    expect(ctx.toJSON()).toMatchObject({ trigger: 'manual', messagesBefore: 2, messagesAfter: 1 });
  });

  it('withCustomInstructions gives a new context', () => {
    const ctx = CompactHookContext.before({ messagesBefore: [] });
    const next = ctx.withCustomInstructions('keep the plan');
    expect(next).toBeInstanceOf(CompactHookContext);
    expect(next.customInstructions).toBe('keep the plan');
    expect(ctx.customInstructions).toBeUndefined();
  });

  behavesLikeAContext({
    event: 'PreCompact',
    make: (init) => CompactHookContext.before({ ...init, messagesBefore: [USER, ASSISTANT, USER] }),
    cls: CompactHookContext,
    json: { trigger: 'auto', messagesBefore: 3 },
    field: 'trigger',
  });
  behavesLikeAContext({
    event: 'PostCompact',
    make: (init) => CompactHookContext.after({ ...init, trigger: 'manual', messagesBefore: [USER, ASSISTANT], messagesAfter: [USER] }),
    cls: CompactHookContext,
    json: { trigger: 'manual', messagesBefore: 2, messagesAfter: 1 },
    field: 'messagesAfter',
  });
});

describe('NotificationHookContext', () => {
  it('message, notificationType defaulting to info, title; subject is the type', () => {
    const ctx = NotificationHookContext.notify('Waiting for input');
    expect(ctx.event).toBe('Notification');
    expect(ctx.message).toBe('Waiting for input');
    expect(ctx.notificationType).toBe('info');
    expect(ctx.title).toBeUndefined();
    expect(ctx.subject).toBe('info');
    const typed = NotificationHookContext.notify('Allow bash?', { notificationType: 'permission_prompt', title: 'Permission' });
    expect(typed.notificationType).toBe('permission_prompt');
    expect(typed.title).toBe('Permission');
    expect(typed.subject).toBe('permission_prompt');
  });

  behavesLikeAContext({
    event: 'Notification',
    make: (init) => NotificationHookContext.notify('idle', { ...init, notificationType: 'idle_prompt', title: 'Idle' }),
    cls: NotificationHookContext,
    json: { message: 'idle', notificationType: 'idle_prompt', title: 'Idle' },
    field: 'message',
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('AnyHookContext (discriminated union)', () => {
  // Compile-time check: each branch narrows `ctx` to the family of its event.
  function summarize(ctx: AnyHookContext): string {
    switch (ctx.event) {
      case 'PreToolUse':
      case 'PermissionRequest':
        return ctx.toolCall.name;
      case 'PermissionDenied':
        return `${ctx.toolName} denied${ctx.retry ? ', may retry' : ''}`;
      case 'PostToolUse':
        return `${ctx.toolName}=${String(ctx.execution?.result)}`;
      case 'PostToolBatch':
        return `${ctx.toolCalls.length} calls, ${ctx.executions.filter((e) => e.isError).length} failed`;
      case 'PostToolUseFailure':
        return `${ctx.toolName}!${ctx.errorMessage ?? ''}`;
      case 'BeforeStep':
      case 'AfterStep':
        return `step ${ctx.stepNumber}`;
      case 'BeforeModel':
      case 'BeforeToolSelection':
        return `${ctx.request.messages.length} messages`;
      case 'AfterModel':
        return ctx.response.text;
      case 'Stop':
      case 'SubagentStop':
      case 'AfterStop':
      case 'AfterAgent':
        return ctx.stopReason;
      case 'ExecutionStart':
      case 'ExecutionEnd':
        return ctx.status ?? 'running';
      case 'AgentFailed':
        return ctx.errorClass;
      case 'StopFailure':
        return `${ctx.errorType}: ${ctx.errorMessage}`;
      case 'SessionStart':
      case 'SessionEnd':
        return ctx.source;
      case 'UserPromptSubmit':
        return ctx.prompt;
      case 'SubagentStart':
        return ctx.task;
      case 'PreCompact':
      case 'PostCompact':
        return ctx.trigger;
      case 'Notification':
        return ctx.message;
      default: {
        const exhaustive: never = ctx;
        return exhaustive;
      }
    }
  }

  function toolNameIf(ctx: AnyHookContext): string | undefined {
    if (ctx.event === 'PreToolUse') return ctx.toolCall.name;
    if (ctx.event === 'UserPromptSubmit') return ctx.prompt;
    return undefined;
  }

  it('narrows on ctx.event at run time as at compile time', () => {
    const call = bash();
    expect(toolNameIf(ToolHookContext.beforeToolUse(call))).toBe('bash');
    expect(toolNameIf(PromptHookContext.onSubmit('hi'))).toBe('hi');
    expect(toolNameIf(ToolHookContext.permissionRequest(call))).toBeUndefined();

    const cases: [AnyHookContext, string][] = [
      [ToolHookContext.beforeToolUse(call), 'bash'],
      [ToolHookContext.afterToolUse(ToolExecution.success(call, 'ok')), 'bash=ok'],
      [ToolHookContext.toolFailure(call, new Error('nope')), 'bash!nope'],
      [StepHookContext.beforeStep(1), 'step 2'],
      [StopHookContext.stop({ stopReason: 'max_steps' }), 'max_steps'],
      [ExecutionHookContext.onEnd({ status: 'failed' }), 'failed'],
      [ExecutionHookContext.onStart(), 'running'],
      [FailureHookContext.onFailure(new SyntaxError('s')), 'SyntaxError'],
      [FailureHookContext.onStopFailure(Object.assign(new Error('slow down'), { status: 429 })), 'rate_limit: slow down'],
      [ToolHookContext.permissionDenied(call).withRetry(), 'bash denied, may retry'],
      [new ToolBatchHookContext({ stepIndex: 0, toolCalls: [call, call.withArgs({})], executions: [ToolExecution.success(call, 1), ToolExecution.failure(call, new Error('x'))] }), '2 calls, 1 failed'],
      [SessionHookContext.onStart({ source: 'compact' }), 'compact'],
      [PromptHookContext.onSubmit('prompt!'), 'prompt!'],
      [SubagentHookContext.onStart({ name: 'n', task: 'the task' }), 'the task'],
      [CompactHookContext.before({ messagesBefore: [], trigger: 'manual' }), 'manual'],
      [NotificationHookContext.notify('note'), 'note'],
    ];
    for (const [ctx, expected] of cases) expect(summarize(ctx), ctx.event).toBe(expected);
  });

  it('ContextFor maps each event to its context type', () => {
    expectTypeOf<ContextFor<'Stop'>>().toEqualTypeOf<StopHookContext<'Stop'>>();
    expectTypeOf<ContextFor<'PreToolUse'>>().toEqualTypeOf<ToolHookContext<'PreToolUse'>>();
    expectTypeOf<ContextFor<'AgentFailed'>>().toEqualTypeOf<FailureHookContext>();
    expectTypeOf<ContextFor<'StopFailure'>>().toEqualTypeOf<FailureHookContext<'StopFailure'>>();
    expectTypeOf<ContextFor<'PostToolBatch'>>().toEqualTypeOf<ToolBatchHookContext>();
    expectTypeOf<ContextFor<'PermissionDenied'>>().toEqualTypeOf<ToolHookContext<'PermissionDenied'>>();
    expectTypeOf<ContextFor<'UserPromptSubmit'>>().toEqualTypeOf<PromptHookContext>();
    expectTypeOf<ContextFor<'PostCompact'>>().toEqualTypeOf<CompactHookContext<'PostCompact'>>();
    expectTypeOf(ToolHookContext.beforeToolUse(bash())).toEqualTypeOf<ContextFor<'PreToolUse'>>();
    expectTypeOf(ToolHookContext.beforeToolUse(bash())).toExtend<AnyHookContext>();
    expectTypeOf(StopHookContext.stop({ stopReason: 'max_steps' })).toEqualTypeOf<ContextFor<'Stop'>>();
    expectTypeOf<ContextFor<'Stop'>>().not.toEqualTypeOf<ContextFor<'SubagentStop'>>();
    expectTypeOf(ToolHookContext.beforeToolUse(bash()).withMetadata('k', 1)).toEqualTypeOf<ToolHookContext<'PreToolUse'>>();

    const pre: ContextFor<'PreToolUse'> = ToolHookContext.beforeToolUse(bash());
    const stop: ContextFor<'Stop'> = StopHookContext.stop({ stopReason: 'no_tool_calls' });
    // @ts-expect-error a Stop context has no tool call
    const nope: unknown = stop.toolCall;
    // @ts-expect-error a PostToolUse context is not a PreToolUse context
    const wrong: ContextFor<'PreToolUse'> = ToolHookContext.afterToolUse(ToolExecution.success(bash(), 1));
    expect(pre.event).toBe('PreToolUse');
    expect(stop.event).toBe('Stop');
    expect(nope).toBeUndefined();
    expect(wrong.event).toBe('PostToolUse');
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('AgentState', () => {
  it('create() generates distinct ids, unless one is given', () => {
    const a = AgentState.create();
    const b = AgentState.create();
    expect(a.agentId).toMatch(/^agent_\d+$/);
    expect(b.agentId).toMatch(/^agent_\d+$/);
    expect(a.agentId).not.toBe(b.agentId);
    expect(AgentState.create({ agentId: 'mine' }).agentId).toBe('mine');
  });

  it('defaults: no parent, no session, no steps, no messages, empty metadata', () => {
    const s = AgentState.create();
    expect(s.parentAgentId).toBeUndefined();
    expect(s.sessionId).toBeUndefined();
    expect(s.stepCount).toBe(0);
    expect(s.metadata).toEqual({});
    expect(Object.isFrozen(s)).toBe(true);
    expect({ steps: s.steps, messages: s.messages }).toEqual({ steps: [], messages: [] });
    expect(s.currentStep()).toBeUndefined();
    expect(s.withMessage(USER).messages).toEqual([USER]);
  });

  it('with({ steps }) sets stepCount from the steps; an explicit stepCount wins', () => {
    const s = AgentState.create({ agentId: 'x', sessionId: 'S', metadata: { a: 1 } });
    const steps = [new AgentStep({ index: 0 }), new AgentStep({ index: 1 }), new AgentStep({ index: 2 })];
    const next = s.with({ steps });
    expect(next.stepCount).toBe(3);
    expect(next.steps).toEqual(steps);
    expect(next.agentId).toBe('x');
    expect(next.sessionId).toBe('S');
    expect(next.metadata).toEqual({ a: 1 });
    expect(s.stepCount).toBe(0);
    expect(s.steps).toEqual([]);
    expect(s.with({ steps, stepCount: 10 }).stepCount).toBe(10);
    // Changing something else keeps the count.
    expect(next.with({ sessionId: 'T' }).stepCount).toBe(3);
    expect(new AgentState({ agentId: 'y', steps }).stepCount).toBe(3);
  });

  it('currentStep() is the last step', () => {
    const steps = [new AgentStep({ index: 0, text: 'first' }), new AgentStep({ index: 1, text: 'last' })];
    const s = AgentState.create({ steps });
    expect(s.currentStep()?.text).toBe('last');
    expect(s.currentStep()).toBe(steps[1]);
  });

  it('withMetadata is immutable', () => {
    const s = AgentState.create({ metadata: { a: 1 } });
    const next = s.withMetadata('b', 2);
    expect(next).not.toBe(s);
    expect(next.metadata).toEqual({ a: 1, b: 2 });
    expect(next.agentId).toBe(s.agentId);
    expect(s.metadata).toEqual({ a: 1 });
    expect(Object.isFrozen(next.metadata)).toBe(true);
    expect(next.withMetadata('a', 'over').metadata).toEqual({ a: 'over', b: 2 });
  });

  it('withMessage / withMessages are immutable', () => {
    const s = AgentState.create({ messages: [USER] });
    const next = s.withMessage(ASSISTANT);
    expect(next.messages).toEqual([USER, ASSISTANT]);
    expect(s.messages).toEqual([USER]);
    expect(Object.isFrozen(next.messages)).toBe(true);
    expect(() => (next.messages as Message[]).push(USER)).toThrow(TypeError);
    const replaced = next.withMessages([ASSISTANT]);
    expect(replaced.messages).toEqual([ASSISTANT]);
    expect(next.messages).toHaveLength(2);
  });

  it('copies unfrozen inputs', () => {
    const metadata: Record<string, unknown> = { a: 1 };
    const messages: Message[] = [USER];
    const s = AgentState.create({ metadata, messages });
    metadata.a = 2;
    messages.push(ASSISTANT);
    expect(s.metadata).toEqual({ a: 1 });
    expect(s.messages).toEqual([USER]);
  });
});

describe('ToolCall', () => {
  it('validates the name and the arguments', () => {
    expect(() => new ToolCall('')).toThrow(TypeError);
    expect(() => new ToolCall(undefined as unknown as string)).toThrow(TypeError);
    expect(() => new ToolCall('bash', [] as unknown as Record<string, unknown>)).toThrow(TypeError);
    expect(() => new ToolCall('bash', [] as unknown as Record<string, unknown>)).toThrow(/an array/);
    expect(() => new ToolCall('bash', null as unknown as Record<string, unknown>)).toThrow(TypeError);
    expect(() => new ToolCall('bash', 'ls' as unknown as Record<string, unknown>)).toThrow(TypeError);
  });

  it('generates an id unless given; defaults to no arguments', () => {
    const a = new ToolCall('bash');
    const b = ToolCall.create('bash');
    expect(a.id).toMatch(/^call_\d+$/);
    expect(a.id).not.toBe(b.id);
    expect(a.args).toEqual({});
    expect(new ToolCall('bash', {}, 'given').id).toBe('given');
  });

  it('args are a frozen copy', () => {
    const src: Record<string, unknown> = { command: 'ls' };
    const call = new ToolCall('bash', src);
    src.command = 'rm -rf /';
    expect(call.args.command).toBe('ls');
    expect(Object.isFrozen(call.args)).toBe(true);
    expect(Object.isFrozen(call)).toBe(true);
    expect(() => {
      (call.args as Record<string, unknown>).command = 'x';
    }).toThrow(TypeError);
  });

  it('arg(key, fallback)', () => {
    const call = ToolCall.create('bash', { command: 'ls', zero: 0, nil: null });
    expect(call.arg('command')).toBe('ls');
    expect(call.arg('zero', 5)).toBe(0);
    expect(call.arg('nil', 'fb')).toBeNull();
    expect(call.arg('missing', 'fb')).toBe('fb');
    expect(call.arg('missing')).toBeUndefined();
    expect(call.arg('toString', 'fb')).toBe('fb');
  });

  it('withArg / withArgs / withName keep the id and leave the original alone', () => {
    const call = ToolCall.create('bash', { command: 'ls', cwd: '/' }, 'id-7');
    const added = call.withArg('timeout', 5);
    expect(added.id).toBe('id-7');
    expect(added.name).toBe('bash');
    expect(added.args).toEqual({ command: 'ls', cwd: '/', timeout: 5 });
    expect(call.withArg('command', 'pwd').args).toEqual({ command: 'pwd', cwd: '/' });

    const replaced = call.withArgs({ command: 'pwd' });
    expect(replaced.id).toBe('id-7');
    expect(replaced.args).toEqual({ command: 'pwd' });

    const renamed = call.withName('shell');
    expect(renamed.id).toBe('id-7');
    expect(renamed.name).toBe('shell');
    expect(renamed.args).toEqual({ command: 'ls', cwd: '/' });
    expect(() => call.withName('')).toThrow(TypeError);

    expect(call.args).toEqual({ command: 'ls', cwd: '/' });
    expect(call.name).toBe('bash');
  });

  it('argsJson() equals JSON.stringify(args)', () => {
    const call = ToolCall.create('bash', { command: 'ls', n: 2, nested: { a: [1, 'b'] } });
    expect(call.argsJson()).toBe(JSON.stringify(call.args));
    expect(call.argsJson()).toBe('{"command":"ls","n":2,"nested":{"a":[1,"b"]}}');
    expect(call.argsJson()).toBe(call.argsJson());
    expect(ToolCall.create('noop').argsJson()).toBe('{}');
  });

  it('argsJson() equals JSON.stringify(args) for any JSON object (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (args) => {
        const call = ToolCall.create('t', args);
        expect(call.argsJson()).toBe(JSON.stringify(call.args));
        expect(call.argsJson()).toBe(JSON.stringify(args));
      }),
    );
  });

  it('toJSON', () => {
    expect(ToolCall.create('bash', { command: 'ls' }, 'c').toJSON()).toEqual({ id: 'c', name: 'bash', args: { command: 'ls' } });
  });
});

describe('ToolExecution', () => {
  it('success', () => {
    const call = bash();
    const e = ToolExecution.success(call, { out: 'a' }, 15);
    expect(e.toolCall).toBe(call);
    expect(e.result).toEqual({ out: 'a' });
    expect(e.isError).toBe(false);
    expect(e.isSuccess()).toBe(true);
    expect(e.error).toBeUndefined();
    expect(e.errorMessage).toBeUndefined();
    expect(e.durationMs).toBe(15);
    expect(Object.isFrozen(e)).toBe(true);
  });

  it('failure, with an Error or another value', () => {
    const err = new Error('segfault');
    const e = ToolExecution.failure(bash(), err);
    expect(e.isError).toBe(true);
    expect(e.isSuccess()).toBe(false);
    expect(e.error).toBe(err);
    expect(e.result).toBeUndefined();
    expect(e.errorMessage).toBe('segfault');
    expect(e.durationMs).toBeUndefined();
    expect(ToolExecution.failure(bash(), 'exit code 2').errorMessage).toBe('exit code 2');
  });

  it('withResult gives a new successful execution and keeps the call and duration', () => {
    const call = bash();
    const failed = ToolExecution.failure(call, new Error('x'), 8);
    const fixed = failed.withResult('recovered');
    expect(fixed).not.toBe(failed);
    expect(fixed.isError).toBe(false);
    expect(fixed.error).toBeUndefined();
    expect(fixed.result).toBe('recovered');
    expect(fixed.toolCall).toBe(call);
    expect(fixed.durationMs).toBe(8);
    expect(failed.isError).toBe(true);
    expect(failed.result).toBeUndefined();
  });

  it('toJSON', () => {
    const call = ToolCall.create('bash', { command: 'ls' }, 'c1');
    expect(ToolExecution.success(call, 'out', 4).toJSON()).toStrictEqual({
      toolCall: { id: 'c1', name: 'bash', args: { command: 'ls' } },
      result: 'out',
      isError: false,
      durationMs: 4,
    });
    expect(ToolExecution.failure(call, new Error('boom')).toJSON()).toStrictEqual({
      toolCall: { id: 'c1', name: 'bash', args: { command: 'ls' } },
      error: 'boom',
      isError: true,
    });
  });
});
