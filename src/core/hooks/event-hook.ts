/**
 * Hooks bound to one event, written as a callback that receives only the context.
 *
 * @module
 */
import { AgentState } from '../agent-state.js';
import type { AnyHookContext, ContextFor } from '../context/any-hook-context.js';
import { HookContextBase } from '../context/hook-context.js';
import { HookEvent, type HookEventName } from '../events.js';
import type { Hook, MaybePromise, NextFn } from '../hook.js';
import { HookScope } from '../hook-scope.js';
import { brand, brandKey, isInstance, ownClass } from '../internal/brand.js';
import type { HookMatcher } from '../matchers/hook-matcher.js';
import { Matcher, type MatcherLike } from '../matchers/matcher.js';
import { continueChain } from '../internal/continue-chain.js';
import { applies } from '../internal/matched.js';
import { HookOutcome } from '../outcome.js';
import { ToolCall } from '../tool-call.js';
import { ToolExecution } from '../tool-execution.js';

/**
 * The shorthand value a callback of event `E` may return instead of an outcome: a rewritten `ToolCall` (PreToolUse,
 * PermissionRequest), a replacement `ToolExecution` (PostToolUse, PostToolUseFailure), a rewritten prompt string (UserPromptSubmit),
 * an answer given instead of the model (BeforeModel: a string), the names of the tools the model may choose
 * (BeforeToolSelection: a list of strings), a replacement text of the model's answer (AfterModel: a string), and on
 * every event a new `AgentState`.
 */
export type ShorthandFor<E extends HookEventName> =
  | AgentState
  | (E extends 'PreToolUse' | 'PermissionRequest' ? ToolCall : never)
  | (E extends 'PostToolUse' | 'PostToolUseFailure' ? ToolExecution : never)
  | (E extends 'UserPromptSubmit' | 'BeforeModel' | 'AfterModel' ? string : never)
  | (E extends 'BeforeToolSelection' ? readonly string[] : never);

/**
 * What a callback may return: nothing (= proceed, never block), an outcome, a modified context of the same event, or
 * its event's shorthand value.
 */
export type EventCallbackResult<E extends HookEventName> = HookOutcome | ContextFor<E> | ShorthandFor<E> | void | undefined | null;

/**
 * A callback bound to event `E`: it receives that event's context type, and the dispatch's {@link HookScope}, whose
 * `signal` aborts when the run is cancelled or, in an agent, when the callback runs past its timeout.
 */
export type EventCallback<E extends HookEventName> = (ctx: ContextFor<E>, scope: HookScope) => MaybePromise<EventCallbackResult<E>>;

/** Options of an {@link EventHook}. */
export interface EventHookOptions {
  /** Where the hook applies (PHP rules for strings: a tool-name pattern). */
  matcher?: MatcherLike | undefined;
  /** A name for listings and errors; defaults to the callback's name. */
  name?: string | undefined;
  /** How long the callback may take, in milliseconds (see {@link Hook.timeout}). */
  timeout?: number | undefined;
}

// This copy's own outcomes, found without the brand check of HookOutcome's instanceof.
const OwnOutcome = ownClass(HookOutcome);

const describe = (value: unknown): string => {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a ${typeof value} (${String(value).slice(0, 40)})`;
};

/**
 * A hook for one event (or a few of one family) that calls a callback with the context alone. The callback's answer
 * is turned into an outcome; returning nothing proceeds. Contexts of other events pass through untouched.
 *
 * An `ask` lets the later hooks run and merges with them (a later block still wins); a proceed carrying additional
 * context or a system message keeps them in front of what later hooks add.
 */
export class EventHook<E extends HookEventName = HookEventName> implements Hook {
  /** The events the hook runs for. */
  readonly events: readonly E[];
  /** Where the hook applies. */
  readonly matcher: HookMatcher | undefined;
  /** The callback's name, or the one given. */
  readonly name: string;
  /** How long the callback may take, in milliseconds, when one was given (see {@link Hook.timeout}). */
  readonly timeout: number | undefined;
  /**
   * @internal The callback. A stack calls it directly, without a `next` function, and goes on when it answers
   * nothing; {@link EventHook.outcomeOf} says what any other answer means.
   */
  readonly callback: EventCallback<E>;
  private readonly single: E | undefined;

  static {
    brand(this, brandKey('EventHook'));
  }

  /**
   * Whether `value` is a hook of this class: `EventHook.isEventHook(value)` for any event hook, `StopHook.isEventHook(value)`
   * for a Stop hook's. A hook of another copy of the package (its ESM and CommonJS builds loaded side by side, or
   * another installed version) counts; a stack runs it as any other {@link Hook}, through its `handle`.
   */
  static isEventHook<T extends EventHook>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
  }

  /**
   * Makes `instanceof` work across copies of the package as {@link EventHook.isEventHook} does: a StopHook is no
   * BeforeToolHook, whichever copy made it; for a subclass of yours it keeps its usual meaning.
   */
  static [Symbol.hasInstance]<T>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
  }

  constructor(events: E | readonly E[], callback: EventCallback<E>, options: EventHookOptions = {}) {
    const list = (typeof events === 'string' ? [events] : [...events]).map((e) => HookEvent.parse(e) as E);
    if (list.length === 0) throw new TypeError('An EventHook needs at least one event.');
    if (typeof callback !== 'function') throw new TypeError(`A ${list.join('/')} hook needs a callback function, got ${typeof callback}.`);
    this.events = Object.freeze(list);
    this.single = list.length === 1 ? list[0] : undefined;
    this.callback = callback;
    this.matcher = Matcher.from(options.matcher);
    this.name = options.name ?? (callback.name || `${list.join('/')} callback`);
    this.timeout = options.timeout;
  }

  /** Whether the hook runs for `event`. */
  handles(event: HookEventName): boolean {
    return this.single !== undefined ? this.single === event : (this.events as readonly HookEventName[]).includes(event);
  }

  /**
   * Calls the callback when `ctx` is one of the hook's events and its matcher matches; elsewhere the chain goes on
   * without it. Called directly, or by a hook that wraps this one, the hook still honours its matcher, as a stack does;
   * a stack that has just checked the matcher does not have it evaluated twice.
   */
  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope = HookScope.none): MaybePromise<HookOutcome> {
    if (!this.handles(ctx.event) || !applies(this.matcher, ctx)) return next(ctx);
    const value = this.callback(ctx as ContextFor<E>, scope);
    if (value instanceof Promise) return value.then((v) => this.continueWith(v, ctx, next));
    return this.continueWith(value as EventCallbackResult<E>, ctx, next);
  }

  /**
   * @internal The outcome a callback's answer (other than nothing) stands for on `ctx`: the outcome itself, or a
   * proceed with the context its shorthand value makes.
   * @throws a TypeError naming what was returned when the answer means nothing on this event.
   */
  outcomeOf(value: unknown, ctx: AnyHookContext): HookOutcome {
    if (value instanceof OwnOutcome) return value;
    return HookOutcome.adopt(value) ?? HookOutcome.proceed(this.shorthand(value, ctx));
  }

  private continueWith(value: EventCallbackResult<E>, ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    if (value === undefined || value === null) return next(ctx);
    return continueChain(this.outcomeOf(value, ctx), ctx, next);
  }

  // Values of another copy of the package are recognised by brand, and used through their public shape.
  private shorthand(value: unknown, ctx: AnyHookContext): AnyHookContext {
    if (HookContextBase.isContext(value)) {
      if (value.event !== ctx.event) {
        throw new TypeError(`returned a ${value.event} context from a ${ctx.event} hook; return a context of the same event.`);
      }
      return value as AnyHookContext;
    }
    if (AgentState.isAgentState(value)) return ctx.withState(value);
    if (ToolCall.isToolCall(value) && (ctx.event === 'PreToolUse' || ctx.event === 'PermissionRequest')) {
      return (ctx as ContextFor<'PreToolUse'>).withToolCall(value);
    }
    if (ToolExecution.isToolExecution(value) && (ctx.event === 'PostToolUse' || ctx.event === 'PostToolUseFailure')) {
      return (ctx as ContextFor<'PostToolUse'>).withExecution(value);
    }
    if (typeof value === 'string' && ctx.event === 'UserPromptSubmit') return ctx.withPrompt(value);
    if (typeof value === 'string' && ctx.event === 'BeforeModel') return ctx.withResponse(value);
    if (typeof value === 'string' && ctx.event === 'AfterModel') return ctx.withText(value);
    if (Array.isArray(value) && ctx.event === 'BeforeToolSelection' && value.every((v) => typeof v === 'string')) {
      return ctx.allowTools(...(value as string[]));
    }
    throw new TypeError(
      `returned ${describe(value)}, which means nothing on ${ctx.event}. Return nothing to proceed, a HookOutcome ` +
        `(proceed/block/stop/ask)${shorthandHint(ctx.event)}.`,
    );
  }
}

function shorthandHint(event: HookEventName): string {
  switch (event) {
    case 'PreToolUse':
    case 'PermissionRequest':
      return ', a modified ToolCall or an AgentState';
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return ', a replacement ToolExecution or an AgentState';
    case 'UserPromptSubmit':
      return ', a rewritten prompt string or an AgentState';
    case 'BeforeModel':
      return ', an answer to give instead of the model (a string) or an AgentState';
    case 'BeforeToolSelection':
      return ', the names of the tools the model may choose (a list of strings) or an AgentState';
    case 'AfterModel':
      return ", a replacement text for the model's answer (a string) or an AgentState";
    default:
      return ' or a modified AgentState';
  }
}
