/**
 * Runs a continuation criterion as step and stop hooks.
 *
 * @module
 */
import { HookOutcome, type AgentState, type AnyHookContext, type Hook, type HookEventName, type MaybePromise, type NextFn } from '../../core/index.js';

/** What a criterion decides: keep going, stop now, or no opinion. */
export type ContinuationDecision = 'continue' | 'stop' | 'neutral';

/** A decision with its reason. */
export interface ContinuationVerdict {
  /** Keep going, stop now, or no opinion. */
  readonly decision: ContinuationDecision;
  /** Why: the stop reason, or the feedback the agent gets when kept working. */
  readonly reason?: string | undefined;
}

/** Something that decides whether the agent should go on (the PHP API's continuation criteria). */
export interface ContinuationCriterion {
  /** The decision for this state, optionally with a reason. */
  evaluate(state: AgentState): ContinuationDecision | ContinuationVerdict | Promise<ContinuationDecision | ContinuationVerdict>;
}

/**
 * Adapts a {@link ContinuationCriterion} into a hook. After each step, `stop` halts the run (e.g. a token budget). At
 * the Stop gate, `continue` keeps the agent working (a block with the reason as feedback) — e.g. unfinished tasks.
 * `neutral` leaves the decision to the others.
 */
export class ContinuationCriteriaAdapter implements Hook {
  /** AfterStep and Stop. */
  readonly events: readonly HookEventName[] = ['AfterStep', 'Stop'];
  /** The criterion's class name. */
  readonly name: string;

  constructor(private readonly criterion: ContinuationCriterion) {
    if (typeof criterion?.evaluate !== 'function') throw new TypeError('ContinuationCriteriaAdapter needs an object with evaluate(state).');
    const ctor = (criterion as object).constructor;
    this.name = `ContinuationCriteriaAdapter(${ctor && ctor !== Object ? ctor.name : 'criterion'})`;
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    const answer = this.criterion.evaluate(ctx.state);
    return answer instanceof Promise ? answer.then((a) => this.decide(a, ctx, next)) : this.decide(answer, ctx, next);
  }

  private decide(
    answer: ContinuationDecision | ContinuationVerdict,
    ctx: AnyHookContext,
    next: NextFn,
  ): MaybePromise<HookOutcome> {
    const { decision, reason } = typeof answer === 'string' ? { decision: answer, reason: undefined } : answer;
    if (ctx.event === 'AfterStep' && decision === 'stop') return HookOutcome.stop(reason ?? `${this.name} ended the run.`);
    if (ctx.event === 'Stop' && decision === 'continue') return HookOutcome.block(reason ?? `${this.name}: work remains.`);
    return next(ctx);
  }
}
