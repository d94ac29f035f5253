/**
 * The context of the execution events.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The events that open and close one run. */
export type ExecutionEventName = 'ExecutionStart' | 'ExecutionEnd';

/** How a run ended. */
export type RunStatus = 'completed' | 'stopped' | 'failed';

/** The fields of an {@link ExecutionHookContext}. */
export interface ExecutionHookContextInit extends HookContextInit {
  /** The prompt the run was started with. */
  prompt?: string | undefined;
  /** How the run ended (ExecutionEnd). */
  status?: RunStatus | undefined;
  /** Why it stopped or failed (ExecutionEnd). */
  reason?: string | undefined;
  /** How long the run took, in milliseconds (ExecutionEnd). */
  durationMs?: number | undefined;
}

/**
 * ExecutionStart and ExecutionEnd: one `run()` of the agent. Metadata set at ExecutionStart is readable at
 * ExecutionEnd, so a pair of hooks can time a run.
 */
export class ExecutionHookContext<E extends ExecutionEventName = ExecutionEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('ExecutionHookContext'));
  }

  /** The prompt the run was started with. */
  readonly prompt: string | undefined;
  /** How the run ended: set on ExecutionEnd. */
  readonly status: RunStatus | undefined;
  /** Why it stopped or failed: set on ExecutionEnd. */
  readonly reason: string | undefined;
  /** How long the run took, in milliseconds: set on ExecutionEnd. */
  readonly durationMs: number | undefined;

  constructor(event: E, init: ExecutionHookContextInit = {}) {
    super(event, init);
    this.prompt = init.prompt;
    this.status = init.status;
    this.reason = init.reason;
    this.durationMs = init.durationMs;
    Object.freeze(this);
  }

  /** An ExecutionStart context. */
  static onStart(init: ExecutionHookContextInit = {}): ExecutionHookContext<'ExecutionStart'> {
    return new ExecutionHookContext('ExecutionStart', init);
  }

  /** An ExecutionEnd context. */
  static onEnd(init: ExecutionHookContextInit = {}): ExecutionHookContext<'ExecutionEnd'> {
    return new ExecutionHookContext('ExecutionEnd', init);
  }

  /** Whether this is ExecutionStart. */
  isStart(): this is ExecutionHookContext<'ExecutionStart'> {
    return this.event === 'ExecutionStart';
  }

  /** Whether this is ExecutionEnd, the event that carries the run's `status`, `reason` and `durationMs`. */
  isEnd(): this is ExecutionHookContext<'ExecutionEnd'> {
    return this.event === 'ExecutionEnd';
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      ...(this.prompt !== undefined ? { prompt: this.prompt } : {}),
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.durationMs !== undefined ? { durationMs: this.durationMs } : {}),
    };
  }
}
