/**
 * A hook that limits how many tool calls one run makes.
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
import { checkBehaviour, checkPriority, refuse } from './internal/refuse.js';
import type { LimitBehaviour } from './limit-behaviour.js';

/** The calls a run has made so far, as a {@link ToolCallLimitHook} counts them (in the run's metadata). */
export interface ToolCallCounts {
  /** Every counted call of the run. */
  readonly total: number;
  /** Counted calls per tool name. */
  readonly byTool: Readonly<Record<string, number>>;
}

/** Options of a {@link ToolCallLimitHook}. */
export interface ToolCallLimitHookOptions {
  /** The most tool calls one run may make, all tools together. */
  readonly limit?: number | undefined;
  /** The most calls one run may make to each named tool (exact names). */
  readonly perTool?: Readonly<Record<string, number>> | undefined;
  /** `'block'` (default) refuses the call over the limit and lets the run go on; `'stop'` halts the run. */
  readonly behaviour?: LimitBehaviour | undefined;
  /** Which tool calls count (default: all). */
  readonly matcher?: MatcherLike | undefined;
  /** Where the counts live in the run's metadata (default {@link ToolCallLimitHook.metadataKey}). */
  readonly metadataKey?: string | undefined;
  /** The priority to register at when the registration names none (default 0). */
  readonly priority?: number | undefined;
}

const EMPTY: ToolCallCounts = Object.freeze({ total: 0, byTool: Object.freeze({}) });

const checkLimit = (what: string, value: unknown): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`ToolCallLimitHook: ${what} must be an integer ≥ 0, got ${String(value)}.`);
  }
  return value;
};

/**
 * Limits the tool calls of one run: all tools together (`limit`) and each tool on its own (`perTool`). A call over a
 * limit is refused (`behaviour: 'block'`, the default: the model is told and may answer without the tool) or halts
 * the run (`'stop'`).
 *
 * The counts live in the run's metadata (under {@link ToolCallLimitHook.metadataKey}, as {@link ToolCallCounts}), not
 * in the hook: one instance serves any number of agents and concurrent runs, each run counting its own calls, and
 * `result.metadata` tells how many calls a run made. A call is counted once it has passed every PreToolUse hook; a
 * call a PreToolUse hook refuses does not count (one the approver refuses later does). A subagent's run counts its own calls; the parent counts the call that
 * started the subagent. Counting needs a runtime that carries metadata from one event to the next, as the agent does.
 *
 * ```ts
 * const agent = AgentBuilder.new()
 *   .withModel(model)
 *   .withTools(bash, search)
 *   .withHook(new ToolCallLimitHook({ limit: 20, perTool: { bash: 5 }, behaviour: 'block' }))
 *   .build();
 * const result = await agent.run('Tidy the repo');
 * result.metadata[ToolCallLimitHook.metadataKey];   // { total: 7, byTool: { bash: 5, search: 2 } }
 * ```
 */
export class ToolCallLimitHook implements Hook {
  /** The default metadata key of the counts. */
  static readonly metadataKey = 'agent_hooks.tool_calls';

  /** Always `'ToolCallLimitHook'`. */
  readonly name = 'ToolCallLimitHook';
  /** Runs before tools: PreToolUse. */
  readonly events: readonly HookEventName[] = ['PreToolUse'];
  /** Which calls count. */
  readonly matcher: HookMatcher | undefined;
  /** The priority it registers at by default. */
  readonly priority: number;
  /** The metadata key the counts are kept under. */
  readonly metadataKey: string;
  private readonly limit: number | undefined;
  private readonly perTool: ReadonlyMap<string, number>;
  private readonly behaviour: LimitBehaviour;

  constructor(options: ToolCallLimitHookOptions) {
    if (options?.limit === undefined && options?.perTool === undefined) {
      throw new TypeError('ToolCallLimitHook needs a limit: give `limit` (all tools) and/or `perTool` ({ toolName: limit }).');
    }
    this.limit = options.limit === undefined ? undefined : checkLimit('limit', options.limit);
    this.perTool = new Map(Object.entries(options.perTool ?? {}).map(([tool, n]) => [tool, checkLimit(`perTool.${tool}`, n)]));
    this.behaviour = checkBehaviour('ToolCallLimitHook', options.behaviour);
    this.priority = checkPriority('ToolCallLimitHook', options.priority, 0);
    this.matcher = Matcher.from(options.matcher);
    this.metadataKey = options.metadataKey ?? ToolCallLimitHook.metadataKey;
  }

  /** The counts a context's run has so far. */
  counts(ctx: AnyHookContext): ToolCallCounts {
    return ctx.get<ToolCallCounts | undefined>(this.metadataKey) ?? EMPTY;
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    if (ctx.event !== 'PreToolUse') return next(ctx);
    const tool = ctx.toolCall.name;
    const counts = this.counts(ctx);
    const used = counts.byTool[tool] ?? 0;
    const toolLimit = this.perTool.get(tool);
    if (toolLimit !== undefined && used >= toolLimit) {
      return refuse(this.behaviour, `Tool call limit reached: ${tool} may be called at most ${toolLimit} time${toolLimit === 1 ? '' : 's'} per run.`);
    }
    if (this.limit !== undefined && counts.total >= this.limit) {
      return refuse(this.behaviour, `Tool call limit reached: at most ${this.limit} tool call${this.limit === 1 ? '' : 's'} per run.`);
    }
    // The new counts travel with the context: the agent keeps them for the rest of this run only if the call goes on.
    return next(ctx.withMetadata(this.metadataKey, Object.freeze({ total: counts.total + 1, byTool: Object.freeze({ ...counts.byTool, [tool]: used + 1 }) })));
  }
}
