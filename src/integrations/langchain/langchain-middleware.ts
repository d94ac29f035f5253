/**
 * One LangChain agent middleware that fires our events around the agent, its model calls and its tool calls.
 *
 * @module
 */
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import {
  ExecutionHookContext,
  PromptHookContext,
  SessionHookContext,
  StopHookContext,
  ToolCall,
  type ModelCallResponse,
  type RunStatus,
  type StopReason,
} from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { ToolNotOfferedError } from '../../agent/index.js';
import { LoopHooks, type HookSource, type LoopHooksOptions, type StepReport } from '../loop-hooks.js';
import { messageFor, responseOf, usageOf } from './internal/call-answer.js';
import { CallRequest } from './internal/call-request.js';
import { argsOf, fromLangChainMessages, textOf, toolCallsOf, typeOf } from './internal/messages.js';

/** Options of {@link langchainMiddleware}: those of {@link LoopHooks}, and the middleware's own. */
export interface LangchainMiddlewareOptions extends LoopHooksOptions {
  /** The middleware's name, which LangChain requires to be unique among an agent's middleware (default `AgentHooks`). */
  readonly name?: string | undefined;
  /** How many times in a row Stop hooks may keep the agent working before it ends anyway (default 5). */
  readonly stopLoopLimit?: number | undefined;
}

/** What one invocation of the agent has done so far. */
interface Invocation {
  readonly prompt: string;
  readonly started: number;
  /** The last model answer, reported as a step (AfterStep) once its tools have run. */
  pending: StepReport | undefined;
  text: string;
  stopBlocks: number;
  stopReason: StopReason;
  status: RunStatus;
  reason: string | undefined;
  /** The last answer, when AfterModel hooks had the call made again: their feedback goes into the state before it. */
  feedback: { readonly answer: AIMessage; readonly messages: readonly BaseMessage[] } | undefined;
  /** Whether ExecutionEnd has fired (or is firing) for it. */
  ended: boolean;
}

type AgentState = { messages: BaseMessage[] };

const signalOf = (runtime: unknown): AbortSignal | undefined => (runtime as { signal?: AbortSignal } | undefined)?.signal;

/** The name a model events' matcher tests: the chat model's model name, else its class's. */
function modelNameOf(model: unknown): string | undefined {
  const loose = model as { model?: unknown; modelName?: unknown; getName?: () => string } | undefined;
  if (typeof loose?.model === 'string') return loose.model;
  if (typeof loose?.modelName === 'string') return loose.modelName;
  return typeof loose?.getName === 'function' ? loose.getName() : undefined;
}

/** The system message with the hooks' context after it: as text when it is text, else as one more text block. */
function withContext(system: SystemMessage, context: readonly string[]): SystemMessage {
  const added = context.join('\n\n');
  if (typeof system.content !== 'string') return new SystemMessage({ content: [...system.content, { type: 'text', text: added }] });
  return new SystemMessage(system.content === '' ? added : `${system.content}\n\n${added}`);
}

const lastHuman = (messages: readonly BaseMessage[]): BaseMessage | undefined => messages.findLast((m) => typeOf(m) === 'human');

/**
 * The state update that puts AfterModel's feedback before the answer it led to, as our agent's conversation has it:
 * the answer is taken out and added again after the feedback (under a new id: LangChain's reducer keeps a message's
 * place when its id is added again). `undefined` when there is none, or the answer is no longer the last message.
 */
function keepFeedback(r: Invocation, messages: readonly BaseMessage[]): { messages: BaseMessage[] } | undefined {
  const feedback = r.feedback;
  r.feedback = undefined;
  const answer = messages.at(-1);
  if (feedback === undefined || answer === undefined || answer.id === undefined || (answer !== feedback.answer && answer.id !== feedback.answer.id)) return undefined;
  const ai = answer as AIMessage;
  const again = new AIMessage({
    content: ai.content,
    tool_calls: ai.tool_calls ?? [],
    invalid_tool_calls: ai.invalid_tool_calls ?? [],
    additional_kwargs: ai.additional_kwargs,
    response_metadata: ai.response_metadata,
    ...(ai.usage_metadata !== undefined ? { usage_metadata: ai.usage_metadata } : {}),
    ...(ai.name !== undefined ? { name: ai.name } : {}),
    id: `${answer.id}-after-feedback`,
  });
  return { messages: [new RemoveMessage({ id: answer.id }), ...feedback.messages, again] };
}

/**
 * One LangChain v1 middleware (for `createAgent({ middleware: [...] })`) that fires our events, so callbacks, Hook
 * classes and HOOK.md script hooks guard a LangChain agent as they guard ours, in the same order:
 *
 * | LangChain | our events | what an outcome does |
 * |---|---|---|
 * | `beforeAgent` (each `invoke`) | SessionStart (the first time only), ExecutionStart, UserPromptSubmit | a block of the prompt ends the invocation with `Prompt blocked by a hook: <reason>` as the answer; a rewritten prompt replaces the user's message; context waits for the first model call |
 * | `wrapModelCall` | AfterStep of the previous answer (once its tools ran, as in our agent), BeforeStep | `additionalContext` from any hook since the last model call is appended to this call's system message |
 * | `wrapModelCall`, around `handler` | BeforeModel (its chain ends in BeforeToolSelection and the call, so a Hook class's `handle(ctx, next)` wraps it), BeforeToolSelection, AfterModel | a rewritten request (system message, messages, tools, `toolChoice`, and `temperature`, `maxTokens`, `topP`, `stop` in `modelSettings`) is what this call sends; an answer given instead skips the model; BeforeModel's block answers with its reason; an AfterModel rewrite is the AI message the agent records; its block calls the model again with the reason as a user message, at most `modelRetryLimit` times |
 * | `afterModel` | — | AfterModel's feedback goes into the state before the answer it led to (the answer is added again after it, under a new id), as our agent's conversation has it |
 * | `afterModel`, when the answer calls no tool | AfterStep, Stop | a block keeps the agent working: the reason is added as a user message and the model is called again (Stop then has `stopHookActive`) |
 * | `wrapToolCall` | PreToolUse, PermissionRequest and the `approver` after an ask, PostToolUse, PostToolUseFailure | a block answers the call with a `ToolMessage` (status `error`) holding `Tool call blocked by a hook: <reason>`; a rewritten input is the call the tool runs; a PostToolUse block or new result replaces the tool's message; a call to a tool the model call did not offer (BeforeToolSelection or BeforeModel took it out) does not run — LangChain's tool node would run it — and gets `Error: Tool '<name>' was not offered this step, so it was not run. Offered tools: …` (status `error`), after PostToolUseFailure, as in our agent |
 * | `afterAgent` | AfterStop, AfterAgent, ExecutionEnd | observers; ExecutionEnd has the status (`stopped` after a hook's stop or a blocked prompt) |
 * | a `stop` from any hook | — | remaining tool calls get `Not run: the run was stopped.`, the model is not called again (an empty answer stands in for it, so the agent ends), and `hooks.stopReason` says why |
 *
 * Ordering: LangChain runs the before-hooks of its middleware in list order and the after-hooks (`afterModel`,
 * `afterAgent`) in reverse, and nests the wrap-hooks with the first outermost. Put this middleware first for our hooks
 * to see the calls as the model made them and to have the last word on the agent's stop; put it last for them to see
 * what the other middleware made of them.
 *
 * A hook that throws under `onHookError: 'fail'` (the default) fails the invocation as it fails our agent's run:
 * AgentFailed fires, then ExecutionEnd with status `failed`, and `invoke` rejects with the `HookError`; the model is
 * not called again and no tool runs after it, in this invocation or a later one (`hooks.failure` keeps the error).
 * Under `'ignore'` the hook is skipped with a `hook-error` warning; under `'block'` its failure is a block of the
 * event (a tool call refused, the prompt rejected, …) with the error as the reason.
 *
 * What does not map: an `invoke` that throws for another reason (the model's error, a tool's) never reaches
 * `afterAgent`, so AgentFailed and ExecutionEnd do not fire for it (the error goes to the caller). The middleware's
 * lifetime is the session, as an agent session's is ours: SessionStart fires at its first invocation, and nothing in LangChain says when a conversation is over, so
 * SessionEnd never fires. LangChain's `streamMode: 'messages'` hands out the model's own message (token by token when
 * it streams) from the model's callbacks, before AfterModel decides: stream `updates` or `values` for answers as the
 * hooks left them. PreCompact, PostCompact,
 * SubagentStart, SubagentStop and Notification (but for approvals) have no LangChain hook.
 *
 * `hooks` is a `HookStack`, an `AgentBuilder` or a {@link LoopHooks}: metadata, `stopReason` and `systemMessages` last
 * as long as it does — a `stop` ends later invocations at once, so use one per conversation — and `await
 * hooks.drain()` lets asynchronous script hooks finish.
 *
 * ```ts
 * import { createAgent } from 'langchain';
 * import { AgentBuilder } from 'agent-hooks';
 * import { langchainMiddleware } from 'agent-hooks/langchain';
 *
 * const agent = createAgent({
 *   model: 'openai:gpt-4.1',
 *   tools: [bash],
 *   middleware: [langchainMiddleware(AgentBuilder.new().withHooksFrom({ projectDir: process.cwd() }))],
 * });
 * await agent.invoke({ messages: [{ role: 'user', content: 'Clean up the build folder' }] });
 * ```
 */
export function langchainMiddleware(hooks: HookSource, options: LangchainMiddlewareOptions = {}): AgentMiddleware {
  const loop = LoopHooks.from(hooks, options);
  const stopLoopLimit = options.stopLoopLimit ?? 5;
  let run: Invocation | undefined;
  let started = false;
  const current = (): Invocation =>
    (run ??= { prompt: '', started: performance.now(), pending: undefined, text: '', stopBlocks: 0, stopReason: 'no_tool_calls', status: 'completed', reason: undefined, feedback: undefined, ended: false });

  /** Reports the last model answer as a step, once: when its tools have run, or when it is the last. */
  const flushStep = async (signal: AbortSignal | undefined): Promise<void> => {
    const r = current();
    if (r.pending === undefined) return;
    const step = r.pending;
    r.pending = undefined;
    await loop.afterStep(step, signal);
  };

  /** Marks the invocation stopped by a hook, once. */
  const halted = (reason: string, stopReason: StopReason): void => {
    const r = current();
    if (r.status === 'stopped') return;
    r.status = 'stopped';
    r.stopReason = stopReason;
    r.reason = reason;
  };

  /** The answer that stands in for the model's once a hook stopped the run. */
  const stopped = (r: Invocation): AIMessage => {
    r.pending = undefined;
    halted(loop.stopReason ?? 'Stopped by a hook.', 'hook_stop');
    return new AIMessage('');
  };

  /**
   * One of LangChain's hooks, run so that a hook of ours that fails the conversation in it (under `onHookError:
   * 'fail'`) ends the invocation as our agent ends a run a hook failed: AgentFailed (fired by the LoopHooks), then
   * ExecutionEnd with status `failed`; then `invoke` rejects with the HookError.
   */
  const guarded = async <T>(hook: () => Promise<T>): Promise<T> => {
    const failedBefore = loop.failure !== undefined;
    try {
      return await hook();
    } catch (error) {
      const r = run;
      if (!failedBefore && error === loop.failure && r !== undefined && !r.ended) {
        r.ended = true;
        run = undefined;
        await loop.afterFailure('ExecutionEnd', (common) =>
          ExecutionHookContext.onEnd({ ...common, prompt: r.prompt, status: 'failed', reason: messageOf(error), durationMs: performance.now() - r.started }),
        );
      }
      throw error;
    }
  };

  const middleware = createMiddleware({
    name: options.name ?? 'AgentHooks',

    beforeAgent: {
      canJumpTo: ['end'],
      hook: (state: AgentState, runtime: unknown) => guarded(async () => {
        const signal = signalOf(runtime);
        const human = lastHuman(state.messages);
        const prompt = textOf(human);
        run = { prompt, started: performance.now(), pending: undefined, text: '', stopBlocks: 0, stopReason: 'no_tool_calls', status: 'completed', reason: undefined, feedback: undefined, ended: false };
        loop.setMessages(fromLangChainMessages(state.messages));
        if (loop.stopReason !== undefined) {
          halted(loop.stopReason, 'hook_stop');
          return { jumpTo: 'end' as const };
        }
        if (!started) {
          started = true;
          await loop.fire('SessionStart', (init) => SessionHookContext.onStart({ ...init, source: 'startup' }), signal);
        }
        await loop.fire('ExecutionStart', (init) => ExecutionHookContext.onStart({ ...init, prompt }), signal);
        const submitted = await loop.fire('UserPromptSubmit', (init) => PromptHookContext.onSubmit(prompt, init), signal);
        if (submitted.type === 'block') {
          const reason = submitted.reason ?? 'The prompt was rejected by a hook.';
          halted(reason, 'prompt_blocked');
          return { jumpTo: 'end' as const, messages: [new AIMessage(`Prompt blocked by a hook: ${reason}`)] };
        }
        if (loop.stopReason !== undefined) {
          halted(loop.stopReason, 'hook_stop');
          return { jumpTo: 'end' as const };
        }
        const rewritten = submitted.context?.event === 'UserPromptSubmit' ? submitted.context.prompt : prompt;
        // The messages reducer replaces a message with the same id: the rewritten prompt takes the user's place.
        if (rewritten !== prompt && human?.id !== undefined) return { messages: [new HumanMessage({ content: rewritten, id: human.id })] };
        return undefined;
      }),
    },

    wrapModelCall: (request, handler) => guarded(async () => {
      const signal = signalOf(request.runtime);
      const r = current();
      // After a stop the model is not called: an answer without tool calls ends the agent's loop, as a halt ends ours
      // (the step the stop cut short is not reported).
      if (loop.stopReason !== undefined) return stopped(r);
      await flushStep(signal);
      const messages = fromLangChainMessages(request.messages);
      loop.setMessages(messages);
      await loop.beforeStep(signal);
      if (loop.stopReason !== undefined) return stopped(r);
      const context = loop.takeContext();
      const withHooksContext = context.length === 0 ? request : { ...request, systemMessage: withContext(request.systemMessage, context) };
      const events = await loop.modelEvents();
      if (!events.beforeModel && !events.toolSelection && !events.afterModel) {
        // No hook around the model call: the call as it is.
        const response = await handler(withHooksContext);
        r.feedback = undefined;
        r.text = textOf(response);
        r.pending = { text: r.text, toolCalls: toolCallsOf(response), usage: usageOf(response) };
        return response;
      }
      const call = new CallRequest(withHooksContext, messages);
      const answers = new Map<ModelCallResponse, AIMessage>();
      let last: AIMessage | undefined;
      const outcome = await loop.modelCall(
        call.request,
        async (wanted) => {
          const answer = await handler(call.requestFor(wanted));
          last = answer;
          const response = responseOf(answer);
          answers.set(response, answer);
          return response;
        },
        { signal, modelName: modelNameOf(request.model) },
      );
      if (outcome.stopped !== undefined) return stopped(r);
      const response = answers.get(outcome.response) ?? messageFor(outcome.response, outcome.synthetic ? undefined : last);
      // AfterModel's feedback joins the conversation before the answer, as in our agent (afterModel puts it there).
      const feedback = outcome.added.flatMap((m) => (m.role === 'user' ? [new HumanMessage(m.content)] : []));
      r.feedback = feedback.length > 0 ? { answer: response, messages: feedback } : undefined;
      r.text = outcome.response.text;
      r.pending = { text: r.text, toolCalls: outcome.response.toolCalls, usage: answers.has(outcome.response) ? usageOf(response) : outcome.usage };
      return response;
    }),

    afterModel: {
      canJumpTo: ['model', 'end'],
      hook: (state: AgentState, runtime: unknown) => guarded(async () => {
        const signal = signalOf(runtime);
        const r = current();
        const kept = keepFeedback(r, state.messages);
        if (loop.stopReason !== undefined) return kept;
        const last = state.messages.at(-1);
        if (last !== undefined && toolCallsOf(last).length > 0) return kept;
        await flushStep(signal);
        const outcome = await loop.fire(
          'Stop',
          (init) =>
            StopHookContext.stop({
              ...init,
              stopReason: 'no_tool_calls',
              stepCount: loop.stepCount,
              finalMessage: r.text,
              stopHookActive: r.stopBlocks > 0,
              continuationCount: r.stopBlocks,
            }),
          signal,
        );
        if (loop.stopReason !== undefined) {
          halted(loop.stopReason, 'hook_stop');
          return kept;
        }
        if (outcome.type !== 'block') return kept;
        const feedback = outcome.reason ?? 'A stop hook asked the agent to keep working.';
        if (r.stopBlocks >= stopLoopLimit) {
          loop.events.emit('warning', { code: 'stop-forced', message: `Stop hooks kept the agent working ${r.stopBlocks} times in a row; ending the run anyway (last reason: ${feedback}).`, event: 'Stop' });
          return kept;
        }
        r.stopBlocks++;
        return { jumpTo: 'model' as const, messages: [...(kept?.messages ?? []), new HumanMessage(feedback)] };
      }),
    },

    wrapToolCall: (request, handler) => guarded(async () => {
      const original = request.toolCall;
      const call = new ToolCall(original.name, argsOf(original.args), original.id);
      let ran: Awaited<ReturnType<typeof handler>> | undefined;
      let value: unknown;
      try {
        value = await loop.runTool(
          call,
          async (final) => {
            const changed = final.args !== call.args || final.name !== call.name;
            ran = await handler(changed ? { ...request, toolCall: { ...original, name: final.name, args: { ...final.args } } } : request);
            // Hooks see the tool's answer as the model will: the message's content.
            return ToolMessage.isInstance(ran) ? ran.content : ran;
          },
          { signal: signalOf(request.runtime), messages: fromLangChainMessages(request.state.messages) },
        );
      } catch (error) {
        // A call to a tool the step did not offer is the model's mistake: it is told, as our agent tells it.
        if (!(error instanceof ToolNotOfferedError)) throw error;
        return new ToolMessage({ content: `Error: ${error.message}`, tool_call_id: original.id ?? call.id, name: original.name, status: 'error' });
      }
      if (ran !== undefined && (value === ran || (ToolMessage.isInstance(ran) && value === ran.content))) return ran;
      return new ToolMessage({
        content: typeof value === 'string' ? value : JSON.stringify(value),
        tool_call_id: original.id ?? call.id,
        name: original.name,
        // Refused before it ran: an error for the model; a result a PostToolUse hook replaced: the tool's answer.
        status: ran === undefined ? 'error' : 'success',
      });
    }),

    afterAgent: (state: AgentState, runtime: unknown) => guarded(async () => {
      const signal = signalOf(runtime);
      const r = current();
      await flushStep(signal);
      loop.setMessages(fromLangChainMessages(state.messages));
      const init = { stopReason: r.stopReason, stepCount: loop.stepCount, finalMessage: r.text, stopHookActive: r.stopBlocks > 0, continuationCount: r.stopBlocks };
      for (const event of ['AfterStop', 'AfterAgent'] as const) {
        await loop.fire(event, (common) => new StopHookContext(event, { ...common, ...init }), signal);
        if (loop.stopReason !== undefined) halted(loop.stopReason, 'hook_stop');
      }
      r.ended = true;
      await loop.fire(
        'ExecutionEnd',
        (common) => ExecutionHookContext.onEnd({ ...common, prompt: r.prompt, status: r.status, reason: r.reason, durationMs: performance.now() - r.started }),
        signal,
      );
      run = undefined;
      return undefined;
    }),
  });
  return middleware as unknown as AgentMiddleware;
}
