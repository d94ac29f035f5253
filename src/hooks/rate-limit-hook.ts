/**
 * A hook that limits tool calls per time window.
 *
 * @module
 */
import {
  Matcher,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type HookMatcher,
  type HookOutcome,
  type MatcherLike,
  type MaybePromise,
  type NextFn,
} from '../core/index.js';
import { isThenable } from '../core/internal/thenable.js';
import { checkBehaviour, checkPriority, refuse } from './internal/refuse.js';
import type { LimitBehaviour } from './limit-behaviour.js';

/** Options of a {@link RateLimitHook}. */
export interface RateLimitHookOptions {
  /** The most calls allowed within any `windowMs`. */
  readonly limit: number;
  /** The length of the sliding window, in milliseconds. */
  readonly windowMs: number;
  /** `'global'` (default): all matching calls share one budget; `'tool'`: each tool name has its own. */
  readonly scope?: 'global' | 'tool' | undefined;
  /** `'block'` (default) refuses the call and lets the run go on; `'stop'` halts the run. */
  readonly behaviour?: LimitBehaviour | undefined;
  /** Which tool calls are limited (default: all). */
  readonly matcher?: MatcherLike | undefined;
  /** The clock, in milliseconds (default `performance.now`); tests pass their own. */
  readonly now?: (() => number) | undefined;
  /** The priority to register at when the registration names none (default 0). */
  readonly priority?: number | undefined;
}

const seconds = (ms: number): string => (ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${Math.ceil(ms)} ms`);

/**
 * At most `limit` tool calls within any `windowMs` milliseconds (a sliding window: each call is remembered for
 * `windowMs` after it was allowed), for all tools together or per tool. A call over the budget is refused with the
 * time to wait (`behaviour: 'block'`, the default) or halts the run (`'stop'`).
 *
 * The budget belongs to the hook instance, not to a run: every run and agent the instance is registered with shares
 * it, which is what a limit on an outside service needs. Give each agent its own instance for separate budgets. A
 * call that a later PreToolUse hook refuses gives its slot back; concurrent calls cannot overdraw the budget, because
 * a call takes its slot before the rest of the chain runs.
 *
 * ```ts
 * // At most 10 web requests a minute, across every run of the agent.
 * AgentBuilder.new().withModel(model).withTools(fetchTool)
 *   .withHook(new RateLimitHook({ limit: 10, windowMs: 60_000, matcher: 'fetch' }));
 * ```
 */
export class RateLimitHook implements Hook {
  /** Always `'RateLimitHook'`. */
  readonly name = 'RateLimitHook';
  /** Runs before tools: PreToolUse. */
  readonly events: readonly HookEventName[] = ['PreToolUse'];
  /** Which calls are limited. */
  readonly matcher: HookMatcher | undefined;
  /** The priority it registers at by default. */
  readonly priority: number;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly perTool: boolean;
  private readonly behaviour: LimitBehaviour;
  private readonly now: () => number;
  /** When each call still inside the window was allowed, oldest first, per budget. */
  private readonly windows = new Map<string, number[]>();

  constructor(options: RateLimitHookOptions) {
    if (!Number.isInteger(options?.limit) || options.limit < 1) {
      throw new RangeError(`RateLimitHook: limit must be an integer ≥ 1, got ${String(options?.limit)}.`);
    }
    if (typeof options.windowMs !== 'number' || !(options.windowMs > 0) || !Number.isFinite(options.windowMs)) {
      throw new RangeError(`RateLimitHook: windowMs must be a positive number of milliseconds, got ${String(options.windowMs)}.`);
    }
    if (options.scope !== undefined && options.scope !== 'global' && options.scope !== 'tool') {
      throw new TypeError(`RateLimitHook: scope must be 'global' or 'tool', got ${JSON.stringify(options.scope)}.`);
    }
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.perTool = options.scope === 'tool';
    this.behaviour = checkBehaviour('RateLimitHook', options.behaviour);
    this.priority = checkPriority('RateLimitHook', options.priority, 0);
    this.matcher = Matcher.from(options.matcher);
    this.now = options.now ?? (() => performance.now());
  }

  /** How many calls the budget of `toolName` (or the global one) still allows now. */
  remaining(toolName?: string): number {
    return this.limit - this.window(this.perTool ? (toolName ?? '') : '', this.now()).length;
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    if (ctx.event !== 'PreToolUse') return next(ctx);
    const tool = ctx.toolCall.name;
    const now = this.now();
    const window = this.window(this.perTool ? tool : '', now);
    if (window.length >= this.limit) {
      const wait = window[0]! + this.windowMs - now;
      const calls = this.limit === 1 ? 'call' : 'calls';
      const what = this.perTool ? `${calls} to ${tool}` : `tool ${calls}`;
      return refuse(this.behaviour, `Rate limit reached: at most ${this.limit} ${what} per ${seconds(this.windowMs)}; try again in ${seconds(wait)}.`);
    }
    window.push(now);
    const release = () => {
      const at = window.indexOf(now);
      if (at !== -1) window.splice(at, 1);
    };
    const settle = (outcome: HookOutcome): HookOutcome => {
      if (outcome.type === 'block' || outcome.type === 'stop') release();
      return outcome;
    };
    let result: MaybePromise<HookOutcome>;
    try {
      result = next(ctx);
    } catch (error) {
      release();
      throw error;
    }
    if (!isThenable(result)) return settle(result);
    return Promise.resolve(result).then(settle, (error: unknown) => {
      release();
      throw error;
    });
  }

  /** The calls of one budget still inside the window at `now`; older ones are forgotten. */
  private window(key: string, now: number): number[] {
    let window = this.windows.get(key);
    if (window === undefined) {
      window = [];
      this.windows.set(key, window);
    }
    let expired = 0;
    while (expired < window.length && window[expired]! <= now - this.windowMs) expired++;
    if (expired > 0) window.splice(0, expired);
    return window;
  }
}
