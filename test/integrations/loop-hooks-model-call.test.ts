import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type ModelCallRequest, type ModelHookContext } from 'agent-hooks';
import { LoopHooks } from 'agent-hooks/ai-sdk';

/** What the hooks of one scenario do; each field is one hook's policy. */
interface Policy {
  /** BeforeModel: nothing, a system prompt of its own, an answer instead of the model, or a refusal (on every call from `from`). */
  readonly before: { readonly kind: 'none' | 'system' | 'answer' | 'block'; readonly from: number };
  /** BeforeToolSelection: nothing, only `read`, or no tool at all. */
  readonly select: 'none' | 'read' | 'no-tools';
  /** AfterModel: blocks the first `blocks` answers, then rewrites the text when `rewrite`. */
  readonly after: { readonly blocks: number; readonly rewrite: boolean };
  readonly retryLimit: number;
}

/** The hooks of `policy`, each logging its event and the call's retry count as it runs. */
function hooksOf(policy: Policy, log: string[]): AgentBuilder {
  const { before, select, after } = policy;
  return AgentBuilder.new()
    .onBeforeModel((ctx) => {
      log.push(`BeforeModel:${ctx.retryCount}`);
      if (ctx.retryCount < before.from) return undefined;
      switch (before.kind) {
        case 'system':
          return ctx.withSystem(`own system ${ctx.retryCount}`);
        case 'answer':
          return `hook answer ${ctx.retryCount}`;
        case 'block':
          return HookOutcome.block(`refused ${ctx.retryCount}`);
        default:
          return undefined;
      }
    })
    .onBeforeToolSelection((ctx) => (log.push(`BeforeToolSelection:${ctx.retryCount}`), select === 'read' ? ['read'] : select === 'no-tools' ? ctx.withToolConfig({ mode: 'none' }) : undefined))
    .onAfterModel((ctx: ModelHookContext<'AfterModel'>) => {
      log.push(`AfterModel:${ctx.retryCount}`);
      if (ctx.retryCount < after.blocks) return HookOutcome.block(`not good ${ctx.retryCount}`);
      return after.rewrite ? `${ctx.response.text} (checked)` : undefined;
    });
}

const policies: fc.Arbitrary<Policy> = fc.record({
  before: fc.record({ kind: fc.constantFrom('none', 'system', 'answer', 'block'), from: fc.integer({ min: 0, max: 4 }) }),
  select: fc.constantFrom('none', 'read', 'no-tools'),
  after: fc.record({ blocks: fc.integer({ min: 0, max: 5 }), rewrite: fc.boolean() }),
  retryLimit: fc.integer({ min: 0, max: 3 }),
});

/** A request as the model gets it, compared on what the hooks can change. */
const seen = (r: ModelCallRequest) => ({ system: r.system, messages: r.messages.map((m) => `${m.role}:${m.content}`), tools: r.tools.map((t) => t.name).filter((n) => (r.toolConfig?.mode === 'none' ? false : r.toolConfig?.allowedFunctionNames?.includes(n) ?? true)) });

const read = defineTool({ name: 'read', description: 'Reads', input: z.object({}), execute: () => 'read' });
const write = defineTool({ name: 'write', description: 'Writes', input: z.object({}), execute: () => 'written' });

describe('LoopHooks.modelCall decides as our agent does', () => {
  it('for any hooks on the three model events: the same calls reach the model, and the same answer comes out', async () => {
    await fc.assert(
      fc.asyncProperty(policies, async (policy) => {
        // Our agent, one step: the model's answers are numbered, so that retries show.
        const model = new ScriptedModel((_request, call) => `model answer ${call}`);
        const ourLog: string[] = [];
        const agent = hooksOf(policy, ourLog)
          .withModel(model)
          .withSystemPrompt('system')
          .withTools(read, write)
          .withMaxSteps(1)
          .withOptions({ modelRetryLimit: policy.retryLimit })
          .build();
        const ourWarnings: string[] = [];
        agent.events.on('warning', (w) => ourWarnings.push(w.code));
        const ours = await agent.run('question');

        const log: string[] = [];
        const hooks = new LoopHooks(hooksOf(policy, log), { modelRetryLimit: policy.retryLimit });
        const warnings: string[] = [];
        hooks.events.on('warning', (w) => warnings.push(w.code));
        const sent: ModelCallRequest[] = [];
        const request: ModelCallRequest = { system: 'system', messages: [{ role: 'user', content: 'question' }], tools: [read, write] };
        const result = await hooks.modelCall(request, (r) => {
          sent.push(r);
          return { text: `model answer ${sent.length - 1}` };
        });

        expect(log).toEqual(ourLog);
        expect(sent.map(seen)).toEqual(model.requests.map(seen));
        expect(result.response.text).toBe(ours.steps[0]!.text);
        expect(result.synthetic).toBe(!ours.steps[0]!.text.startsWith('model answer'));
        expect(result.retries).toBe(ourLog.filter((e) => e.startsWith('AfterModel')).length - 1);
        // The conversation our agent keeps after the step is the request's, what the hooks added, and the answer.
        expect([...request.messages, ...result.added].map((m) => `${m.role}:${m.content}`)).toEqual(ours.messages.slice(0, -1).map((m) => `${m.role}:${m.content}`));
        expect(warnings).toEqual(ourWarnings);
      }),
      { numRuns: 150 },
    );
  });
});

describe('LoopHooks.modelCall', () => {
  it('calls the model directly when no hook is on the model events', async () => {
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeToolUse(() => undefined));
    const request: ModelCallRequest = { system: undefined, messages: [{ role: 'user', content: 'hi' }], tools: [] };
    let given: ModelCallRequest | undefined;
    const result = await hooks.modelCall(request, (r) => ((given = r), { text: 'hello', usage: { inputTokens: 1 } }));
    expect(given).toBe(request);
    expect(result).toMatchObject({ response: { text: 'hello' }, synthetic: false, added: [], retries: 0, stopped: undefined, usage: { inputTokens: 1 } });
  });

  it('a BeforeToolSelection stop keeps the model from being called; the answer is empty and stopped says why', async () => {
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeToolSelection(() => HookOutcome.stop('No tools today.')));
    let called = false;
    const result = await hooks.modelCall({ system: undefined, messages: [], tools: [] }, () => ((called = true), {}));
    expect(called).toBe(false);
    expect(result.stopped).toBe('No tools today.');
    expect(result.response.text).toBe('');
    expect(hooks.stopReason).toBe('No tools today.');
    // Later calls of the conversation are not made either.
    expect((await hooks.modelCall({ system: undefined, messages: [], tools: [] }, () => ((called = true), {}))).stopped).toBe('No tools today.');
    expect(called).toBe(false);
  });

  it('fires the model events for a listener of every event, even with no hook on them', async () => {
    const hooks = new LoopHooks(AgentBuilder.new());
    const events: string[] = [];
    hooks.events.on('event', (ctx) => events.push(ctx.event));
    await hooks.modelCall({ system: undefined, messages: [], tools: [] }, () => ({ text: 'ok' }));
    expect(events).toEqual(['BeforeModel', 'BeforeToolSelection', 'AfterModel']);
  });

  it('counts the tokens of every call, retries included, and adds the hooks’ context after the feedback', async () => {
    const hooks = new LoopHooks(
      AgentBuilder.new().onAfterModel((ctx) => (ctx.retryCount === 0 ? HookOutcome.block('Shorter.', { additionalContext: 'Be brief.' }) : undefined)),
    );
    const result = await hooks.modelCall({ system: undefined, messages: [{ role: 'user', content: 'hi' }], tools: [] }, () => ({ text: 'x', usage: { inputTokens: 2, outputTokens: 1 } }));
    expect(result.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: undefined });
    expect(result.added).toEqual([
      { role: 'user', content: 'Shorter.' },
      { role: 'system', content: 'Be brief.' },
    ]);
    expect(result.retries).toBe(1);
  });

  it('takes the modelRetryLimit of the builder its hooks come from, unless its own options give one', async () => {
    const rejecting = () => AgentBuilder.new().onAfterModel(() => HookOutcome.block('Again.')).withOptions({ modelRetryLimit: 1 });
    const request = { system: undefined, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    let calls = 0;
    const call = () => (calls++, { text: 'x' });
    expect((await new LoopHooks(rejecting()).modelCall(request, call)).retries).toBe(1);
    expect(calls).toBe(2);
    calls = 0;
    expect((await new LoopHooks(rejecting(), { modelRetryLimit: 0 }).modelCall(request, call)).retries).toBe(0);
    expect(calls).toBe(1);
  });

  it('refuses a modelRetryLimit that is not a whole number ≥ 0', () => {
    expect(() => new LoopHooks(AgentBuilder.new(), { modelRetryLimit: -1 })).toThrow('modelRetryLimit must be a non-negative integer, got -1.');
  });
});
