import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, FailureHookContext, HookOutcome, ScriptedModel, ToolInputError, defineTool, type Model, type ModelResponse } from 'agent-hooks';
import { AiSdkModelError, aiSdkModel } from 'agent-hooks/ai-sdk';
import { echoTool, recordEvents, toolMessages } from '../agent/support.js';
import { mockModel, textAnswer, toolCallAnswer, usage } from './ai-sdk-support.js';

describe('aiSdkModel: an AI SDK language model as the agent’s model', () => {
  it('fires the same lifecycle, in the same order, as the scripted model playing the same script', async () => {
    // One script, played by both models: a blocked call, an invalid input, a call that runs, then a text answer.
    const script: ModelResponse[] = [
      { toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'rm -rf' } }] },
      { toolCalls: [{ id: 'c2', name: 'echo', args: { text: 42 } }] },
      { toolCalls: [{ id: 'c3', name: 'echo', args: { text: 'hi' } }] },
      { text: 'Done.' },
    ];
    const run = async (model: Model) => {
      const { tool } = echoTool();
      const builder = AgentBuilder.new()
        .withModel(model)
        .withTools(tool)
        .onBeforeToolUse((ctx) => (String(ctx.toolCall.arg('text')).includes('rm') ? HookOutcome.block('no rm') : undefined));
      const rec = recordEvents(builder);
      const result = await builder.build().run('Say hi');
      return { events: rec.events, text: result.text, tools: toolMessages(result.messages), status: result.status };
    };

    const scripted = await run(new ScriptedModel(script));
    const mock = mockModel(
      toolCallAnswer('echo', { text: 'rm -rf' }, 'c1'),
      toolCallAnswer('echo', { text: 42 }, 'c2'),
      toolCallAnswer('echo', { text: 'hi' }, 'c3'),
      textAnswer('Done.'),
    );
    const adapted = await run(aiSdkModel(mock));

    expect(adapted.events).toEqual(scripted.events);
    expect(adapted.events.filter((e) => e.startsWith('PostToolUse'))).toEqual(['PostToolUseFailure', 'PostToolUse']);
    expect(adapted).toEqual(scripted);
    expect(adapted.tools.map((m) => [m.toolCallId, m.content.slice(0, 37)])).toEqual([
      ['c1', 'Tool call blocked by a hook: no rm'],
      ['c2', "Error: Invalid input for tool 'echo':"],
      ['c3', 'echo: hi'],
    ]);
  });

  it('sends the system prompt, the conversation with the provider’s call ids, and each tool’s input JSON Schema', async () => {
    const { tool: echo } = echoTool();
    const withDefault = defineTool({
      name: 'count',
      description: 'Counts',
      input: z.object({ from: z.number().default(1) }),
      execute: ({ from }) => from,
    });
    const mock = mockModel(toolCallAnswer('echo', { text: 'hi' }, 'provider-id-7'), textAnswer('ok'));
    const agent = AgentBuilder.new().withModel(aiSdkModel(mock)).withSystemPrompt('Be brief.').withTools(echo, withDefault).build();

    await agent.run('Say hi');

    const first = mock.doGenerateCalls[0]!;
    expect(first.prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const tools = first.tools!.map((t) => (t.type === 'function' ? [t.name, t.description, t.inputSchema] : [t.name]));
    expect(tools[0]).toEqual(['echo', 'Echoes its text', expect.objectContaining({ properties: { text: { type: 'string' } }, required: ['text'] })]);
    // The input side of the zod schema: a defaulted field is optional for the model.
    expect((tools[1]![2] as { required?: string[] }).required ?? []).not.toContain('from');

    const second = mock.doGenerateCalls[1]!.prompt;
    expect(second.slice(1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Say hi' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'provider-id-7', toolName: 'echo', input: { text: 'hi' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'provider-id-7', toolName: 'echo', output: { type: 'text', value: 'echo: hi' } }] },
    ]);
  });

  it('answers several calls of one step in one tool message, and keeps hooks’ additional context a system message', async () => {
    const { tool } = echoTool();
    const mock = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'a', toolName: 'echo', input: '{"text":"one"}' },
            { type: 'tool-call', toolCallId: 'b', toolName: 'echo', input: '{"text":"two"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage: usage(1, 1),
          warnings: [],
        },
        textAnswer('ok'),
      ],
    });
    const agent = AgentBuilder.new()
      .withModel(aiSdkModel(mock))
      .withTools(tool)
      .onAfterToolUse((ctx) => HookOutcome.proceed(ctx, { additionalContext: `checked ${ctx.toolCall.id}` }))
      .build();
    await agent.run('go');

    const prompt = mock.doGenerateCalls[1]!.prompt;
    const tail = prompt.slice(-2);
    expect(tail[0]).toMatchObject({ role: 'tool', content: [{ toolCallId: 'a' }, { toolCallId: 'b' }] });
    expect(tail[1]).toEqual({ role: 'system', content: 'checked a\n\nchecked b' });
  });

  it('adds up the usage of every step, and reports the finish reason of each', async () => {
    const { tool } = echoTool();
    const mock = mockModel(toolCallAnswer('echo', { text: 'hi' }, 'c1', usage(10, 5)), textAnswer('ok', usage(20, 3)));
    const model = aiSdkModel(mock);
    const result = await AgentBuilder.new().withModel(model).withTools(tool).build().run('go');
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 8, totalTokens: 38 });
    expect(result.steps.map((s) => s.usage)).toEqual([
      { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      { inputTokens: 20, outputTokens: 3, totalTokens: 23 },
    ]);

    const direct = await aiSdkModel(mockModel(textAnswer('hello'))).generate({ system: undefined, messages: [{ role: 'user', content: 'hi' }], tools: [], signal: undefined });
    expect(direct).toMatchObject({ text: 'hello', finishReason: 'stop', rawFinishReason: 'stop' });
    expect(direct.toolCalls).toBeUndefined();
  });

  it('leaves input validation to the agent: an input the tool schema refuses is a tool failure the model is told about', async () => {
    const { tool, execute } = echoTool();
    const mock = mockModel(toolCallAnswer('echo', { text: 42 }), textAnswer('Sorry.'));
    const failures: unknown[] = [];
    const result = await AgentBuilder.new()
      .withModel(aiSdkModel(mock))
      .withTools(tool)
      .onToolFailure((ctx) => void failures.push(ctx.error))
      .build()
      .run('go');
    expect(result.status).toBe('completed');
    expect(execute).not.toHaveBeenCalled();
    expect(failures[0]).toBeInstanceOf(ToolInputError);
    const told = mock.doGenerateCalls[1]!.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []))[0];
    expect(told).toMatchObject({ output: { type: 'text', value: expect.stringMatching(/^Error: Invalid input for tool 'echo'/) } });
  });

  it('fails the run with the provider’s message when the provider throws: AgentFailed fires, then ExecutionEnd', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new APICallError({
          message: 'Incorrect API key provided: sk-test***',
          url: 'https://api.example.com/v1/responses',
          requestBodyValues: {},
          statusCode: 401,
          isRetryable: false,
        });
      },
    });
    const builder = AgentBuilder.new().withModel(aiSdkModel(mock));
    const rec = recordEvents(builder);
    const result = await builder.build().run('go', { rejectOnFailure: false });

    expect(result.status).toBe('failed');
    expect(rec.events.slice(-2)).toEqual(['AgentFailed', 'ExecutionEnd']);
    const failed = rec.contexts.find((c): c is FailureHookContext => c.event === 'AgentFailed')!;
    expect(failed.errorMessage).toBe('Incorrect API key provided: sk-test***');
    expect(APICallError.isInstance(failed.error)).toBe(true);
    await expect(builder.build().run('go')).rejects.toThrow('Incorrect API key provided');
  });

  it('fails the run when the provider finishes with an error', async () => {
    const mock = mockModel({ content: [], finishReason: { unified: 'error', raw: 'server_error' }, usage: usage(1, 0), warnings: [] });
    const run = AgentBuilder.new().withModel(aiSdkModel(mock, { name: 'mock' })).build().run('go');
    await expect(run).rejects.toThrow(AiSdkModelError);
    await expect(run).rejects.toThrow('The model mock finished with an error (server_error) and no usable answer.');
  });

  it('passes the run’s abort signal to the provider', async () => {
    let started!: () => void;
    const called = new Promise<void>((resolve) => (started = resolve));
    const mock = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal!.addEventListener('abort', () => reject(options.abortSignal!.reason));
          started();
        }),
    });
    const controller = new AbortController();
    const run = AgentBuilder.new().withModel(aiSdkModel(mock)).build().run('go', { signal: controller.signal });
    await called;
    controller.abort(new Error('user cancelled'));
    await expect(run).rejects.toThrow('user cancelled');
  });

  it('passes call settings to every call and names itself after the provider and model', async () => {
    const mock = mockModel(textAnswer('ok'));
    const model = aiSdkModel(mock, { settings: { temperature: 0.2, maxOutputTokens: 99, providerOptions: { mock: { level: 'x' } } } });
    expect(model.name).toBe('mock-provider:mock-model-id');
    await model.generate({ system: undefined, messages: [{ role: 'user', content: 'hi' }], tools: [], signal: undefined });
    expect(mock.doGenerateCalls[0]).toMatchObject({ temperature: 0.2, maxOutputTokens: 99, providerOptions: { mock: { level: 'x' } } });
    expect(() => aiSdkModel(undefined as never)).toThrow(/needs an AI SDK LanguageModel/);
  });
});
