import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookOutcome,
  ModelHookContext,
  ScriptedModel,
  defineTool,
  type AnyHookContext,
  type Hook,
  type ModelRetryForcedInfo,
  type NextFn,
} from 'agent-hooks';
import { callStep, collectWarnings, echoTool, lastMessage, loggingModel, recordEvents } from './support.js';

/** A `read` tool beside `echo`, so that tool selection has something to choose from. */
const readTool = () => defineTool({ name: 'read', description: 'Reads a file', input: z.object({ path: z.string() }), execute: () => 'contents' });

const toolNames = (request: { tools: readonly { name: string }[] } | undefined) => request?.tools.map((t) => t.name);

describe('BeforeModel', () => {
  it('rewrites the request the model receives: system prompt, messages and settings, for this call only', async () => {
    const model = new ScriptedModel(['Hi.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withSystemPrompt('You are terse.')
      .withModelSettings({ temperature: 0.7, maxTokens: 100 })
      .onBeforeModel((ctx) => {
        expect(ctx.request.settings).toEqual({ temperature: 0.7, maxTokens: 100 });
        return ctx
          .withSystem(`${ctx.request.system} Answer in English.`)
          .withMessages([...ctx.request.messages, { role: 'system', content: 'Today is Monday.' }])
          .withSettings({ temperature: 0 });
      })
      .build();
    const result = await agent.run('Hello');

    const request = model.requests[0]!;
    expect(request.system).toBe('You are terse. Answer in English.');
    expect(lastMessage(request)).toEqual({ role: 'system', content: 'Today is Monday.' });
    expect(request.settings).toEqual({ temperature: 0, maxTokens: 100 });
    // The conversation itself is not changed by a rewrite of the request.
    expect(result.messages.map((m) => m.content)).toEqual(['Hello', 'Hi.']);
  });

  it('answers instead of the model (a string): the model is never called', async () => {
    const model = new ScriptedModel([]);
    const cache = new Map([['What is 2+2?', 'Four.']]);
    const agent = AgentBuilder.new()
      .withModel(model)
      .onBeforeModel((ctx) => cache.get(ctx.request.messages.at(-1)!.content))
      .build();
    const result = await agent.run('What is 2+2?');

    expect(result.status).toBe('completed');
    expect(result.text).toBe('Four.');
    expect(model.callCount).toBe(0);
  });

  it('answers with tool calls instead of the model: they run through PreToolUse as if the model had made them', async () => {
    const echo = echoTool();
    const model = new ScriptedModel(['Done.']);
    const seen: string[] = [];
    const synthetic: boolean[] = [];
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool)
      .onBeforeModel((ctx) => (ctx.stepIndex === 0 ? ctx.withResponse({ text: 'Echoing.', toolCalls: [{ name: 'echo', args: { text: 'from a hook' } }] }) : undefined))
      .onAfterModel((ctx) => {
        synthetic.push(ctx.synthetic);
      })
      .onBeforeToolUse((ctx) => {
        seen.push(`${ctx.toolName}:${String(ctx.toolCall.args['text'])}`);
      })
      .build();
    const result = await agent.run('Go');

    expect(seen).toEqual(['echo:from a hook']);
    expect(echo.execute).toHaveBeenCalledOnce();
    expect(model.callCount).toBe(1);
    expect(synthetic).toEqual([true, false]);
    expect(result.steps[0]!.toolCalls.map((c) => c.name)).toEqual(['echo']);
    expect(result.text).toBe('Done.');
  });

  it('refuses the call with a block: the model is not called and the reason is the answer', async () => {
    const model = new ScriptedModel([]);
    const result = await AgentBuilder.new()
      .withModel(model)
      .onBeforeModel(() => HookOutcome.block('I cannot help with that.'))
      .build()
      .run('Something forbidden');

    expect(model.callCount).toBe(0);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('I cannot help with that.');
  });

  it('halts the run with a stop', async () => {
    const model = new ScriptedModel([]);
    const result = await AgentBuilder.new()
      .withModel(model)
      .onBeforeModel(() => HookOutcome.stop('Budget exhausted'))
      .build()
      .run('Go');

    expect(model.callCount).toBe(0);
    expect(result.status).toBe('stopped');
    expect(result.reason).toBe('Budget exhausted');
  });

  it("puts a hook's additional context into the conversation before the next call", async () => {
    const model = new ScriptedModel([callStep('echo', { text: 'a' }), 'Done.']);
    await AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool)
      .onBeforeModel((ctx) => (ctx.stepIndex === 0 ? HookOutcome.proceed(undefined, { additionalContext: 'Remember the budget.' }) : undefined))
      .build()
      .run('Go');

    expect(model.requests[1]!.messages.some((m) => m.role === 'system' && m.content === 'Remember the budget.')).toBe(true);
  });

  it('matches a string matcher against the model name', async () => {
    const seen: string[] = [];
    await AgentBuilder.new()
      .withModel(new ScriptedModel(['Hi.']))
      .onBeforeModel(() => void seen.push('scripted'), { matcher: 'scripted' })
      .onBeforeModel(() => void seen.push('script*'), { matcher: 'script*' })
      .onBeforeModel(() => void seen.push('gpt-4o'), { matcher: 'gpt-4o' })
      .onAfterModel(() => void seen.push('/^gpt/'), { matcher: /^gpt/ })
      .build()
      .run('Go');

    expect(seen).toEqual(['scripted', 'script*']);
  });
});

describe('BeforeToolSelection', () => {
  it('narrows the tools the model is offered (a list of names), and passes the tool config on', async () => {
    const model = new ScriptedModel(['Hi.']);
    await AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool, readTool())
      .onBeforeToolSelection((ctx) => {
        expect(ctx.allowedTools.map((t) => t.name)).toEqual(['echo', 'read']);
        return ['read', 'no_such_tool'];
      })
      .build()
      .run('Go');

    const request = model.requests[0]!;
    expect(toolNames(request)).toEqual(['read']);
    expect(request.toolConfig).toEqual({ mode: 'auto', allowedFunctionNames: ['read'] });
  });

  it('composes hooks in priority order, each only narrowing what the one before allowed', async () => {
    const model = new ScriptedModel(['Hi.']);
    const order: string[] = [];
    await AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool, readTool(), echoTool('shout').tool)
      .onBeforeToolSelection(
        (ctx) => {
          order.push('low');
          expect(ctx.allowedTools.map((t) => t.name)).toEqual(['read', 'shout']);
          return ctx.allowTools('echo', 'read');
        },
        { priority: 1 },
      )
      .onBeforeToolSelection(
        (ctx) => {
          order.push('high');
          return ctx.removeTools('echo');
        },
        { priority: 10 },
      )
      .build()
      .run('Go');

    expect(order).toEqual(['high', 'low']);
    expect(toolNames(model.requests[0])).toEqual(['read']);
  });

  it("offers no tool in mode 'none', and can force a call with mode 'any'", async () => {
    const model = new ScriptedModel(['Hi.', 'Hi again.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool, readTool())
      .onBeforeToolSelection((ctx) => ctx.withToolConfig(ctx.state.stepCount === 0 && model.callCount === 0 ? { mode: 'none' } : { mode: 'any', allowedFunctionNames: ['echo'] }))
      .build();
    await agent.run('One');
    await agent.run('Two');

    expect(toolNames(model.requests[0])).toEqual([]);
    expect(model.requests[0]!.toolConfig).toEqual({ mode: 'none' });
    expect(toolNames(model.requests[1])).toEqual(['echo']);
    expect(model.requests[1]!.toolConfig).toEqual({ mode: 'any', allowedFunctionNames: ['echo'] });
  });

  it('sees the tools a BeforeModel hook left, and ignores a block with a warning', async () => {
    const model = new ScriptedModel(['Hi.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool, readTool())
      .onBeforeModel((ctx) => ctx.withTools(ctx.request.tools.filter((t) => t.name !== 'echo')))
      .onBeforeToolSelection((ctx) => {
        expect(ctx.allowedTools.map((t) => t.name)).toEqual(['read']);
        return HookOutcome.block('no tools for you');
      })
      .build();
    const warnings = collectWarnings(agent);
    await agent.run('Go');

    expect(toolNames(model.requests[0])).toEqual(['read']);
    expect(warnings.map((w) => [w.code, w.event])).toEqual([['ignored-outcome', 'BeforeToolSelection']]);
  });
});

describe('AfterModel', () => {
  it("rewrites the answer's text (a string) before it enters the conversation", async () => {
    const model = new ScriptedModel(['The key is sk-12345.', 'ok']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .onAfterModel((ctx) => ctx.response.text.replace(/sk-\d+/g, '[redacted]'))
      .build();
    const session = agent.session();
    const result = await session.run('Key?');
    await session.run('Thanks');

    expect(result.text).toBe('The key is [redacted].');
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual(['Key?', 'The key is [redacted].', 'Thanks']);
  });

  it('changes and drops tool calls before any tool runs', async () => {
    const echo = echoTool();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'echo', args: { text: 'keep' } }, { name: 'echo', args: { text: 'drop' } }] },
      'Done.',
    ]);
    const result = await AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool)
      .onAfterModel((ctx) =>
        ctx.withToolCalls(ctx.response.toolCalls.filter((c) => c.args['text'] !== 'drop').map((c) => c.withArgs({ text: `${String(c.args['text'])}!` }))),
      )
      .build()
      .run('Go');

    expect(echo.execute).toHaveBeenCalledOnce();
    expect(echo.execute.mock.calls[0]![0]).toEqual({ text: 'keep!' });
    expect(result.steps[0]!.toolCalls).toHaveLength(1);
  });

  it('blocks to have the call made again, with the reason as feedback; the rejected answer is not recorded', async () => {
    const model = new ScriptedModel([
      { text: 'Hello', usage: { inputTokens: 10, outputTokens: 1 } },
      { text: 'Bonjour', usage: { inputTokens: 12, outputTokens: 1 } },
    ]);
    const retries: number[] = [];
    const result = await AgentBuilder.new()
      .withModel(model)
      .onAfterModel((ctx) => {
        retries.push(ctx.retryCount);
        return /bonjour/i.test(ctx.response.text) ? undefined : HookOutcome.block('Answer in French.');
      })
      .build()
      .run('Greet me');

    expect(result.text).toBe('Bonjour');
    expect(retries).toEqual([0, 1]);
    expect(model.requests[1]!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Greet me'],
      ['user', 'Answer in French.'],
    ]);
    // Every call the model made is paid for: the step's usage counts both.
    expect(result.steps[0]!.usage).toEqual({ inputTokens: 22, outputTokens: 2, totalTokens: undefined });
  });

  it('retries at most modelRetryLimit times, then goes on with the last answer, with a warning and model:retry-forced', async () => {
    const model = new ScriptedModel((_request, call) => `answer ${call + 1}`);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withOptions({ modelRetryLimit: 2 })
      .onAfterModel(() => HookOutcome.block('Not good enough.'))
      .build();
    const warnings = collectWarnings(agent);
    const forced: ModelRetryForcedInfo[] = [];
    agent.events.on('model:retry-forced', (info) => forced.push(info));
    const result = await agent.run('Go');

    expect(model.callCount).toBe(3);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('answer 3');
    expect(forced).toEqual([{ stepIndex: 0, blocks: 3, reason: expect.stringContaining('Not good enough.') }]);
    expect(warnings.map((w) => [w.code, w.event])).toEqual([['model-retry-forced', 'AfterModel']]);
  });

  it('retries at most 3 times by default', async () => {
    const model = new ScriptedModel((_request, call) => `answer ${call + 1}`);
    const result = await AgentBuilder.new()
      .withModel(model)
      .onAfterModel(() => HookOutcome.block('Again.'))
      .build()
      .run('Go');

    expect(model.callCount).toBe(4);
    expect(result.text).toBe('answer 4');
  });

  it('rejects modelRetryLimit values that are not non-negative integers', () => {
    expect(() => AgentBuilder.new().withOptions({ modelRetryLimit: -1 })).toThrow(RangeError);
    expect(() => AgentBuilder.new().withOptions({ modelRetryLimit: 1.5 })).toThrow(/modelRetryLimit/);
  });
});

describe('stop on the model events', () => {
  it('halts the run from BeforeToolSelection (inside BeforeModel’s chain) and from AfterModel', async () => {
    for (const event of ['BeforeToolSelection', 'AfterModel'] as const) {
      const echo = echoTool();
      const model = new ScriptedModel([callStep('echo', { text: 'a' })]);
      const after: string[] = [];
      const result = await AgentBuilder.new()
        .withModel(model)
        .withTools(echo.tool)
        .addHook(event, () => HookOutcome.stop(`${event} says stop`))
        .onAfterStop((ctx) => void after.push(ctx.stopReason))
        .build()
        .run('Go');

      expect(result.status, event).toBe('stopped');
      expect(result.reason).toBe(`${event} says stop`);
      expect(model.callCount).toBe(event === 'AfterModel' ? 1 : 0);
      expect(echo.execute).not.toHaveBeenCalled();
      expect(after).toEqual(['hook_stop']);
    }
  });
});

describe('the model events in the lifecycle', () => {
  it('fire BeforeStep → BeforeModel → BeforeToolSelection → model → AfterModel → PreToolUse, and again on a retry', async () => {
    const log: string[] = [];
    const model = loggingModel(log, [callStep('echo', { text: 'a' }), 'rejected', 'Done.']);
    const builder = AgentBuilder.new().withModel(model).withTools(echoTool().tool);
    recordEvents(builder, log);
    builder.onAfterModel((ctx) => (ctx.response.text === 'rejected' ? HookOutcome.block('Try again') : undefined));
    await builder.build().run('Go');

    const model3 = ['BeforeModel', 'BeforeToolSelection', 'model', 'AfterModel'];
    expect(log).toEqual([
      'ExecutionStart',
      'UserPromptSubmit',
      'BeforeStep',
      ...model3,
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'AfterStep',
      'BeforeStep',
      ...model3,
      ...model3,
      'AfterStep',
      'Stop',
      'AfterStop',
      'AfterAgent',
      'ExecutionEnd',
    ]);
  });

  it('give the hooks ModelHookContexts that narrow by event', async () => {
    const contexts: AnyHookContext[] = [];
    await AgentBuilder.new()
      .withModel(new ScriptedModel(['Hi.']))
      .withHook({ events: ['BeforeModel', 'BeforeToolSelection', 'AfterModel'], handle: (ctx: AnyHookContext, next: NextFn) => (contexts.push(ctx), next()) })
      .build()
      .run('Go');

    expect(contexts.map((c) => c.event)).toEqual(['BeforeModel', 'BeforeToolSelection', 'AfterModel']);
    for (const c of contexts) expect(c).toBeInstanceOf(ModelHookContext);
    const after = contexts[2]!;
    if (after.event !== 'AfterModel') throw new Error('expected AfterModel');
    expect(after.response.text).toBe('Hi.');
    expect(after.modelName).toBe('scripted');
    expect(after.toJSON()).toMatchObject({ event: 'AfterModel', stepIndex: 0, retryCount: 0, response: { text: 'Hi.', toolCalls: [] }, synthetic: false });
  });

  it('send the bare request when no hook listens to them', async () => {
    const model = new ScriptedModel(['Hi.']);
    await AgentBuilder.new().withModel(model).onBeforeStep(() => undefined).build().run('Go');

    expect(Object.keys(model.requests[0]!)).toEqual(['system', 'messages', 'tools', 'signal']);
  });
});

describe('a middleware around the model call', () => {
  /** Makes the call again when the model throws: `next()` once, then the context's own `callModel()`. */
  class RetryOnce implements Hook {
    readonly events = ['BeforeModel'] as const;
    errors: unknown[] = [];
    async handle(ctx: AnyHookContext, next: NextFn): Promise<HookOutcome> {
      try {
        return await next();
      } catch (error) {
        if (ctx.event !== 'BeforeModel') throw error;
        this.errors.push(error);
        return HookOutcome.proceed(ctx.withResponse(await ctx.callModel()));
      }
    }
  }

  it('retries a model that throws once, and the answer counts as the model’s own', async () => {
    const boom = new Error('503 Service Unavailable');
    const model = new ScriptedModel((_request, call) => {
      if (call === 0) throw boom;
      return 'Recovered.';
    });
    const retry = new RetryOnce();
    const synthetic: boolean[] = [];
    const result = await AgentBuilder.new()
      .withModel(model)
      .withHook(retry)
      .onAfterModel((ctx) => void synthetic.push(ctx.synthetic))
      .build()
      .run('Go');

    expect(retry.errors).toEqual([boom]);
    expect(model.callCount).toBe(2);
    expect(result.text).toBe('Recovered.');
    expect(synthetic).toEqual([false]);
  });

  it('times the call and reads the answer after next(), and falls back to another model', async () => {
    const timings: { text: string; ms: number }[] = [];
    const fallback = new ScriptedModel(['From the fallback.']);
    const primary = new ScriptedModel(() => {
      throw new Error('primary down');
    });
    const result = await AgentBuilder.new()
      .withModel(primary)
      .withHook(
        {
          events: ['BeforeModel'],
          async handle(ctx: AnyHookContext, next: NextFn) {
            const started = performance.now();
            const outcome = await next();
            const answered = outcome.context;
            if (answered?.event === 'BeforeModel') timings.push({ text: answered.response?.text ?? '', ms: performance.now() - started });
            return outcome;
          },
        },
        { priority: 10 },
      )
      .withHook({
        events: ['BeforeModel'],
        async handle(ctx: AnyHookContext, next: NextFn) {
          try {
            return await next();
          } catch {
            if (ctx.event !== 'BeforeModel') throw new Error('unreachable');
            return HookOutcome.proceed(ctx.withResponse(await fallback.generate({ ...ctx.request, tools: [], signal: undefined })));
          }
        },
      })
      .build()
      .run('Go');

    expect(result.text).toBe('From the fallback.');
    expect(timings).toHaveLength(1);
    expect(timings[0]!.text).toBe('From the fallback.');
    expect(timings[0]!.ms).toBeGreaterThanOrEqual(0);
  });

  it('fails the run with the model’s own error when no middleware catches it', async () => {
    const boom = new Error('model down');
    const agent = AgentBuilder.new()
      .withModel(
        new ScriptedModel(() => {
          throw boom;
        }),
      )
      .onBeforeModel(() => undefined)
      .build();

    await expect(agent.run('Go')).rejects.toBe(boom);
  });

  it("is not blamed for the model's error under onHookError 'ignore': the run fails with that error", async () => {
    const boom = new Error('model down');
    const agent = AgentBuilder.new()
      .withModel(
        new ScriptedModel(() => {
          throw boom;
        }),
      )
      .onHookError('ignore')
      .withHook({ events: ['BeforeModel'], handle: (_ctx: AnyHookContext, next: NextFn) => next() })
      .build();

    await expect(agent.run('Go')).rejects.toBe(boom);
  });

  it('cannot call the model from a context made outside a run', async () => {
    const ctx = ModelHookContext.beforeModel({ stepIndex: 0, request: { system: undefined, messages: [], tools: [] } });
    await expect(ctx.callModel()).rejects.toThrow(/no model to call/);
  });
});

describe('rewrites of the request', () => {
  it('compose in priority order, whatever the priorities and registration order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 6 }), async (priorities) => {
        const model = new ScriptedModel(['ok']);
        const builder = AgentBuilder.new().withModel(model).withSystemPrompt('');
        priorities.forEach((priority, i) => {
          builder.onBeforeModel((ctx) => ctx.withSystem(`${ctx.request.system}[${i}]`), { priority });
        });
        await builder.build().run('Go');

        // Higher priority first; equal priorities in registration order (a stable sort).
        const expected = priorities
          .map((priority, i) => ({ priority, i }))
          .sort((a, b) => b.priority - a.priority)
          .map(({ i }) => `[${i}]`)
          .join('');
        expect(model.requests[0]!.system).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('keep every rewrite of the answer too, in priority order', async () => {
    const model = new ScriptedModel([{ text: 'a', toolCalls: [] }]);
    const result = await AgentBuilder.new()
      .withModel(model)
      .onAfterModel((ctx) => `${ctx.response.text}-low`, { priority: -1 })
      .onAfterModel((ctx) => ctx.withText(`${ctx.response.text}-high`), { priority: 5 })
      .build()
      .run('Go');

    expect(result.text).toBe('a-high-low');
  });
});
