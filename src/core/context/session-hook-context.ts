/**
 * The context of the session events.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The events that open and close a session. */
export type SessionEventName = 'SessionStart' | 'SessionEnd';

/** Why a session starts, in Claude Code's terms. */
export type SessionSource = 'startup' | 'resume' | 'clear' | 'compact';

/** The fields of a {@link SessionHookContext}. */
export interface SessionHookContextInit extends HookContextInit {
  /** Why the session starts (SessionStart); defaults to `startup`. */
  source?: SessionSource;
  /** Why the session ends (SessionEnd), e.g. `'close'`. */
  reason?: string | undefined;
  /** The name of the model the session talks to, when known. */
  model?: string | undefined;
  /** How long the session lasted, in milliseconds (SessionEnd), when it started in this process. */
  durationMs?: number | undefined;
  /** The prompt the session starts with (SessionStart), when it starts with one. */
  initialPrompt?: string | undefined;
}

/** SessionStart and SessionEnd: a conversation of several runs. */
export class SessionHookContext<E extends SessionEventName = SessionEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('SessionHookContext'));
  }

  /** Why the session starts. */
  readonly source: SessionSource;
  /** Why the session ends: set on SessionEnd. */
  readonly reason: string | undefined;
  /** The name of the model the session talks to, when known. */
  readonly model: string | undefined;
  /** How long the session lasted, in milliseconds: set on SessionEnd when the session started in this process. */
  readonly durationMs: number | undefined;
  /** The prompt the session starts with: set on SessionStart when the session starts with a prompt. */
  readonly initialPrompt: string | undefined;

  constructor(event: E, init: SessionHookContextInit = {}) {
    super(event, init);
    this.source = init.source ?? 'startup';
    this.reason = init.reason;
    this.model = init.model;
    this.durationMs = init.durationMs;
    this.initialPrompt = init.initialPrompt;
    Object.freeze(this);
  }

  /** A SessionStart context. */
  static onStart(init: SessionHookContextInit = {}): SessionHookContext<'SessionStart'> {
    return new SessionHookContext('SessionStart', init);
  }

  /** A SessionEnd context. */
  static onEnd(init: SessionHookContextInit = {}): SessionHookContext<'SessionEnd'> {
    return new SessionHookContext('SessionEnd', init);
  }

  override get subject(): string | undefined {
    return this.event === 'SessionStart' ? this.source : this.reason;
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      source: this.source,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.durationMs !== undefined ? { durationMs: this.durationMs } : {}),
      ...(this.initialPrompt !== undefined ? { initialPrompt: this.initialPrompt } : {}),
    };
  }
}
