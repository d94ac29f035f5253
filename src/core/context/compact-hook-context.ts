/**
 * The context of the compaction events.
 *
 * @module
 */
import type { Message } from '../message.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';

/** The events around compaction of the conversation. */
export type CompactEventName = 'PreCompact' | 'PostCompact';

/** Whether compaction was asked for by the user or triggered by the message budget. */
export type CompactTrigger = 'manual' | 'auto';

/** The fields of a {@link CompactHookContext}. */
export interface CompactHookContextInit extends HookContextInit {
  /** Who asked for compaction; defaults to `auto`. */
  trigger?: CompactTrigger;
  /** The conversation before compaction. */
  messagesBefore: readonly Message[];
  /** The conversation after compaction (PostCompact). */
  messagesAfter?: readonly Message[] | undefined;
  /** Instructions given for the summary, if any. */
  customInstructions?: string | undefined;
}

/** PreCompact and PostCompact: the conversation is shortened to fit the model's budget. */
export class CompactHookContext<E extends CompactEventName = CompactEventName> extends HookContextBase<E> {
  /** Who asked for compaction. */
  readonly trigger: CompactTrigger;
  /** The conversation before compaction. */
  readonly messagesBefore: readonly Message[];
  /** The conversation after compaction: set on PostCompact. */
  readonly messagesAfter: readonly Message[] | undefined;
  /** Instructions given for the summary, if any. */
  readonly customInstructions: string | undefined;

  constructor(event: E, init: CompactHookContextInit) {
    super(event, init);
    this.trigger = init.trigger ?? 'auto';
    this.messagesBefore = Object.freeze([...init.messagesBefore]);
    this.messagesAfter = init.messagesAfter ? Object.freeze([...init.messagesAfter]) : undefined;
    this.customInstructions = init.customInstructions;
    Object.freeze(this);
  }

  /** A PreCompact context. */
  static before(init: Omit<CompactHookContextInit, 'messagesAfter'>): CompactHookContext<'PreCompact'> {
    return new CompactHookContext('PreCompact', init);
  }

  /** A PostCompact context. */
  static after(init: CompactHookContextInit & { messagesAfter: readonly Message[] }): CompactHookContext<'PostCompact'> {
    return new CompactHookContext('PostCompact', init);
  }

  /** A copy with other summary instructions (PreCompact). */
  withCustomInstructions(customInstructions: string): this {
    return this.copyWith({ customInstructions } as Partial<this>);
  }

  override get subject(): string {
    return this.trigger;
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      trigger: this.trigger,
      messagesBefore: this.messagesBefore.length,
      ...(this.messagesAfter ? { messagesAfter: this.messagesAfter.length } : {}),
      ...(this.customInstructions !== undefined ? { customInstructions: this.customInstructions } : {}),
    };
  }
}
