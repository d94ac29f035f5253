/**
 * Any Vercel AI SDK language model as the agent's {@link Model}.
 *
 * @module
 */
import { generateText, jsonSchema, tool, type CallSettings, type FinishReason, type LanguageModel, type Tool as AiTool } from 'ai';
import type { Model, ModelRequest, ModelResponse } from '../../agent/index.js';
import { IncrementalPrompt, isV3 } from './internal/incremental-prompt.js';
import { argsOf, toModelMessages } from './internal/messages.js';

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

/** The {@link Model} {@link aiSdkModel} returns: its answers carry the finish reason. */
export interface AiSdkModel extends Model {
  /** One step: one `generateText` call whose tools the agent runs. */
  generate(request: ModelRequest): Promise<AiSdkModelResponse>;
}

/** The model finished with the finish reason `error`: the run fails with this message (AgentFailed). */
export class AiSdkModelError extends Error {
  /** Always `'AiSdkModelError'`. */
  override readonly name = 'AiSdkModelError';
}

/**
 * Turns an AI SDK `LanguageModel` — `openai('gpt-4.1')`, `anthropic('claude-sonnet-4-5')`, a gateway id string, a
 * `MockLanguageModelV3` — into the agent's {@link Model}.
 *
 * Each step is one `generateText` call with `stopWhen` left at one step and tools that have no `execute`: the SDK
 * returns the model's tool calls without running them, so the agent runs them, with every hook around each one.
 * `generateText` rather than the provider's `doGenerate` because it accepts every form of model (V3 and V2
 * providers, gateway ids), converts the conversation for the provider, and retries rate limits and server errors
 * (`settings.maxRetries`, default 2).
 *
 * - The conversation: system messages (hooks' additional context) stay system messages; tool results are text. With
 *   a model object (specification v3, as every AI SDK 6 provider makes), each message is converted and validated once,
 *   not at every step: a step costs the same at the 200th step as at the 10th, but for the provider's own work. A
 *   model id string or a v2 model gets the whole conversation at every step.
 * - Tools: their JSON Schema (the input side of the zod schema) is what the model sees. The SDK only checks that the
 *   input is JSON; the agent validates it with the zod schema, so an invalid input is a tool failure the model is told
 *   about (PostToolUseFailure), not a crash. A call to a tool that does not exist is handed on the same way.
 * - Out: the text, the tool calls with the provider's ids, the usage (input, output, total tokens), and the finish
 *   reason. Provider-executed tool calls (web search run by the provider) are not handed to the agent.
 * - The run's abort signal is passed through. A provider error rejects `generate` with the provider's error, and a
 *   finish reason of `error` with an {@link AiSdkModelError}: the run fails and AgentFailed fires with that message.
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
  const prompts = isV3(model) ? new IncrementalPrompt() : undefined;
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
  return {
    name,
    async generate(request: ModelRequest): Promise<AiSdkModelResponse> {
      const tools: Record<string, AiTool> = {};
      for (const def of request.tools) tools[def.name] = sdkTool(def);
      // Only what the conversation gained since the last step is converted (and validated) by generateText; the
      // model of the call puts the rest, converted before, in front. See IncrementalPrompt.
      const step = prompts !== undefined && isV3(model) ? prompts.step(model, request.system, request.messages) : undefined;
      const result = await generateText({
        ...settings,
        ...(step !== undefined
          ? { model: step.model, messages: toModelMessages(step.fresh) }
          : {
              model: prompts !== undefined && isV3(model) ? prompts.whole(model, request.messages, request.system) : model,
              ...(request.system !== undefined ? { system: request.system } : {}),
              messages: toModelMessages(request.messages),
            }),
        // The agent's own system messages (hooks' additional context, compaction summaries) are not user input.
        allowSystemInMessages: true,
        ...(request.tools.length > 0 ? { tools } : {}),
        ...(request.signal !== undefined ? { abortSignal: request.signal } : {}),
      });
      if (result.finishReason === 'error') {
        throw new AiSdkModelError(`The model ${name} finished with an error${result.rawFinishReason ? ` (${result.rawFinishReason})` : ''} and no usable answer.`);
      }
      const toolCalls = result.toolCalls
        .filter((c) => !c.providerExecuted)
        .map((c) => ({ id: c.toolCallId, name: c.toolName, args: argsOf(c.input) }));
      const { inputTokens, outputTokens, totalTokens } = result.usage;
      const usage =
        inputTokens === undefined && outputTokens === undefined && totalTokens === undefined
          ? undefined
          : {
              ...(inputTokens !== undefined ? { inputTokens } : {}),
              ...(outputTokens !== undefined ? { outputTokens } : {}),
              ...(totalTokens !== undefined ? { totalTokens } : {}),
            };
      return {
        text: result.text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        ...(usage !== undefined ? { usage } : {}),
        finishReason: result.finishReason,
        rawFinishReason: result.rawFinishReason,
      };
    },
  };
}
