/**
 * The context of the step events.
 *
 * @module
 */
import type { AgentStep } from '../agent-step.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';

/** The step events. */
export type StepEventName = 'BeforeStep' | 'AfterStep';

/** The fields of a {@link StepHookContext}. */
export interface StepHookContextInit extends HookContextInit {
  /** 0-based index of the step. */
  stepIndex: number;
  /** The completed step (AfterStep). */
  step?: AgentStep | undefined;
}

/**
 * BeforeStep and AfterStep. A step hook may return a modified `AgentState` to replace the agent's state.
 */
export class StepHookContext<E extends StepEventName = StepEventName> extends HookContextBase<E> {
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** The completed step: set on AfterStep. */
  readonly step: AgentStep | undefined;

  constructor(event: E, init: StepHookContextInit) {
    super(event, init);
    if (!Number.isInteger(init.stepIndex) || init.stepIndex < 0) {
      throw new RangeError(`stepIndex must be an integer ≥ 0, got ${init.stepIndex}.`);
    }
    this.stepIndex = init.stepIndex;
    this.step = init.step;
    Object.freeze(this);
  }

  // Fields listed, not spread: see ToolHookContext.beforeToolUse.
  /** A BeforeStep context. */
  static beforeStep(stepIndex: number, init: HookContextInit = {}): StepHookContext<'BeforeStep'> {
    return new StepHookContext('BeforeStep', { state: init.state, metadata: init.metadata, stepIndex });
  }

  /** An AfterStep context for a completed step. */
  static afterStep(step: AgentStep, init: HookContextInit = {}): StepHookContext<'AfterStep'> {
    return new StepHookContext('AfterStep', { state: init.state, metadata: init.metadata, stepIndex: step.index, step });
  }

  /** 1-based step number, for display. */
  get stepNumber(): number {
    return this.stepIndex + 1;
  }

  /** Whether this is BeforeStep. */
  isBeforeStep(): this is StepHookContext<'BeforeStep'> {
    return this.event === 'BeforeStep';
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      stepIndex: this.stepIndex,
      ...(this.step ? { step: { index: this.step.index, text: this.step.text, toolCalls: this.step.toolCalls.map((c) => c.toJSON()) } } : {}),
    };
  }
}
