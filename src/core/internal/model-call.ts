/**
 * One model call through the hooks around it — BeforeModel, whose chain ends in BeforeToolSelection and the call,
 * then AfterModel with its retries — as our agent's run and a framework's loop (`LoopHooks.modelCall`) both make it.
 *
 * @module
 * @internal
 */
import type { AgentState } from '../agent-state.js';
import type { Usage } from '../agent-step.js';
import { ModelHookContext, type ModelInvoker } from '../context/model-hook-context.js';
import type { Metadata } from '../agent-state.js';
import type { ModelCallRequest } from '../model-request.js';
import { modelCallResponse, type ModelCallResponse, type ModelResponseInit } from '../model-response.js';
import { HookOutcome } from '../outcome.js';
import { addUsage } from './usage.js';

/** The model events. */
type ModelEvent = 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel';

/** What a model call through its hooks needs from whoever makes it: our agent's run, or a framework's loop. */
export interface ModelCallHost {
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** The model's name, for the contexts (and their matchers). */
  readonly modelName: string | undefined;
  /** How many times AfterModel hooks may have the call made again. */
  readonly retryLimit: number;
  /** Whether `event` is dispatched: a hook, or someone listening, wants it. */
  wants(event: ModelEvent): boolean;
  /** The state and metadata a context is made with, as they are now. */
  init(): { state: AgentState; metadata: Metadata };
  /** The request of the next attempt: the conversation as it is now, an earlier attempt's feedback included. */
  request(): ModelCallRequest;
  /** Dispatches one of the model events; with `terminal`, BeforeModel's chain ends in it. */
  dispatch<E extends ModelEvent>(
    event: E,
    make: () => ModelHookContext<E>,
    terminal?: (ctx: ModelHookContext<E>) => Promise<HookOutcome>,
  ): Promise<HookOutcome<ModelHookContext<E>>>;
  /** Calls the model with the request as the hooks left it; throws to abandon the call (a cancelled run). */
  call(request: ModelCallRequest): Promise<ModelResponseInit>;
  /** Whether a hook has halted the conversation (for a host that records a `stop` instead of throwing). */
  halted?(): boolean;
  /** An AfterModel block under the limit: keep `feedback` where the next attempt's request will have it. */
  retry(feedback: string): void;
  /** An AfterModel block past the limit: the last answer stands; say why (`blocks` counts this one). */
  retryForced(reason: string, blocks: number): void;
}

/** What the call came to: the answer to go on with, or a halt. */
export type ModelCallOutcome =
  | {
      readonly halted: false;
      /** The answer, as AfterModel left it. */
      readonly response: ModelCallResponse;
      /** The request of the call that gave the answer, as BeforeModel and BeforeToolSelection left it. */
      readonly request: ModelCallRequest;
      /** Whether a hook answered instead of the model. */
      readonly synthetic: boolean;
      /** The tokens of every call made, retries included (the answer's own when it reported them alone). */
      readonly usage: Usage | undefined;
      /** How many times AfterModel hooks had the call made again. */
      readonly retries: number;
    }
  | { readonly halted: true; readonly usage: Usage | undefined; readonly retries: number };

/** Unwinds BeforeModel's chain once a hook halted the conversation: the model must not be called. */
class HaltedBeforeCall extends Error {}

/**
 * BeforeModel, around BeforeToolSelection and the model call (the stack's terminal, so that a middleware wraps the
 * call and `ctx.callModel()` makes it again), then AfterModel, whose block has the call made again with the reason as
 * feedback, at most `retryLimit` times; past that, the last answer stands and `retryForced` says so. A BeforeModel block
 * is a refusal: the model is not called, and the reason is the answer.
 */
export async function callModelWithHooks(host: ModelCallHost): Promise<ModelCallOutcome> {
  const { stepIndex, modelName } = host;
  const halted = () => host.halted?.() === true;
  let usage: Usage | undefined;
  // The request each of the model's answers was given: an answer not in it came from a hook (synthetic).
  const sent = new WeakMap<ModelCallResponse, ModelCallRequest>();
  for (let retryCount = 0; ; retryCount++) {
    // A call of the model as the runtime makes it, BeforeToolSelection first: the terminal of BeforeModel's chain, and
    // what a middleware's `ctx.callModel()` does.
    const invoker: ModelInvoker = async (request) => {
      if (halted()) throw new HaltedBeforeCall();
      let selected = request;
      if (host.wants('BeforeToolSelection')) {
        const outcome = await host.dispatch('BeforeToolSelection', () => {
          const { state, metadata } = host.init();
          return ModelHookContext.beforeToolSelection({ state, metadata, request, ...common });
        });
        if (outcome.context?.event === 'BeforeToolSelection') selected = outcome.context.request;
        if (halted()) throw new HaltedBeforeCall();
      }
      const raw = await host.call(selected);
      const response = modelCallResponse(raw);
      usage = addUsage(usage, raw.usage);
      sent.set(response, selected);
      return response;
    };
    const common = { stepIndex, retryCount, modelName, invoker };
    const base = host.request();

    let request = base;
    let response: ModelCallResponse | undefined;
    try {
      if (host.wants('BeforeModel')) {
        const before = await host.dispatch(
          'BeforeModel',
          () => {
            const { state, metadata } = host.init();
            return ModelHookContext.beforeModel({ state, metadata, request: base, ...common });
          },
          async (ctx) => {
            if (ctx.response !== undefined) return HookOutcome.proceed(ctx);
            const answer = await invoker(ctx.request);
            return HookOutcome.proceed(ModelHookContext.beforeModel({ state: ctx.state, metadata: ctx.metadata, request: sent.get(answer)!, response: answer, ...common }));
          },
        );
        if (halted()) return { halted: true, usage, retries: retryCount };
        if (before.type === 'block') {
          // A refusal: the model is not called, and the reason is the answer.
          response = modelCallResponse({ text: before.reason ?? 'A BeforeModel hook refused the model call.' });
        } else if (before.context?.event === 'BeforeModel') {
          request = before.context.request;
          response = before.context.response;
        }
      }
      // A hook that ended the chain without an answer let the call go on: it is made here.
      response ??= await invoker(request);
    } catch (error) {
      if (error instanceof HaltedBeforeCall) return { halted: true, usage, retries: retryCount };
      throw error;
    }
    request = sent.get(response) ?? request;
    const synthetic = !sent.has(response);

    if (!host.wants('AfterModel')) return { halted: false, response, request, synthetic, usage: usage ?? response.usage, retries: retryCount };
    const answer = response;
    const after = await host.dispatch('AfterModel', () => {
      const { state, metadata } = host.init();
      return ModelHookContext.afterModel({ state, metadata, request, response: answer, synthetic, ...common });
    });
    if (halted()) return { halted: true, usage, retries: retryCount };
    if (after.type !== 'block') {
      const final = after.context?.event === 'AfterModel' ? after.context.response : response;
      return { halted: false, response: final, request, synthetic, usage: usage ?? final.usage, retries: retryCount };
    }
    const feedback = after.reason ?? "An AfterModel hook rejected the model's answer.";
    if (retryCount >= host.retryLimit) {
      const reason = `AfterModel hooks rejected the model's answer ${retryCount + 1} times in step ${stepIndex + 1}; going on with the last answer (last reason: ${feedback}).`;
      host.retryForced(reason, retryCount + 1);
      return { halted: false, response, request, synthetic, usage: usage ?? response.usage, retries: retryCount };
    }
    // The rejected answer is dropped (its tool calls never run); the model is told why and asked again.
    host.retry(feedback);
  }
}
