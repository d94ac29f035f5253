/**
 * The context of the events around the model call.
 *
 * @module
 */
import type { Message } from '../message.js';
import type { ModelCallRequest, ModelSettings, ModelToolSpec, ToolConfig, ToolChoiceMode } from '../model-request.js';
import { modelCallResponse, type ModelCallResponse, type ModelResponseInit } from '../model-response.js';
import type { ToolCall } from '../tool-call.js';
import type { ModelToolCallInit } from '../model-response.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The events around the model call. */
export type ModelEventName = 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel';

/**
 * Calls the agent's model with a request and resolves with its normalised answer: what the runtime lends the contexts
 * of a run, so that a middleware can call the model itself (a retry, a second opinion).
 */
export type ModelInvoker = (request: ModelCallRequest) => Promise<ModelCallResponse>;

/** The fields of a {@link ModelHookContext}. */
export interface ModelHookContextInit extends HookContextInit {
  /** 0-based index of the step the call belongs to. */
  stepIndex: number;
  /** The request (as rewritten by earlier hooks, if any). */
  request: ModelCallRequest;
  /** The answer: the model's on AfterModel; on BeforeModel, one a hook gave instead of the model. */
  response?: ModelResponseInit | undefined;
  /** Whether the answer came from a hook rather than the model. */
  synthetic?: boolean | undefined;
  /** How many times AfterModel hooks have had this step's call made again. */
  retryCount?: number | undefined;
  /** The model's name, when it has one: what a matcher of these events tests. */
  modelName?: string | undefined;
  /** How to call the model, when the context belongs to a run that has one. */
  invoker?: ModelInvoker | undefined;
}

const MODES: ReadonlySet<unknown> = new Set<ToolChoiceMode>(['auto', 'any', 'none']);

function checkRequest(request: ModelCallRequest, where: string): ModelCallRequest {
  if (request === null || typeof request !== 'object') throw new TypeError(`${where} needs a request object, got ${request === null ? 'null' : typeof request}.`);
  if (!Array.isArray(request.messages)) throw new TypeError(`${where}: request.messages must be an array of messages.`);
  if (!Array.isArray(request.tools)) throw new TypeError(`${where}: request.tools must be an array of tool specs.`);
  if (request.system !== undefined && typeof request.system !== 'string') throw new TypeError(`${where}: request.system must be a string or undefined.`);
  if (request.toolConfig !== undefined) checkToolConfig(request.toolConfig, where);
  return Object.isFrozen(request) ? request : Object.freeze({ ...request });
}

function checkToolConfig(config: ToolConfig, where: string): ToolConfig {
  if (config === null || typeof config !== 'object' || !MODES.has(config.mode)) {
    throw new TypeError(`${where}: toolConfig.mode must be 'auto', 'any' or 'none', got ${String((config as ToolConfig | null)?.mode)}.`);
  }
  const names = config.allowedFunctionNames;
  if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) {
    throw new TypeError(`${where}: toolConfig.allowedFunctionNames must be an array of tool names.`);
  }
  return config;
}

/**
 * The tools a request offers once its tool selection is applied: none in mode `none`, the allowed ones when the
 * config names them, else all. Names of tools the request does not offer are ignored: a selection only narrows.
 */
export function selectedTools<T extends ModelToolSpec>(request: ModelCallRequest<T>): readonly T[] {
  const config = request.toolConfig;
  if (config === undefined) return request.tools;
  if (config.mode === 'none') return [];
  if (config.allowedFunctionNames === undefined) return request.tools;
  const allowed = new Set(config.allowedFunctionNames);
  return request.tools.filter((t) => allowed.has(t.name));
}

/**
 * The class behind {@link ModelHookContext}: its members are documented here. Construct contexts with its static
 * methods, and name their type {@link ModelHookContext}, which narrows by event.
 */
export class ModelHookContextClass<E extends ModelEventName = ModelEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('ModelHookContext'));
  }

  /** 0-based index of the step the call belongs to. */
  readonly stepIndex: number;
  /**
   * The request, as rewritten by earlier hooks. It is what this call sends; the conversation itself
   * (`state.messages`) is not changed by a rewrite here.
   */
  readonly request: ModelCallRequest;
  /**
   * The answer: always set on AfterModel (the type says so once the event is known). On BeforeModel, set when a hook
   * answered instead of the model ({@link ModelHookContextClass.withResponse}), and, after `await next()` in a
   * middleware, the model's answer. Absent on BeforeToolSelection.
   */
  readonly response: E extends 'AfterModel' ? ModelCallResponse : ModelCallResponse | undefined;
  /**
   * On AfterModel, whether the answer came from a hook instead of the model (an answer of `callModel()` counts as the
   * model's). On BeforeModel, whether a hook has set an answer with {@link ModelHookContextClass.withResponse}.
   */
  readonly synthetic: boolean;
  /**
   * How many times AfterModel hooks have had this step's call made again (0 on the first call). The runtime stops
   * retrying at its limit (`modelRetryLimit`), so a hook need not count, but may relent earlier.
   */
  readonly retryCount: number;
  /** The model's name, when it has one. */
  readonly modelName: string | undefined;
  /** How to call the model; `undefined` for a context made outside a run. See {@link ModelHookContextClass.callModel}. */
  readonly invoker: ModelInvoker | undefined;

  constructor(event: E, init: ModelHookContextInit) {
    super(event, init);
    if (!Number.isInteger(init.stepIndex) || init.stepIndex < 0) {
      throw new RangeError(`stepIndex must be an integer ≥ 0, got ${init.stepIndex}.`);
    }
    this.stepIndex = init.stepIndex;
    this.request = checkRequest(init.request, `A ${event} context`);
    // The type promises a response on AfterModel, so the constructor keeps the promise.
    if (event === 'AfterModel' && init.response === undefined) {
      throw new TypeError('An AfterModel context needs the response (use ModelHookContext.afterModel({ response, … })).');
    }
    this.response = (init.response === undefined ? undefined : modelCallResponse(init.response)) as this['response'];
    this.synthetic = init.synthetic ?? false;
    this.retryCount = init.retryCount ?? 0;
    if (!Number.isInteger(this.retryCount) || this.retryCount < 0) throw new RangeError(`retryCount must be an integer ≥ 0, got ${init.retryCount}.`);
    this.modelName = init.modelName;
    this.invoker = init.invoker;
    Object.freeze(this);
  }

  /** A BeforeModel context. */
  static beforeModel(init: Omit<ModelHookContextInit, 'synthetic'>): ModelHookContext<'BeforeModel'> {
    return new ModelHookContextClass('BeforeModel', init);
  }

  /** A BeforeToolSelection context. */
  static beforeToolSelection(init: Omit<ModelHookContextInit, 'response' | 'synthetic'>): ModelHookContext<'BeforeToolSelection'> {
    return new ModelHookContextClass('BeforeToolSelection', init);
  }

  /** An AfterModel context for the answer `init.response`. */
  static afterModel(init: ModelHookContextInit & { response: ModelResponseInit }): ModelHookContext<'AfterModel'> {
    return new ModelHookContextClass('AfterModel', init);
  }

  /** Whether this is BeforeModel. */
  isBeforeModel(): this is ModelHookContext<'BeforeModel'> {
    return this.event === 'BeforeModel';
  }

  /** Whether this is BeforeToolSelection. */
  isBeforeToolSelection(): this is ModelHookContext<'BeforeToolSelection'> {
    return this.event === 'BeforeToolSelection';
  }

  /** Whether this is AfterModel, whose context always carries the {@link ModelHookContextClass.response}. */
  isAfterModel(): this is ModelHookContext<'AfterModel'> {
    return this.event === 'AfterModel';
  }

  /** 1-based step number, for display. */
  get stepNumber(): number {
    return this.stepIndex + 1;
  }

  /** The tools the model is offered once the request's tool selection is applied. */
  get allowedTools(): readonly ModelToolSpec[] {
    return selectedTools(this.request);
  }

  /** The model's name: what a matcher of these events tests. */
  override get subject(): string | undefined {
    return this.modelName;
  }

  /**
   * Calls the agent's model with `request` (default: this context's) as the runtime does — BeforeToolSelection's hooks,
   * then the model — and resolves with its answer, without the BeforeModel hooks after this one: for a middleware
   * that makes the call again (a retry after the model threw, since `next()` runs once) or asks twice. Its usage counts
   * toward the run's, and its answer, given on with `withResponse`, counts as the model's own (not synthetic).
   *
   * @throws rejects when the context belongs to no run (made by hand, or sent by another agent), and with the
   *   model's own error.
   */
  callModel(request: ModelCallRequest = this.request): Promise<ModelCallResponse> {
    if (this.invoker === undefined) {
      return Promise.reject(new TypeError(`This ${this.event} context has no model to call: it was not made by an agent run.`));
    }
    return this.invoker(checkRequest(request, 'callModel()'));
  }

  /** A copy with another request: what this call sends, and what later hooks see. */
  withRequest(request: ModelCallRequest): this {
    return this.copyWith({ request: checkRequest(request, 'withRequest()') } as Partial<this>);
  }

  /** A copy with another system prompt (`undefined` for none). */
  withSystem(system: string | undefined): this {
    return this.withRequest({ ...this.request, system });
  }

  /** A copy whose request sends other messages (this call only; the conversation is unchanged). */
  withMessages(messages: readonly Message[]): this {
    return this.withRequest({ ...this.request, messages: Object.freeze([...messages]) });
  }

  /** A copy whose request offers other tools. */
  withTools(tools: readonly ModelToolSpec[]): this {
    return this.withRequest({ ...this.request, tools: Object.freeze([...tools]) });
  }

  /** A copy with sampling settings merged over the request's (a field set to `undefined` is cleared). */
  withSettings(settings: ModelSettings): this {
    return this.withRequest({ ...this.request, settings: Object.freeze({ ...this.request.settings, ...settings }) });
  }

  /** A copy with another tool selection (`undefined` to offer every tool again). */
  withToolConfig(config: ToolConfig | undefined): this {
    const toolConfig = config === undefined ? undefined : Object.freeze({ ...checkToolConfig(config, 'withToolConfig()') });
    return this.withRequest({ ...this.request, toolConfig });
  }

  /**
   * A copy that lets the model choose only among `names` (of the tools still allowed): an allow-list that only
   * narrows, so hooks applied one after another keep what they all allow.
   */
  allowTools(...names: string[]): this {
    const wanted = new Set(names.flat());
    return this.withAllowed(this.allowedTools.map((t) => t.name).filter((n) => wanted.has(n)));
  }

  /** A copy that takes `names` away from the tools the model may choose. */
  removeTools(...names: string[]): this {
    const removed = new Set(names.flat());
    return this.withAllowed(this.allowedTools.map((t) => t.name).filter((n) => !removed.has(n)));
  }

  /**
   * A copy carrying `response` as the call's answer (`undefined` to take a hook's answer back). On BeforeModel the
   * model is then not called: the run goes on with this answer as if the model had given it. On AfterModel it replaces
   * the model's answer. A string is a text answer without tool calls.
   */
  withResponse(response: ModelResponseInit | string | undefined): this {
    const value = response === undefined ? undefined : modelCallResponse(typeof response === 'string' ? { text: response } : response);
    if (value === undefined && this.event === 'AfterModel') throw new TypeError('withResponse() on AfterModel needs a response.');
    return this.copyWith({ response: value, ...(this.event === 'BeforeModel' ? { synthetic: value !== undefined } : {}) } as Partial<this>);
  }

  /** A copy whose answer has another text, keeping its tool calls (an answer with this text alone when there was none). */
  withText(text: string): this {
    if (typeof text !== 'string') throw new TypeError('withText() needs a string.');
    return this.withResponse({ ...this.response, text });
  }

  /** A copy whose answer makes other tool calls (none for an empty list), keeping its text. */
  withToolCalls(toolCalls: readonly (ToolCall | ModelToolCallInit)[]): this {
    return this.withResponse({ ...this.response, toolCalls });
  }

  // The conversation is given by its length, as CompactHookContext does: a log line per model call must not grow
  // with the whole conversation. The tools are given by name.
  protected override ownFields(): Record<string, unknown> {
    const { system, messages, tools, settings, toolConfig } = this.request;
    return {
      stepIndex: this.stepIndex,
      ...(this.modelName !== undefined ? { modelName: this.modelName } : {}),
      retryCount: this.retryCount,
      request: {
        ...(system !== undefined ? { system } : {}),
        messages: messages.length,
        tools: tools.map((t) => t.name),
        ...(settings !== undefined ? { settings } : {}),
        ...(toolConfig !== undefined ? { toolConfig } : {}),
      },
      ...(this.response !== undefined
        ? {
            response: {
              text: this.response.text,
              toolCalls: this.response.toolCalls.map((c) => c.toJSON()),
              ...(this.response.usage !== undefined ? { usage: this.response.usage } : {}),
            },
            synthetic: this.synthetic,
          }
        : {}),
    };
  }

  private withAllowed(names: readonly string[]): this {
    const mode = this.request.toolConfig?.mode ?? 'auto';
    return this.withToolConfig({ mode, allowedFunctionNames: Object.freeze([...names]) });
  }
}

// Contexts keep the name users know in stack traces and error messages.
Object.defineProperty(ModelHookContextClass, 'name', { value: 'ModelHookContext' });

/**
 * BeforeModel, BeforeToolSelection and AfterModel: one model call of a step, its request, and (AfterModel) its answer.
 *
 * - BeforeModel: rewrite the request (`withSystem`, `withMessages`, `withTools`, `withSettings`), or answer instead of
 *   the model (`withResponse`, or return a string): the model is then not called. A `handle(ctx, next)` middleware
 *   wraps the call itself: after `await next()`, the outcome's context carries the model's answer.
 * - BeforeToolSelection: narrow the tools the model may choose (`allowTools`, `removeTools`, `withToolConfig`, or
 *   return a list of names).
 * - AfterModel: rewrite the answer (`withText`, `withToolCalls`, `withResponse`, or return a string), or `block(reason)`
 *   to have the call made again with the reason as feedback.
 *
 * As a type, `ModelHookContext` is one member per event, so checking the event narrows the fields: after
 * `ctx.event === 'AfterModel'`, `ctx.response` is a `ModelCallResponse`. As a value it is the class
 * ({@link ModelHookContextClass}).
 */
export type ModelHookContext<E extends ModelEventName = ModelEventName> = E extends ModelEventName ? ModelHookContextClass<E> : never;

/** The model events' context class; see {@link ModelHookContext}. */
export const ModelHookContext = ModelHookContextClass;
