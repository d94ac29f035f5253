/**
 * An OpenAI Agents SDK model whose calls run through the hooks around the model call.
 *
 * @module
 */
import { Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import type { ModelCallResponse } from '../../core/index.js';
import { ConversationOverlay } from '../internal/conversation-overlay.js';
import { LoopHooks, type HookSource, type LoopHooksOptions, type ModelCallResult } from '../loop-hooks.js';
import { modelResponseFor, responseDone, responseOf, stoppedResponse, streamEventsFor, streamUsage, usageOf } from './internal/call-answer.js';
import { CallRequest, inputItemsOf } from './internal/call-request.js';

/** Options of {@link withModelHooks}: those of {@link LoopHooks}, and the model's name. */
export interface ModelHooksOptions extends LoopHooksOptions {
  /** The name a string matcher of the model events tests (an SDK `Model` has none of its own), e.g. `gpt-4.1`. */
  readonly modelName?: string | undefined;
}

/** Input items as one conversation's hooks added them, by conversation: shared by every model wrapped with its hooks. */
const overlays = new WeakMap<LoopHooks, ConversationOverlay<AgentInputItem>>();

const sameItem = (a: AgentInputItem, b: AgentInputItem): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Wraps an OpenAI Agents SDK `Model` so that each of its calls runs through our hooks, as our agent runs its own model
 * calls — the SDK's `Model` interface (`getResponse`, `getStreamedResponse`) is its hook point around the model call:
 *
 * | our event | what an outcome does |
 * |---|---|
 * | BeforeStep | before each call; `additionalContext` from any hook since the last call (tool hooks of {@link withHooks} included) is sent as a system message after the input, and stays in the input of later calls, as in our agent's conversation |
 * | BeforeModel | its chain ends in BeforeToolSelection and the model's call, so a Hook class's `handle(ctx, next)` wraps it; a rewritten request (instructions as the system prompt, input items as messages, tools and handoffs, `temperature`, `maxTokens`, `topP`) is what the model gets, for this call only; an answer given instead skips the model; a block answers with its reason |
 * | BeforeToolSelection | the model is offered only the tools and handoffs it allows; mode `any` sets `toolChoice` to `required` (or to the one tool left), mode `none` offers none; a call to a function tool not offered is refused by the tools of {@link withHooks} (the runner itself would run it) |
 * | AfterModel | a rewritten answer (text, function calls) is what the runner gets; a block has the model called again with the reason as a user message after the input (kept in later calls), at most `modelRetryLimit` (3) times, then the last answer stands with a `model-retry-forced` warning |
 * | AfterStep | once the answer is decided, before the runner runs its tools |
 * | `stop` from any hook | the model is not called again: an empty answer ends the run; `hooks.stopReason` says why |
 *
 * Streamed runs (`run(agent, input, { stream: true })`): with a hook on BeforeModel or AfterModel, the answer is decided
 * whole before any of it streams (the model's stream is read to the end, then its own events are given when the answer
 * stands, or the rewritten text as one delta); with none, the model's stream passes through live.
 *
 * What the SDK does not let a model wrapper do: `stopSequences` is not one of its model settings (a hook setting it
 * gets a warning); with a server-side conversation (`previousResponseId`, `conversationId`) the server keeps what was
 * sent, so what the hooks added is not sent again. The run's own start, stop and end (ExecutionStart, Stop,
 * ExecutionEnd) are not model calls and do not fire here.
 *
 * A hook that throws under `onHookError: 'fail'` (the default) fails the run: the model call rejects with the
 * `HookError`, so `run` does (a streamed run ends on it), and the conversation's later model calls and tool calls
 * reject with it before anything runs (`hooks.failure`). Under `'ignore'` the hook is skipped with a `hook-error`
 * warning; under `'block'` its failure counts as a block of the event.
 *
 * Use one {@link LoopHooks} per conversation, shared with the tools of {@link withHooks}:
 *
 * ```ts
 * import { Agent, OpenAIProvider, run } from '@openai/agents';
 * import { LoopHooks, withHooks, withModelHooks } from 'agent-hooks/openai-agents';
 *
 * const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom(process.cwd()));
 * const model = withModelHooks(await new OpenAIProvider().getModel('gpt-4.1'), hooks, { modelName: 'gpt-4.1' });
 * await run(new Agent({ name: 'ops', model, tools: withHooks([bash], hooks) }), 'Clean up the build folder');
 * await hooks.drain();
 * ```
 */
export function withModelHooks(model: Model, hooks: HookSource, options: ModelHooksOptions = {}): Model {
  if (model === null || typeof model !== 'object' || typeof model.getResponse !== 'function') {
    throw new TypeError(`withModelHooks() takes an OpenAI Agents SDK Model (with getResponse), got ${model === null ? 'null' : typeof model}.`);
  }
  const loop = LoopHooks.from(hooks, options);
  let overlay = overlays.get(loop);
  if (overlay === undefined) overlays.set(loop, (overlay = new ConversationOverlay(sameItem)));
  const conversation = overlay;
  const { modelName } = options;
  const unsupported = (setting: string) =>
    loop.events.emit('warning', { code: 'unsupported-setting', message: `A BeforeModel hook set ${setting}, which the OpenAI Agents SDK's model settings do not have; it was not sent.`, event: 'BeforeModel' });

  /** BeforeStep, the hooks' context, and the call as the hooks see it; `undefined` once a hook has stopped the run. */
  const begin = async (request: ModelRequest) => {
    const own: readonly AgentInputItem[] = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
    // A conversation the server keeps (previousResponseId, conversationId) already has what was sent.
    const local = request.previousResponseId === undefined && request.conversationId === undefined;
    let input = local ? conversation.apply(own) : own;
    let call = new CallRequest(input === own ? request : { ...request, input: [...input] });
    loop.setMessages(call.request.messages);
    await loop.beforeStep(request.signal);
    if (loop.stopReason !== undefined) return undefined;
    const context = loop.takeContext();
    if (context.length > 0) {
      const added: AgentInputItem = { role: 'system', content: context.join('\n\n') };
      if (local) conversation.add(own, [added]);
      input = [...input, added];
      call = new CallRequest({ ...request, input: [...input] });
      loop.setMessages(call.request.messages);
    }
    return { own, local, call };
  };

  /** Keeps what the hooks added in later calls, and reports the step. */
  const finish = async (own: readonly AgentInputItem[], local: boolean, outcome: ModelCallResult, usage: Usage, signal: AbortSignal | undefined) => {
    if (local) conversation.add(own, outcome.added.flatMap(inputItemsOf));
    const { text, toolCalls } = outcome.response;
    await loop.afterStep({ text, toolCalls, usage: usage.requests > 0 ? usageOf(usage) : outcome.response.usage }, signal);
  };

  return {
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      if (loop.stopReason !== undefined) return stoppedResponse();
      const started = await begin(request);
      if (started === undefined) return stoppedResponse();
      const { own, local, call } = started;
      const results = new Map<ModelCallResponse, ModelResponse>();
      const usage = new Usage();
      let last: ModelResponse | undefined;
      const outcome = await loop.modelCall(
        call.request,
        async (wanted) => {
          const result = await model.getResponse(call.requestFor(wanted, unsupported));
          usage.add(result.usage);
          last = result;
          const response = responseOf(result.output, result.usage);
          results.set(response, result);
          return response;
        },
        { signal: request.signal, modelName },
      );
      if (outcome.stopped !== undefined) return stoppedResponse();
      const original = outcome.synthetic ? undefined : (results.get(outcome.response) ?? last);
      const answer = modelResponseFor(outcome.response, original, results.has(outcome.response), usage);
      await finish(own, local, outcome, usage, request.signal);
      return answer;
    },

    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      const stopped = () => streamEventsFor(stoppedResponseAnswer, undefined, false, new Usage());
      if (loop.stopReason !== undefined) return yield* stopped();
      const started = await begin(request);
      if (started === undefined) return yield* stopped();
      const { own, local, call } = started;
      const events = await loop.modelEvents();
      const options = { signal: request.signal, modelName };

      if (!events.beforeModel && !events.afterModel) {
        // Nothing waits for the answer: the model's stream passes through live, the step reported at its end.
        let stream: AsyncIterable<StreamEvent> | undefined;
        const outcome = await loop.modelCall(
          call.request,
          (wanted) => {
            stream = model.getStreamedResponse(call.requestFor(wanted, unsupported));
            return {};
          },
          options,
        );
        if (outcome.stopped !== undefined || stream === undefined) return yield* stopped();
        let done: StreamEvent | undefined;
        for await (const event of stream) {
          if (event.type === 'response_done') done = event;
          yield event;
        }
        const response = done?.type === 'response_done' ? responseOf(done.response.output, streamUsage(done)) : stoppedResponseAnswer;
        await loop.afterStep({ text: response.text, toolCalls: response.toolCalls, usage: response.usage }, request.signal);
        return;
      }

      // A hook decides on the whole answer: it is read to the end first, as our agent's checked streams hold it.
      const results = new Map<ModelCallResponse, StreamEvent[]>();
      const usage = new Usage();
      let last: StreamEvent[] | undefined;
      const outcome = await loop.modelCall(
        call.request,
        async (wanted) => {
          const streamed: StreamEvent[] = [];
          for await (const event of model.getStreamedResponse(call.requestFor(wanted, unsupported))) streamed.push(event);
          const done = responseDone(streamed);
          if (done === undefined) throw new Error('The model’s stream ended without a response (no response_done event).');
          const used = streamUsage(done);
          usage.add(used);
          last = streamed;
          const response = responseOf(done.response.output, used);
          results.set(response, streamed);
          return response;
        },
        options,
      );
      if (outcome.stopped !== undefined) return yield* stopped();
      const original = outcome.synthetic ? undefined : (results.get(outcome.response) ?? last);
      const replay = streamEventsFor(outcome.response, original, results.has(outcome.response), usage);
      await finish(own, local, outcome, usage, request.signal);
      yield* replay;
    },

    ...(model.getRetryAdvice !== undefined ? { getRetryAdvice: (args) => model.getRetryAdvice!(args) } : {}),
  };
}

/** The empty answer that ends a run a hook stopped. */
const stoppedResponseAnswer = responseOf([], undefined);
