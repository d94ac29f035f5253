import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AgentBuilder, HookOutcome, StreamCancelledError, type AgentStream, type AgentStreamEvent } from 'agent-hooks';
import { AiSdkModelError, aiSdkModel, type AiSdkModelStreamPart } from 'agent-hooks/ai-sdk';
import { echoTool, toolMessages } from '../agent/support.js';
import { mockModel, mockStreamingModel, textAnswer, toolCallAnswer, toolResults, usage, type ProviderStreamPart } from './ai-sdk-support.js';

async function drain(stream: AgentStream): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const texts = (events: readonly AgentStreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));

/** Every part of one `stream` call of the model, read to the end. */
async function parts(stream: AsyncIterable<AiSdkModelStreamPart>): Promise<AiSdkModelStreamPart[]> {
  const out: AiSdkModelStreamPart[] = [];
  for await (const part of stream) out.push(part);
  return out;
}

const request = { system: undefined, messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal: undefined };

/**
 * A provider stream that writes a word every few milliseconds for as long as it is read, and records whether it was
 * cancelled: what a provider's HTTP stream is, and what tells whether a call really stopped.
 */
function endlessProvider() {
  const seen = { cancelled: false, pulls: 0, signal: undefined as AbortSignal | undefined };
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      seen.signal = options.abortSignal;
      return {
        stream: new ReadableStream<ProviderStreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
          },
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            seen.pulls++;
            controller.enqueue({ type: 'text-delta', id: 't', delta: `word${seen.pulls} ` });
          },
          cancel() {
            seen.cancelled = true;
          },
        }),
      };
    },
  });
  return { model, seen };
}

describe('aiSdkModel streamed: agent.stream() through streamText', () => {
  it('gives the provider’s text deltas in order, and runs the streamed tool calls through PreToolUse', async () => {
    const { tool, execute } = echoTool();
    const mock = mockStreamingModel([
      { ...toolCallAnswer('echo', { text: 'rm -rf /' }, 'c1'), content: [{ type: 'text', text: 'Let me try. ' }, ...toolCallAnswer('echo', { text: 'rm -rf /' }, 'c1').content] },
      toolCallAnswer('echo', { text: 'hi' }, 'c2'),
      textAnswer('All done now.'),
    ]);
    const agent = AgentBuilder.new()
      .withModel(aiSdkModel(mock))
      .withTools(tool)
      .onBeforeToolUse((ctx) => (String(ctx.toolCall.arg('text')).startsWith('rm') ? HookOutcome.block('no rm') : undefined))
      .build();

    const stream = agent.stream('Say hi');
    const events = await drain(stream);
    const result = await stream.result;

    expect(texts(events)).toEqual(['Let ', 'me ', 'try. ', 'All ', 'done ', 'now.']);
    expect(events.filter((e) => e.type === 'tool-call').map((e) => e.type === 'tool-call' && e.toolCall.toJSON())).toEqual([
      { id: 'c1', name: 'echo', args: { text: 'rm -rf /' } },
      { id: 'c2', name: 'echo', args: { text: 'hi' } },
    ]);
    expect(events.filter((e) => e.type === 'hook-decision').map((e) => e.type === 'hook-decision' && e.decision)).toEqual(['block', 'proceed']);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.text).toBe('All done now.');
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 13, totalTokens: 53 });
    // The provider was told what became of each call, with its own ids, as generate tells it.
    expect(toolResults(mock.doStreamCalls[2]!.prompt)).toEqual(['echo: Tool call blocked by a hook: no rm', 'echo: echo: hi']);
  });

  it('ends in the same conversation as run() on generate, and sends the provider the same prompts', async () => {
    const answers = [toolCallAnswer('echo', { text: 'one' }, 'c1'), toolCallAnswer('echo', { text: 'two' }, 'c2'), textAnswer('Done.')];
    const build = (model: ReturnType<typeof aiSdkModel>) =>
      AgentBuilder.new()
        .withModel(model)
        .withSystemPrompt('Be brief.')
        .withTools(echoTool().tool)
        .onAfterToolUse(() => HookOutcome.proceed(undefined, { additionalContext: 'noted' }))
        .build();

    const generating = mockModel(...answers);
    const ran = await build(aiSdkModel(generating)).run('Go');
    const streaming = mockStreamingModel(answers);
    const stream = build(aiSdkModel(streaming)).stream('Go');
    await drain(stream);
    const streamed = await stream.result;

    expect(streamed.messages).toEqual(ran.messages);
    expect(toolMessages(streamed.messages).map((m) => m.content)).toEqual(['echo: one', 'echo: two']);
    expect(streaming.doStreamCalls.map((c) => c.prompt)).toEqual(generating.doGenerateCalls.map((c) => c.prompt));
    expect(streaming.doStreamCalls.map((c) => c.tools)).toEqual(generating.doGenerateCalls.map((c) => c.tools));
  });

  it('streams text deltas, whole tool calls (not those the provider ran) and a finish with the usage and the finish reason', async () => {
    const mock = mockStreamingModel([
      {
        content: [
          { type: 'text', text: 'Searching.' },
          { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: '{"q":"x"}', providerExecuted: true },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"hi"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: usage(7, 3),
        warnings: [],
      },
    ]);
    const model = aiSdkModel(mock);
    const got = await parts(model.stream({ ...request, tools: [echoTool().tool] }));
    expect(got).toEqual([
      { type: 'text-delta', text: 'Searching.' },
      { type: 'tool-call', toolCall: { id: 'c1', name: 'echo', args: { text: 'hi' } } },
      { type: 'finish', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 }, finishReason: 'tool-calls', rawFinishReason: 'tool_use' },
    ]);
  });

  it('fails the run with the provider’s error when the stream has an error part', async () => {
    const error = new APICallError({ message: 'Overloaded', url: 'https://api.example.com', requestBodyValues: {}, statusCode: 529, isRetryable: false });
    const mock = new MockLanguageModelV3({
      doStream: {
        stream: new ReadableStream<ProviderStreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Half an ' });
            controller.enqueue({ type: 'error', error });
            controller.close();
          },
        }),
      },
    });
    const stream = AgentBuilder.new().withModel(aiSdkModel(mock)).build().stream('go', { rejectOnFailure: false });
    const events = await drain(stream);
    const result = await stream.result;
    expect(result.status).toBe('failed');
    expect(result.error).toBe(error);
    expect(events.at(-1)).toMatchObject({ type: 'run-end' });
  });

  it('fails the run with the provider’s error when the provider refuses the call', async () => {
    const error = new APICallError({ message: 'Incorrect API key', url: 'https://api.example.com', requestBodyValues: {}, statusCode: 401, isRetryable: false });
    const mock = new MockLanguageModelV3({
      doStream: async () => {
        throw error;
      },
    });
    await expect(parts(aiSdkModel(mock).stream(request))).rejects.toBe(error);
  });

  it('fails when the provider finishes with an error, as generate does', async () => {
    const mock = mockStreamingModel([{ content: [], finishReason: { unified: 'error', raw: 'server_error' }, usage: usage(1, 0), warnings: [] }]);
    const stream = parts(aiSdkModel(mock, { name: 'mock' }).stream(request));
    await expect(stream).rejects.toThrow(AiSdkModelError);
    await expect(stream).rejects.toThrow('The model mock finished with an error (server_error) and no usable answer.');
  });

  it('stops the provider’s stream when the reader leaves the loop mid-stream', async () => {
    const { model, seen } = endlessProvider();
    const got: string[] = [];
    for await (const part of aiSdkModel(model).stream(request)) {
      if (part.type === 'text-delta') got.push(part.text);
      if (got.length === 2) break;
    }
    expect(got).toEqual(['word1 ', 'word2 ']);
    await expect.poll(() => seen.cancelled).toBe(true);
    expect(seen.signal?.aborted).toBe(true);
    const pulls = seen.pulls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A cancelled stream is no longer read (at most the pull in progress when it was cancelled ends).
    expect(seen.pulls).toBeLessThanOrEqual(pulls + 1);
  });

  it('stops the provider’s stream when the agent’s stream is left mid-way: the run fails with the cancellation', async () => {
    const { model, seen } = endlessProvider();
    const stream = AgentBuilder.new().withModel(aiSdkModel(model)).build().stream('Talk forever', { rejectOnFailure: false });
    const got: string[] = [];
    for await (const event of stream) {
      if (event.type === 'text-delta') got.push(event.text);
      if (got.length === 3) break;
    }
    expect(got).toEqual(['word1 ', 'word2 ', 'word3 ']);
    await expect.poll(() => seen.cancelled).toBe(true);
    expect(seen.signal?.aborted).toBe(true);
    const result = await stream.result;
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(StreamCancelledError);
  });

  it('passes the run’s abort signal: cancelling the run stops the provider’s stream', async () => {
    const { model, seen } = endlessProvider();
    const controller = new AbortController();
    const stream = AgentBuilder.new().withModel(aiSdkModel(model)).build().stream('Talk forever', { signal: controller.signal, rejectOnFailure: false });
    const events: AgentStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (texts(events).length === 2) controller.abort(new Error('user cancelled'));
    }
    const result = await stream.result;
    expect(result.status).toBe('failed');
    expect(result.error).toEqual(new Error('user cancelled'));
    await expect.poll(() => seen.cancelled).toBe(true);
  });
});
