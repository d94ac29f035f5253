/**
 * The context of AgentFailed and StopFailure.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';
import { messageOf } from '../internal/message-of.js';
import { modelErrorType, type ModelErrorType } from '../model-error-type.js';

/** The failure events. */
export type FailureEventName = 'AgentFailed' | 'StopFailure';

/** The fields of a {@link FailureHookContext}. */
export interface FailureHookContextInit extends HookContextInit {
  /** What was thrown. */
  error: unknown;
  /** The kind of model error (StopFailure); told from the error's HTTP status when omitted. */
  errorType?: ModelErrorType | undefined;
  /** The assistant's last text before the failure, if it said anything (StopFailure). */
  finalMessage?: string | undefined;
  /** Whether the run failed on the model call (AgentFailed); `false` when omitted. */
  duringModelCall?: boolean | undefined;
}

/**
 * AgentFailed (the run hit an unrecoverable error) and StopFailure (the turn ended on a model error, in place of
 * Stop). Hooks observe them (log, alert, clean up); the run still fails. Without a type argument it is AgentFailed's
 * context, as it was before StopFailure shared it: `FailureHookContext<'StopFailure'>` is StopFailure's.
 */
export class FailureHookContext<E extends FailureEventName = 'AgentFailed'> extends HookContextBase<E> {
  static {
    brand(this, brandKey('FailureHookContext'));
  }

  /** What was thrown. */
  readonly error: unknown;
  /** The kind of model error, in Claude Code's words (`rate_limit`, `server_error`, …; `unknown` when not told). */
  readonly errorType: ModelErrorType;
  /** The assistant's last text before the failure, if it said anything. */
  readonly finalMessage: string | undefined;
  /** Whether the run failed on the model call, rather than elsewhere (a tool, a hook, the agent's own code). */
  readonly duringModelCall: boolean;

  /** A context of `event` (AgentFailed unless given). */
  constructor(init: FailureHookContextInit, event: E = 'AgentFailed' as E) {
    super(event, init);
    this.error = init.error;
    this.errorType = init.errorType ?? modelErrorType(init.error);
    this.finalMessage = init.finalMessage;
    this.duringModelCall = init.duringModelCall ?? false;
    Object.freeze(this);
  }

  // Fields listed, not spread: see ToolHookContext.beforeToolUse.
  /** An AgentFailed context; `duringModelCall` when the run failed on the model call. */
  static onFailure(error: unknown, init: HookContextInit & { duringModelCall?: boolean | undefined } = {}): FailureHookContext<'AgentFailed'> {
    return new FailureHookContext({ state: init.state, metadata: init.metadata, error, duringModelCall: init.duringModelCall }, 'AgentFailed');
  }

  /** A StopFailure context: the turn ended on the model call's `error`. */
  static onStopFailure(
    error: unknown,
    init: HookContextInit & { errorType?: ModelErrorType | undefined; finalMessage?: string | undefined } = {},
  ): FailureHookContext<'StopFailure'> {
    return new FailureHookContext(
      { state: init.state, metadata: init.metadata, error, errorType: init.errorType, finalMessage: init.finalMessage },
      'StopFailure',
    );
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

  /** StopFailure: the error kind, which a Claude Code settings matcher tests. */
  override get subject(): string | undefined {
    return this.event === 'StopFailure' ? this.errorType : undefined;
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      errorClass: this.errorClass,
      errorMessage: this.errorMessage,
      ...(this.event === 'StopFailure' ? { errorType: this.errorType } : {}),
      ...(this.finalMessage !== undefined ? { finalMessage: this.finalMessage } : {}),
    };
  }
}
