/**
 * The context of the step events.
 *
 * @module
 */
import type { AgentStep } from '../agent-step.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

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
 * The class behind {@link StepHookContext}: its members are documented here. Construct contexts with
 * `new StepHookContext(…)` or its static methods, and name their type {@link StepHookContext}, which narrows by event.
 */
export class StepHookContextClass<E extends StepEventName = StepEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('StepHookContext'));
  }

  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** The completed step: always set on AfterStep (the type says so once the event is known), absent on BeforeStep. */
  readonly step: E extends 'AfterStep' ? AgentStep : AgentStep | undefined;

  constructor(event: E, init: StepHookContextInit) {
    super(event, init);
    if (!Number.isInteger(init.stepIndex) || init.stepIndex < 0) {
      throw new RangeError(`stepIndex must be an integer ≥ 0, got ${init.stepIndex}.`);
    }
    // The type promises a step on AfterStep, so the constructor keeps the promise.
    if (event === 'AfterStep' && init.step === undefined) {
      throw new TypeError('An AfterStep context needs the completed step (use StepHookContext.afterStep(step)).');
    }
    this.stepIndex = init.stepIndex;
    this.step = init.step as this['step'];
    Object.freeze(this);
  }

  // Fields listed, not spread: see ToolHookContext.beforeToolUse.
  /** A BeforeStep context. */
  static beforeStep(stepIndex: number, init: HookContextInit = {}): StepHookContext<'BeforeStep'> {
    return new StepHookContextClass('BeforeStep', { state: init.state, metadata: init.metadata, stepIndex });
  }

  /** An AfterStep context for a completed step. */
  static afterStep(step: AgentStep, init: HookContextInit = {}): StepHookContext<'AfterStep'> {
    return new StepHookContextClass('AfterStep', { state: init.state, metadata: init.metadata, stepIndex: step.index, step });
  }

  /** 1-based step number, for display. */
  get stepNumber(): number {
    return this.stepIndex + 1;
  }

  /** Whether this is BeforeStep. */
  isBeforeStep(): this is StepHookContext<'BeforeStep'> {
    return this.event === 'BeforeStep';
  }

  /** Whether this is AfterStep, whose context carries the completed {@link StepHookContextClass.step}. */
  isAfterStep(): this is StepHookContext<'AfterStep'> {
    return this.event === 'AfterStep';
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      stepIndex: this.stepIndex,
      ...(this.step ? { step: { index: this.step.index, text: this.step.text, toolCalls: this.step.toolCalls.map((c) => c.toJSON()) } } : {}),
    };
  }
}

// Contexts keep the name users know in stack traces and error messages.
Object.defineProperty(StepHookContextClass, 'name', { value: 'StepHookContext' });

/**
 * BeforeStep and AfterStep. A step hook may return a modified `AgentState` to replace the agent's state.
 *
 * As a type, `StepHookContext` is one member per event, so checking the event narrows the fields: after
 * `ctx.event === 'AfterStep'` (or `ctx.isAfterStep()`), `ctx.step` is an `AgentStep`. As a value it is the class
 * ({@link StepHookContextClass}).
 */
export type StepHookContext<E extends StepEventName = StepEventName> = E extends StepEventName ? StepHookContextClass<E> : never;

/** The step events' context class; see {@link StepHookContext}. */
export const StepHookContext = StepHookContextClass;
