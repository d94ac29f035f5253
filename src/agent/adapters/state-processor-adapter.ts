/**
 * Runs a state processor as a step hook.
 *
 * @module
 */
import { AgentState, type AnyHookContext, type Hook, type HookEventName, type HookOutcome, type MaybePromise, type NextFn } from '../../core/index.js';

/** Something that turns an agent state into another (the PHP API's state processors). */
export interface StateProcessor {
  /** Returns the new state (or the same one). */
  process(state: AgentState): AgentState | Promise<AgentState>;
}

/**
 * Adapts a {@link StateProcessor} into a hook: with `position: 'before'` it processes the state on BeforeStep, with
 * `'after'` (the default) on AfterStep. The processed state replaces the agent's state for the rest of the run.
 *
 * ```ts
 * builder.withHook(new StateProcessorAdapter({ process: (s) => s.withMetadata('seen', true) }, { position: 'before' }));
 * ```
 */
export class StateProcessorAdapter implements Hook {
  /** BeforeStep or AfterStep, from the position. */
  readonly events: readonly HookEventName[];
  /** The processor's class name. */
  readonly name: string;

  constructor(
    private readonly processor: StateProcessor,
    options: { readonly position?: 'before' | 'after' } = {},
  ) {
    if (typeof processor?.process !== 'function') throw new TypeError('StateProcessorAdapter needs an object with process(state).');
    this.events = [options.position === 'before' ? 'BeforeStep' : 'AfterStep'];
    const ctor = (processor as object).constructor;
    this.name = `StateProcessorAdapter(${ctor && ctor !== Object ? ctor.name : 'processor'})`;
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    const processed = this.processor.process(ctx.state);
    const go = (state: AgentState) => {
      if (!AgentState.isAgentState(state)) throw new TypeError(`${this.name}: process() must return an AgentState, got ${String(state)}.`);
      return next(ctx.withState(state));
    };
    return processed instanceof Promise ? processed.then(go) : go(processed);
  }
}
