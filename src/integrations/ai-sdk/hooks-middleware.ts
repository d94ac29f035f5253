/**
 * The hooks around each model call of an AI SDK loop, as a language model middleware.
 *
 * @module
 */
import type { LanguageModelMiddleware } from 'ai';
import type { Message, ModelCallResponse, ToolCall } from '../../core/index.js';
import { ConversationOverlay } from '../internal/conversation-overlay.js';
import { LoopHooks, type HookSource, type LoopHooksOptions, type ModelCallResult } from '../loop-hooks.js';
import {
  addProviderUsage,
  generateResultFor,
  readStream,
  responseOf,
  stepOf,
  streamOf,
  streamPartsFor,
  streamUsage,
  toolCallOf,
  usageOf,
} from './internal/call-answer.js';
import { CallRequest, promptOf } from './internal/call-request.js';
import { IncrementalMessages, sameMessage } from './internal/messages.js';
import type { CallOptions, GenerateResult, PromptMessage, ProviderModel, ProviderUsage, StreamPart, StreamResult } from './internal/provider-types.js';

const ZERO_USAGE: ProviderUsage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The finish reason of a model call a hook's `stop` answered instead of the model. */
export const HOOK_STOP_FINISH_REASON = 'hook_stop';

/**
 * The raw finish reason of an answer a BeforeModel hook gave instead of the model (its answer, or its block's reason):
 * the unified reason is `tool-calls` when the answer calls tools, else `stop`, so the loop goes on as with the model's.
 */
export const HOOK_ANSWER_FINISH_REASON = 'hook_answer';

const stopResult = (): GenerateResult => ({ content: [], finishReason: { unified: 'other', raw: HOOK_STOP_FINISH_REASON }, usage: ZERO_USAGE, warnings: [] });

const stopStream = (): StreamResult => ({
  stream: streamOf([
    { type: 'stream-start', warnings: [] },
    { type: 'finish', finishReason: { unified: 'other', raw: HOOK_STOP_FINISH_REASON }, usage: ZERO_USAGE },
  ]),
});

/** The name the model events' matchers test: the one {@link aiSdkModel} gives the same model. */
const nameOf = (model: ProviderModel): string => `${model.provider}:${model.modelId}`;

/**
 * A `LanguageModelMiddleware` (AI SDK 6 or 7, models of specification v3 or v4) that fires our events around each
 * model call of a `generateText` or `streamText` loop, as our agent fires them around its own. Use it with
 * `wrapLanguageModel`, and with the same {@link LoopHooks} as the tools of {@link withHooks}. What fires, and when:
 *
 * | our event | when | what an outcome does |
 * |---|---|---|
 * | BeforeStep | before each model call of the loop (each attempt, when the SDK retries) | `additionalContext` from any hook since the last call (tool hooks included) is sent with this call, as a system message at the end of the prompt, and stays in the prompts of the later calls, as in our agent's conversation; a returned `AgentState` replaces the state |
 * | BeforeModel | around the provider call (`wrapGenerate`, `wrapStream`): its chain ends in BeforeToolSelection and the call, so a Hook class's `handle(ctx, next)` wraps it | a rewritten request (system prompt, messages, tools, `temperature`, `maxOutputTokens`, `topP`, `stopSequences`) is what the provider gets, for this call only; an answer given instead (`withResponse`, a returned string) skips the provider, with the raw finish reason `hook_answer`; a block answers with its reason |
 * | BeforeToolSelection | just before the provider call | the provider is offered only the tools it allows; mode `any` sets `toolChoice` to `required` (or to the one tool left), mode `none` offers no tool; a call the answer makes to a tool not offered is refused by the tools of {@link withHooks} (the SDK itself would run it) |
 * | AfterModel | once the answer is complete, before the SDK sees it | a rewritten answer (text, tool calls) is what the SDK gets, and the tools it runs; a block has the provider called again with the reason as a user message after the conversation (kept in the later prompts), at most `modelRetryLimit` (3) times, then the last answer stands with a `model-retry-forced` warning |
 * | AfterStep | when the answer is final: with `generateText` before the SDK runs that step's tools (unlike the agent runtime, where AfterStep follows the tools); with `streamText` once the answer is decided (held answers) or at the end of the stream (live ones), while the SDK may already be running tools whose calls have streamed | the step (text, tool calls with their ids, usage of every call made) is in `ctx.step` and in `state.steps` |
 * | `stop` from any hook | — | the model call is not made (or its answer is dropped): the middleware answers with no content and the finish reason `other` (raw: `hook_stop`), so the loop ends; `hooks.stopReason` says why |
 *
 * Streams (`streamText`): with a hook on BeforeModel or AfterModel, the answer is decided whole before any of it
 * streams, as our agent's `checked` streams hold it: the provider's stream is read to the end, the hooks decide, and
 * the SDK gets the provider's own parts when the answer stands as it was, or the rewritten text as one delta and the
 * tool calls otherwise. With no such hook (BeforeStep, BeforeToolSelection and tool hooks only), the provider's stream
 * passes through live. An answer a hook gave instead of the model streams as one text delta, its tool calls and a
 * finish.
 *
 * A hook that throws under `onHookError: 'fail'` (the default) fails the call: `generateText` rejects with its
 * `HookError` (`streamText` has it as an `error` part), and the conversation's later calls reject with it before the
 * provider is called (see {@link LoopHooks.failure}). Under `'ignore'` the hook is skipped with a `hook-error`
 * warning; under `'block'` its failure counts as a block of the event.
 *
 * ExecutionStart, UserPromptSubmit, Stop and ExecutionEnd do not fire: the middleware sees model calls, not where a
 * loop starts or ends. A provider error goes to the SDK unchanged, unless a BeforeModel middleware handles it (no
 * AgentFailed: the SDK may retry).
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
  const conversation = new IncrementalMessages<PromptMessage>();
  // What the hooks added to the conversation, which the SDK's own history does not keep.
  const overlay = new ConversationOverlay<PromptMessage>(sameMessage);
  // The last call's parameters as transformParams left them, the SDK's own prompt and the prompt converted: its
  // wrapGenerate or wrapStream comes next. Only the last is kept, so that no conversation but the current one is held.
  let transformed: { readonly params: CallOptions; readonly own: readonly PromptMessage[]; readonly messages: readonly Message[] } | undefined;

  /** The call of `params` as the hooks see it. */
  const requestOf = (params: CallOptions): { own: readonly PromptMessage[]; call: CallRequest } => {
    if (transformed?.params === params) return { own: transformed.own, call: new CallRequest(params, conversation, transformed.messages) };
    return { own: params.prompt, call: new CallRequest(params, conversation, conversation.convert(params.prompt)) };
  };

  /** Keeps what the hooks added during a call in the later prompts, and reports the step. */
  const finish = async (own: readonly PromptMessage[], outcome: ModelCallResult, usage: ProviderUsage | undefined, signal: AbortSignal | undefined) => {
    overlay.add(own, promptOf(outcome.added));
    const { text, toolCalls } = outcome.response;
    await loop.afterStep({ text, toolCalls, usage: usage === undefined ? outcome.response.usage : usageOf(usage) }, signal);
  };

  return {
    specificationVersion: 'v3',

    async transformParams({ params }): Promise<CallOptions> {
      // A conversation a hook failed makes no more model calls, whatever called the model (tools not wrapped, say).
      loop.throwIfFailed();
      const own = params.prompt;
      let prompt = overlay.apply(own);
      let messages = conversation.convert(prompt);
      loop.setMessages(messages);
      if (!stopped()) {
        await loop.beforeStep(params.abortSignal);
        const context = loop.takeContext();
        if (context.length > 0) {
          const added: PromptMessage = { role: 'system', content: context.join('\n\n') };
          overlay.add(own, [added]);
          prompt = [...prompt, added];
          messages = conversation.convert(prompt);
          loop.setMessages(messages);
        }
      }
      const out = prompt === own ? params : { ...params, prompt: [...prompt] };
      transformed = { params: out, own, messages };
      return out;
    },

    async wrapGenerate({ doGenerate, params, model }): Promise<GenerateResult> {
      loop.throwIfFailed();
      if (stopped()) return stopResult();
      const events = await loop.modelEvents();
      if (!events.beforeModel && !events.toolSelection && !events.afterModel) {
        // No hook around the model call: the call as it is, and its step, without a request to build.
        const result = await doGenerate();
        const { text, toolCalls } = stepOf(result.content);
        await loop.afterStep({ text, toolCalls, usage: usageOf(result.usage) }, params.abortSignal);
        return result;
      }
      const { own, call } = requestOf(params);
      const results = new Map<ModelCallResponse, GenerateResult>();
      let last: GenerateResult | undefined;
      let usage: ProviderUsage | undefined;
      const outcome = await loop.modelCall(
        call.request,
        async (request) => {
          const sent = call.paramsFor(request);
          const result = sent === params ? await doGenerate() : await model.doGenerate(sent);
          usage = addProviderUsage(usage, result.usage);
          last = result;
          const response = responseOf(result.content, result.usage);
          results.set(response, result);
          return response;
        },
        { signal: params.abortSignal, modelName: nameOf(model) },
      );
      if (outcome.stopped !== undefined) return stopResult();
      const original = outcome.synthetic ? undefined : (results.get(outcome.response) ?? last);
      const result = generateResultFor(outcome.response, original, results.has(outcome.response), usage ?? ZERO_USAGE, HOOK_ANSWER_FINISH_REASON);
      await finish(own, outcome, usage, params.abortSignal);
      return result;
    },

    async wrapStream({ doStream, params, model }): Promise<StreamResult> {
      loop.throwIfFailed();
      if (stopped()) return stopStream();
      const events = await loop.modelEvents();
      const report = (text: string, toolCalls: ToolCall[], usage: ProviderUsage | undefined) => loop.afterStep({ text, toolCalls, usage: usageOf(usage) }, params.abortSignal);
      if (!events.beforeModel && !events.toolSelection && !events.afterModel) {
        const { stream, ...rest } = await doStream();
        return { ...rest, stream: stream.pipeThrough(watching(report)) };
      }
      const { own, call } = requestOf(params);
      const options = { signal: params.abortSignal, modelName: nameOf(model) };

      if (!events.beforeModel && !events.afterModel) {
        // Nothing waits for the answer: the provider's stream passes through live, the step reported at its end.
        let started: StreamResult | undefined;
        const outcome = await loop.modelCall(
          call.request,
          async (request) => {
            const sent = call.paramsFor(request);
            started = sent === params ? await doStream() : await model.doStream(sent);
            return {};
          },
          options,
        );
        if (outcome.stopped !== undefined || started === undefined) return stopStream();
        const { stream, ...rest } = started;
        return { ...rest, stream: stream.pipeThrough(watching(report)) };
      }

      // A hook decides on the whole answer: it is read to the end first, as our agent's checked streams hold it.
      const results = new Map<ModelCallResponse, StreamPart[]>();
      let last: StreamPart[] | undefined;
      let usage: ProviderUsage | undefined;
      let meta: Omit<StreamResult, 'stream'> = {};
      const outcome = await loop.modelCall(
        call.request,
        async (request) => {
          const sent = call.paramsFor(request);
          const { stream, ...rest } = sent === params ? await doStream() : await model.doStream(sent);
          const parts = await readStream(stream);
          meta = rest;
          const used = streamUsage(parts);
          if (used !== undefined) usage = addProviderUsage(usage, used);
          last = parts;
          const response = responseOf(parts, used);
          results.set(response, parts);
          return response;
        },
        options,
      );
      if (outcome.stopped !== undefined) return stopStream();
      const original = outcome.synthetic ? undefined : (results.get(outcome.response) ?? last);
      const parts = streamPartsFor(outcome.response, original, results.has(outcome.response), usage ?? ZERO_USAGE, HOOK_ANSWER_FINISH_REASON);
      await finish(own, outcome, usage, params.abortSignal);
      return { ...(outcome.synthetic ? {} : meta), stream: streamOf(parts) };
    },
  };
}

/** Passes a provider's stream on as it is, and hands `done` its text, tool calls and usage at the end. */
function watching(done: (text: string, toolCalls: ToolCall[], usage: ProviderUsage | undefined) => Promise<void>): TransformStream<StreamPart, StreamPart> {
  let text = '';
  const toolCalls: ToolCall[] = [];
  let usage: ProviderUsage | undefined;
  return new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      if (part.type === 'text-delta') text += part.delta;
      else if (part.type === 'tool-call' && !part.providerExecuted) toolCalls.push(toolCallOf(part));
      else if (part.type === 'finish') usage = part.usage;
      controller.enqueue(part);
    },
    flush: () => done(text, toolCalls, usage),
  });
}
