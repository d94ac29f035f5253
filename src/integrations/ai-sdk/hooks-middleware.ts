/**
 * The step events around each model call of an AI SDK loop, as a language model middleware.
 *
 * @module
 */
import type { LanguageModelMiddleware } from 'ai';
import { ToolCall, type Usage } from '../../core/index.js';
import { LoopHooks, type HookSource, type LoopHooksOptions } from '../loop-hooks.js';
import { argsOf, IncrementalMessages } from './internal/messages.js';

type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
type CallOptions = Parameters<WrapGenerate>[0]['params'];
type ProviderUsage = GenerateResult['usage'];

const NO_USAGE: ProviderUsage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The finish reason of a model call a hook's `stop` answered instead of the model. */
export const HOOK_STOP_FINISH_REASON = 'hook_stop';

const usageOf = (usage: ProviderUsage | undefined): Usage | undefined => {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  if (input === undefined && output === undefined) return undefined;
  return {
    ...(input !== undefined ? { inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(input !== undefined && output !== undefined ? { totalTokens: input + output } : {}),
  };
};

const toolCallOf = (part: { toolCallId: string; toolName: string; input: string }): ToolCall => {
  let input: unknown;
  try {
    input = JSON.parse(part.input || '{}');
  } catch {
    input = {};
  }
  return new ToolCall(part.toolName, argsOf(input), part.toolCallId);
};

/**
 * A `LanguageModelMiddleware` (AI SDK 6, specification v3) that fires the step events around each model call of a
 * `generateText` or `streamText` loop. Use it with `wrapLanguageModel`, and with the same {@link LoopHooks} as the tools
 * of {@link withHooks}. What fires, and when:
 *
 * | our event | when | what an outcome does |
 * |---|---|---|
 * | BeforeStep | before each model call (each attempt, when the SDK retries) | `additionalContext` from any hook since the last call (tool hooks included) is sent with this call, as a system message at the end of the prompt; a returned `AgentState` replaces the state |
 * | AfterStep | when the model's answer is complete: with `generateText` before the SDK runs that step's tools (unlike the agent runtime, where AfterStep follows the tools); with `streamText` at the end of the stream, while the SDK may already be running tools whose calls have streamed | the step (text, tool calls with their ids, usage) is in `ctx.step` and in `state.steps` |
 * | `stop` from any hook | — | the next model call is not made: the middleware answers it with no content and the finish reason `other` (raw: `hook_stop`), so the loop ends; `hooks.stopReason` says why |
 *
 * ExecutionStart, UserPromptSubmit, Stop and ExecutionEnd do not fire: the middleware sees model calls, not where a
 * loop starts or ends. A provider error goes to the SDK unchanged (no AgentFailed: the SDK may retry).
 *
 * ```ts
 * const hooks = new LoopHooks(stack);
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: hooksMiddleware(hooks) });
 * await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(10), prompt });
 * ```
 */
export function hooksMiddleware(hooks: HookSource, options?: LoopHooksOptions): LanguageModelMiddleware {
  const loop = LoopHooks.from(hooks, options);
  const stopped = () => loop.stopReason !== undefined;
  // The prompt of each call repeats the last one's and adds the step's messages: only those are converted.
  const conversation = new IncrementalMessages();

  return {
    specificationVersion: 'v3',

    async transformParams({ params }): Promise<CallOptions> {
      loop.setMessages(conversation.convert(params.prompt));
      if (stopped()) return params;
      await loop.beforeStep(params.abortSignal);
      const context = loop.takeContext();
      if (context.length === 0) return params;
      return { ...params, prompt: [...params.prompt, { role: 'system', content: context.join('\n\n') }] };
    },

    async wrapGenerate({ doGenerate, params }): Promise<GenerateResult> {
      if (stopped()) {
        return { content: [], finishReason: { unified: 'other', raw: HOOK_STOP_FINISH_REASON }, usage: NO_USAGE, warnings: [] };
      }
      const result = await doGenerate();
      const text = result.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const toolCalls = result.content.flatMap((p) => (p.type === 'tool-call' && !p.providerExecuted ? [toolCallOf(p)] : []));
      await loop.afterStep({ text, toolCalls, usage: usageOf(result.usage) }, params.abortSignal);
      return result;
    },

    async wrapStream({ doStream, params }): Promise<StreamResult> {
      if (stopped()) {
        const parts: StreamPart[] = [
          { type: 'stream-start', warnings: [] },
          { type: 'finish', finishReason: { unified: 'other', raw: HOOK_STOP_FINISH_REASON }, usage: NO_USAGE },
        ];
        return { stream: new ReadableStream<StreamPart>({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
      }
      const { stream, ...rest } = await doStream();
      let text = '';
      const toolCalls: ToolCall[] = [];
      let usage: ProviderUsage | undefined;
      const watch = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') text += part.delta;
          else if (part.type === 'tool-call' && !part.providerExecuted) toolCalls.push(toolCallOf(part));
          else if (part.type === 'finish') usage = part.usage;
          controller.enqueue(part);
        },
        flush: () => loop.afterStep({ text, toolCalls, usage: usageOf(usage) }, params.abortSignal),
      });
      return { stream: stream.pipeThrough(watch), ...rest };
    },
  };
}
