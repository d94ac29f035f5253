/**
 * The context of AgentFailed.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';
import { messageOf } from '../internal/message-of.js';

/** The fields of a {@link FailureHookContext}. */
export interface FailureHookContextInit extends HookContextInit {
  /** What was thrown. */
  error: unknown;
}

/**
 * AgentFailed: the run hit an unrecoverable error. Hooks observe it (log, alert, clean up); the run still fails.
 */
export class FailureHookContext extends HookContextBase<'AgentFailed'> {
  static {
    brand(this, brandKey('FailureHookContext'));
  }

  /** What was thrown. */
  readonly error: unknown;

  constructor(init: FailureHookContextInit) {
    super('AgentFailed', init);
    this.error = init.error;
    Object.freeze(this);
  }

  // Fields listed, not spread: see ToolHookContext.beforeToolUse.
  /** An AgentFailed context. */
  static onFailure(error: unknown, init: HookContextInit = {}): FailureHookContext {
    return new FailureHookContext({ state: init.state, metadata: init.metadata, error });
  }

  /** What was thrown (the PHP API's name for {@link FailureHookContext.error}). */
  get exception(): unknown {
    return this.error;
  }

  /** The error's message. */
  get errorMessage(): string {
    return messageOf(this.error);
  }

  /** The error's class name (`'TypeError'`, …), or the type of what was thrown when it is not an object. */
  get errorClass(): string {
    if (this.error !== null && typeof this.error === 'object') return this.error.constructor?.name ?? 'Object';
    return typeof this.error;
  }

  protected override ownFields(): Record<string, unknown> {
    return { errorClass: this.errorClass, errorMessage: this.errorMessage };
  }
}
