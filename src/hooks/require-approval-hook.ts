/**
 * A hook that asks for approval before matching tools run.
 *
 * @module
 */
import {
  HookOutcome,
  Matcher,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type HookMatcher,
  type MatcherLike,
  type MaybePromise,
  type NextFn,
  type ToolHookContext,
} from '../core/index.js';
import { isThenable } from '../core/internal/thenable.js';
import { checkPriority } from './internal/refuse.js';

/** Options of a {@link RequireApprovalHook}. */
export interface RequireApprovalHookOptions {
  /**
   * The tools that need approval, as the builder's `matcher` option takes it: a tool-name pattern (`'bash'`,
   * `'write_*'`, `'bash|shell'`, `'/^mcp__/'`), a RegExp, a `(ctx) => boolean` predicate, a HookMatcher (e.g. an
   * `InputPatternMatcher` to ask only for some inputs), or a list of these.
   */
  readonly matcher: MatcherLike;
  /** What the approver is told (default: `<tool> needs approval`); a function gets the PreToolUse context. */
  readonly reason?: string | ((ctx: ToolHookContext<'PreToolUse'>) => string) | undefined;
  /** The priority to register at when the registration names none (default 0). */
  readonly priority?: number | undefined;
}

/**
 * Asks for approval before matching tools run: PreToolUse answers `ask`, so PermissionRequest hooks and then the
 * agent's approver (`AgentBuilder.withApprover`) decide; without an approver the call is refused. The hooks after it
 * still run: a later block wins over the ask, and a later `allow` does not skip the approver.
 *
 * ```ts
 * const agent = AgentBuilder.new()
 *   .withModel(model)
 *   .withTools(bash, readFile, writeFile)
 *   .withHook(new RequireApprovalHook({ matcher: 'bash|write_*', reason: (ctx) => `Run ${ctx.toolCall.name}?` }))
 *   .withApprover(async ({ toolCall, reason }) => askTheUser(reason, toolCall))
 *   .build();
 * ```
 */
export class RequireApprovalHook implements Hook {
  /** Always `'RequireApprovalHook'`. */
  readonly name = 'RequireApprovalHook';
  /** Runs before tools: PreToolUse. */
  readonly events: readonly HookEventName[] = ['PreToolUse'];
  /** The tools that need approval. */
  readonly matcher: HookMatcher | undefined;
  /** The priority it registers at by default. */
  readonly priority: number;
  private readonly reason: string | ((ctx: ToolHookContext<'PreToolUse'>) => string) | undefined;

  constructor(options: RequireApprovalHookOptions) {
    if (options?.matcher === undefined || options.matcher === null) {
      throw new TypeError("RequireApprovalHook needs a matcher: the tools that need approval, e.g. { matcher: 'bash|write_*' } ('*' for every tool).");
    }
    if (options.reason !== undefined && typeof options.reason !== 'string' && typeof options.reason !== 'function') {
      throw new TypeError('RequireApprovalHook: reason must be a string or a (ctx) => string function.');
    }
    this.matcher = Matcher.from(options.matcher);
    this.reason = options.reason;
    this.priority = checkPriority('RequireApprovalHook', options.priority, 0);
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    if (ctx.event !== 'PreToolUse') return next(ctx);
    const reason = typeof this.reason === 'function' ? this.reason(ctx as ToolHookContext<'PreToolUse'>) : (this.reason ?? `${ctx.toolCall.name} needs approval`);
    const ask = HookOutcome.ask(reason);
    const rest = next(ctx);
    return isThenable(rest) ? Promise.resolve(rest).then((r) => HookOutcome.merge(ask, r)) : HookOutcome.merge(ask, rest);
  }
}
