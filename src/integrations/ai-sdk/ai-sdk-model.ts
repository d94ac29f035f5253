/**
 * Any Vercel AI SDK language model as the agent's {@link Model}.
 *
 * @module
 */
import {
  generateText,
  jsonSchema,
  streamText,
  tool,
  type CallSettings,
  type FinishReason,
  type LanguageModel,
  type LanguageModelUsage,
  type Tool as AiTool,
} from 'ai';
import type { Model, ModelRequest, ModelResponse, ModelStreamPart, ModelToolCall } from '../../agent/index.js';
import type { Usage } from '../../core/index.js';
import { IncrementalPrompt, isCalledAsIs } from './internal/incremental-prompt.js';
import { argsOf, toModelMessages } from './internal/messages.js';
import { stoppingStreams } from './internal/stream-cancel.js';

/** What {@link aiSdkModel} passes to every `generateText` call besides the conversation and the tools. */
export type AiSdkCallSettings = Omit<CallSettings, 'abortSignal'> & {
  /** Provider-specific options, as `generateText` takes them (e.g. `{ openai: { reasoningEffort: 'low' } }`). */
  readonly providerOptions?: Parameters<typeof generateText>[0]['providerOptions'];
};

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /** A name for traces and errors (default: `<provider>:<modelId>`, or the model id string). */
  readonly name?: string | undefined;
  /** Temperature, output tokens, retries, headers, provider options… for every call. */
  readonly settings?: AiSdkCallSettings | undefined;
}

/** A model's answer, with what the AI SDK adds to our {@link ModelResponse}. */
export interface AiSdkModelResponse extends ModelResponse {
  /** Why the model stopped: `stop`, `tool-calls`, `length`, `content-filter` or `other` (`error` is thrown instead). */
  readonly finishReason: FinishReason;
  /** The provider's own finish reason, when it gave one. */
  readonly rawFinishReason: string | undefined;
}

/**
 * A piece of an {@link AiSdkModel}'s streamed answer: those of every {@link ModelStreamPart}, with the finish reason on
 * the `finish` part, as {@link AiSdkModelResponse} has it.
 */
export type AiSdkModelStreamPart =
  | {
      /** The next piece of the answer's text. */
      readonly type: 'text-delta';
      /** The text. */
      readonly text: string;
    }
  | {
      /** One whole tool call, its arguments complete. */
      readonly type: 'tool-call';
      /** The call, with the provider's id. */
      readonly toolCall: ModelToolCall;
    }
  | {
      /** The answer is complete. */
      readonly type: 'finish';
      /** The tokens the call used, when the provider reported them. */
      readonly usage?: Usage | undefined;
      /** Why the model stopped (`error` is thrown instead). */
      readonly finishReason: FinishReason;
      /** The provider's own finish reason, when it gave one. */
      readonly rawFinishReason: string | undefined;
    };

/** The {@link Model} {@link aiSdkModel} returns: its answers carry the finish reason. */
export interface AiSdkModel extends Model {
  /** One step: one `generateText` call whose tools the agent runs. */
  generate(request: ModelRequest): Promise<AiSdkModelResponse>;
  /** One step streamed: one `streamText` call whose tools the agent runs (what `agent.stream()` uses). */
  stream(request: ModelRequest): AsyncIterable<AiSdkModelStreamPart>;
}

/** The model finished with the finish reason `error`: the run fails with this message (AgentFailed). */
export class AiSdkModelError extends Error {
  /** Always `'AiSdkModelError'`. */
  override readonly name = 'AiSdkModelError';
}

/**
 * Turns an AI SDK `LanguageModel` — `openai('gpt-4.1')`, `anthropic('claude-sonnet-4-5')`, a gateway id string, a
 * `MockLanguageModelV3` or `MockLanguageModelV4` — into the agent's {@link Model}. AI SDK 6 or 7.
 *
 * Each step is one `generateText` call with `stopWhen` left at one step and tools that have no `execute`: the SDK
 * returns the model's tool calls without running them, so the agent runs them, with every hook around each one.
 * `generateText` rather than the provider's `doGenerate` because it accepts every form of model (V4, V3 and V2
 * providers, gateway ids), converts the conversation for the provider, and retries rate limits and server errors
 * (`settings.maxRetries`, default 2).
 *
 * - The conversation: system messages (hooks' additional context) stay system messages; tool results are text. With
 *   a model object (specification v3 or v4, as every provider of AI SDK 6 or 7 makes), each message is converted and
 *   validated once, not at every step: a step costs the same at the 200th step as at the 10th, but for the provider's
 *   own work. A model id string or a v2 model gets the whole conversation at every step.
 * - Tools: their JSON Schema (the input side of the zod schema) is what the model sees. The SDK only checks that the
 *   input is JSON; the agent validates it with the zod schema, so an invalid input is a tool failure the model is told
 *   about (PostToolUseFailure), not a crash. A call to a tool that does not exist is handed on the same way.
 * - Out: the text, the tool calls with the provider's ids, the usage (input, output, total tokens), and the finish
 *   reason. Provider-executed tool calls (web search run by the provider) are not handed to the agent.
 * - The run's abort signal is passed through. A provider error rejects `generate` with the provider's error, and a
 *   finish reason of `error` with an {@link AiSdkModelError}: the run fails and AgentFailed fires with that message.
 * - Streamed (`agent.stream()`): `stream` makes the same call through `streamText` and hands out the text as the
 *   provider writes it, each tool call once its input is complete, and a `finish` with the usage and the finish
 *   reason. An `error` part of the AI SDK's stream fails it with the provider's error, and a finish reason of `error`
 *   with an {@link AiSdkModelError}, as `generate` fails. Leaving the loop early (the iterator's `return`, as the agent
 *   does when the run is cancelled) aborts the call: the provider's stream is cancelled, and an HTTP provider's
 *   request aborted.
 *
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { aiSdkModel } from 'agent-hooks/ai-sdk';
 *
 * const agent = AgentBuilder.new().withModel(aiSdkModel(openai('gpt-4.1'))).withTools(bash).build();
 * ```
 */
export function aiSdkModel(model: LanguageModel, options: AiSdkModelOptions = {}): AiSdkModel {
  if (model === null || model === undefined || (typeof model !== 'string' && typeof model !== 'object')) {
    throw new TypeError(`aiSdkModel() needs an AI SDK LanguageModel (e.g. openai('gpt-4.1')), got ${String(model)}.`);
  }
  const name = options.name ?? (typeof model === 'string' ? model : `${model.provider}:${model.modelId}`);
  const settings = options.settings ?? {};
  const prompts = isCalledAsIs(model) ? new IncrementalPrompt() : undefined;
  // A tool definition is the same object from step to step: its AI SDK tool is made once.
  const sdkTools = new WeakMap<ModelRequest['tools'][number], AiTool>();
  const sdkTool = (def: ModelRequest['tools'][number]): AiTool => {
    let made = sdkTools.get(def);
    if (made === undefined) {
      made = tool({ description: def.description, inputSchema: jsonSchema(def.inputSchema as Parameters<typeof jsonSchema>[0]) });
      sdkTools.set(def, made);
    }
    return made;
  };
  // Streams of a model object stop when their call is aborted; see stoppingStreams.
  const streaming = isCalledAsIs(model) ? stoppingStreams(model) : model;

  /** What `generateText` and `streamText` both take for `request`, bar the call settings and the signal. */
  const callOf = (request: ModelRequest, target: LanguageModel) => {
    const tools: Record<string, AiTool> = {};
    for (const def of request.tools) tools[def.name] = sdkTool(def);
    // Only what the conversation gained since the last step is converted (and validated) by the AI SDK; the model of
    // the call puts the rest, converted before, in front. See IncrementalPrompt.
    const step = prompts !== undefined && isCalledAsIs(target) ? prompts.step(target, request.system, request.messages) : undefined;
    return {
      ...(step !== undefined
        ? { model: step.model, messages: toModelMessages(step.fresh) }
        : {
            model: prompts !== undefined && isCalledAsIs(target) ? prompts.whole(target, request.messages, request.system) : target,
            ...(request.system !== undefined ? { system: request.system } : {}),
            messages: toModelMessages(request.messages),
          }),
      // The agent's own system messages (hooks' additional context, compaction summaries) are not user input.
      allowSystemInMessages: true,
      ...(request.tools.length > 0 ? { tools } : {}),
    };
  };
  const failed = (rawFinishReason: string | undefined) =>
    new AiSdkModelError(`The model ${name} finished with an error${rawFinishReason ? ` (${rawFinishReason})` : ''} and no usable answer.`);

  return {
    name,
    async generate(request: ModelRequest): Promise<AiSdkModelResponse> {
      const result = await generateText({
        ...settings,
        ...callOf(request, model),
        ...(request.signal !== undefined ? { abortSignal: request.signal } : {}),
      });
      if (result.finishReason === 'error') throw failed(result.rawFinishReason);
      const toolCalls = result.toolCalls
        .filter((c) => !c.providerExecuted)
        .map((c) => ({ id: c.toolCallId, name: c.toolName, args: argsOf(c.input) }));
      const usage = usageOf(result.usage);
      return {
        text: result.text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        ...(usage !== undefined ? { usage } : {}),
        finishReason: result.finishReason,
        rawFinishReason: result.rawFinishReason,
      };
    },

    async *stream(request: ModelRequest): AsyncGenerator<AiSdkModelStreamPart> {
      // Aborted when the reader leaves early: streamText goes on reading its provider otherwise.
      const stop = new AbortController();
      const signal = request.signal === undefined ? stop.signal : AbortSignal.any([request.signal, stop.signal]);
      const result = streamText({
        ...settings,
        ...callOf(request, streaming),
        abortSignal: signal,
        // Errors are thrown to the agent from the stream's `error` part, not logged.
        onError: () => {},
      });
      let done = false;
      try {
        for await (const part of result.fullStream) {
          switch (part.type) {
            case 'text-delta':
              if (part.text !== '') yield { type: 'text-delta', text: part.text };
              break;
            case 'tool-call':
              if (!part.providerExecuted) yield { type: 'tool-call', toolCall: { id: part.toolCallId, name: part.toolName, args: argsOf(part.input) } };
              break;
            case 'error':
              throw part.error;
            case 'abort':
              throw signal.reason;
            case 'finish': {
              if (part.finishReason === 'error') throw failed(part.rawFinishReason);
              const usage = usageOf(part.totalUsage);
              yield { type: 'finish', ...(usage !== undefined ? { usage } : {}), finishReason: part.finishReason, rawFinishReason: part.rawFinishReason };
              break;
            }
          }
        }
        done = true;
      } finally {
        if (!done) stop.abort(new DOMException('The model call was cancelled: its stream was left before the end.', 'AbortError'));
      }
    },
  };
}

/** The tokens the AI SDK reports, as our {@link Usage}; `undefined` when it reports none. */
function usageOf(usage: LanguageModelUsage): Usage | undefined {
  const { inputTokens, outputTokens, totalTokens } = usage;
  if (inputTokens === undefined && outputTokens === undefined && totalTokens === undefined) return undefined;
  return {
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(totalTokens !== undefined ? { totalTokens } : {}),
  };
}
