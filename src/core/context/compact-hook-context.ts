/**
 * The context of the compaction events.
 *
 * @module
 */
import type { Message } from '../message.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

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

/**
 * The class behind {@link CompactHookContext}: its members are documented here. Construct contexts with
 * `new CompactHookContext(…)` or its static methods, and name their type {@link CompactHookContext}, which narrows by
 * event.
 */
export class CompactHookContextClass<E extends CompactEventName = CompactEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('CompactHookContext'));
  }

  /** Who asked for compaction. */
  readonly trigger: CompactTrigger;
  /** The conversation before compaction. */
  readonly messagesBefore: readonly Message[];
  /** The conversation after compaction: always set on PostCompact (the type says so once the event is known). */
  readonly messagesAfter: E extends 'PostCompact' ? readonly Message[] : readonly Message[] | undefined;
  /** Instructions given for the summary, if any. */
  readonly customInstructions: string | undefined;

  constructor(event: E, init: CompactHookContextInit) {
    super(event, init);
    // The type promises the compacted conversation on PostCompact, so the constructor keeps the promise.
    if (event === 'PostCompact' && init.messagesAfter === undefined) {
      throw new TypeError('A PostCompact context needs messagesAfter (use CompactHookContext.after(…)).');
    }
    this.trigger = init.trigger ?? 'auto';
    this.messagesBefore = Object.freeze([...init.messagesBefore]);
    this.messagesAfter = (init.messagesAfter ? Object.freeze([...init.messagesAfter]) : undefined) as this['messagesAfter'];
    this.customInstructions = init.customInstructions;
    Object.freeze(this);
  }

  /** A PreCompact context. */
  static before(init: Omit<CompactHookContextInit, 'messagesAfter'>): CompactHookContext<'PreCompact'> {
    return new CompactHookContextClass('PreCompact', init);
  }

  /** A PostCompact context. */
  static after(init: CompactHookContextInit & { messagesAfter: readonly Message[] }): CompactHookContext<'PostCompact'> {
    return new CompactHookContextClass('PostCompact', init);
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

// Contexts keep the name users know in stack traces and error messages.
Object.defineProperty(CompactHookContextClass, 'name', { value: 'CompactHookContext' });

/**
 * PreCompact and PostCompact: the conversation is shortened to fit the model's budget.
 *
 * As a type, `CompactHookContext` is one member per event, so checking the event narrows the fields: after
 * `ctx.event === 'PostCompact'`, `ctx.messagesAfter` is set. As a value it is the class
 * ({@link CompactHookContextClass}).
 */
export type CompactHookContext<E extends CompactEventName = CompactEventName> = E extends CompactEventName
  ? CompactHookContextClass<E>
  : never;

/** The compaction events' context class; see {@link CompactHookContext}. */
export const CompactHookContext = CompactHookContextClass;
