/**
 * Hooks run side by side, as Claude Code runs the matching hooks of one event.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import type { HookEventName } from '../events.js';
import type { Hook, NextFn } from '../hook.js';
import type { HookScope } from '../hook-scope.js';
import type { HookMatcher } from '../matchers/hook-matcher.js';
import { Matcher } from '../matchers/matcher.js';
import { HookOutcome } from '../outcome.js';

interface Member {
  readonly hook: Hook;
  readonly events: ReadonlySet<HookEventName> | undefined;
  readonly matcher: HookMatcher | undefined;
}

/**
 * One middleware that runs several hooks at once, each on the context as it arrived, and goes on with their combined
 * decision — the way Claude Code runs the matching hooks of an event, in parallel. A stack runs hooks one after
 * another, so that a rewritten input reaches the next hook; here none sees another's rewrite, and when several
 * rewrite, the last one (in the order given) wins, as in Claude Code. Decisions combine as the stack's do: any block
 * or stop wins, then ask, then allow; every additional context and system message is kept, in the order given.
 *
 * Each member's own `events` and `matcher` are honoured. A member that throws does so after every member has
 * finished, so the group never leaves a hook running behind it.
 *
 * ```ts
 * const { hooks } = await loadClaudeHooks({ projectDir: process.cwd() });
 * stack.add(new ParallelHooks(hooks.filter((h) => h.events?.includes('PostToolUse'))));
 * ```
 */
export class ParallelHooks implements Hook {
  /** A name for listings: the members' names. */
  readonly name: string;
  /** Every event a member runs for; `undefined` when one runs for all. */
  readonly events: readonly HookEventName[] | undefined;
  /** The priority of the first member that has one. */
  readonly priority: number | undefined;
  /** The members, in the order their decisions combine. */
  readonly hooks: readonly Hook[];
  private readonly members: readonly Member[];

  constructor(hooks: readonly Hook[], options: { readonly name?: string | undefined } = {}) {
    if (hooks.length === 0) throw new TypeError('ParallelHooks needs at least one hook.');
    this.hooks = Object.freeze([...hooks]);
    this.members = this.hooks.map((hook) => ({
      hook,
      events: hook.events === undefined ? undefined : new Set(hook.events),
      matcher: Matcher.from(hook.matcher),
    }));
    this.name = options.name ?? `parallel: ${this.hooks.map((h) => h.name ?? h.constructor.name).join(', ')}`;
    this.events = this.hooks.some((h) => h.events === undefined) ? undefined : [...new Set(this.hooks.flatMap((h) => h.events ?? []))];
    this.priority = this.hooks.find((h) => h.priority !== undefined)?.priority;
  }

  async handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): Promise<HookOutcome> {
    const running = this.members.filter((m) => (m.events === undefined || m.events.has(ctx.event)) && (m.matcher === undefined || m.matcher.matches(ctx)));
    if (running.length === 0) return next(ctx);
    // Each member ends its own chain here: what it passes on is its rewrite, if it made one.
    const end: NextFn = (passed) => HookOutcome.proceed(passed !== undefined && passed !== ctx ? passed : undefined);
    const settled = await Promise.allSettled(running.map((m) => Promise.resolve().then(() => m.hook.handle(ctx, end, scope))));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const outcomes = settled.map((s) => (s as PromiseFulfilledResult<HookOutcome>).value);
    const combined = outcomes.reduce((first, then) => HookOutcome.merge(first, then));
    if (combined.type === 'block' || combined.type === 'stop') return combined;
    return HookOutcome.merge(combined, await next(combined.context ?? ctx));
  }
}
