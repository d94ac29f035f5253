/**
 * What a hook decides.
 *
 * @module
 */
import type { AnyHookContext } from './context/any-hook-context.js';
import { BRAND, brand, brandKey, ownClass } from './internal/brand.js';

/**
 * The kinds of decision:
 * - `proceed` — go on (optionally with a modified context);
 * - `block` — refuse this one action (a tool call, a prompt, a stop); the run goes on;
 * - `stop` — halt the whole run;
 * - `ask` — the action needs approval (PermissionRequest, then the approver).
 */
export type OutcomeType = 'proceed' | 'block' | 'stop' | 'ask';

/** The permission decision an outcome stands for, in the terms real agents use. */
export type PermissionDecision = 'allow' | 'ask' | 'deny';

/** Extras any outcome may carry. */
export interface OutcomeExtras {
  /** Text for the model's next call (one entry or several). */
  additionalContext?: string | readonly string[] | undefined;
  /** A message for the user (one entry or several). */
  systemMessage?: string | readonly string[] | undefined;
}

/** The plain-object form of an outcome, from {@link HookOutcome.toJSON}. */
export interface HookOutcomeJSON {
  /** The decision. */
  type: OutcomeType;
  /** The decision in permission terms. */
  decision: PermissionDecision;
  /** Why (block, stop, ask). */
  reason?: string;
  /** Every additional context, in order. */
  additionalContext?: string[];
  /** Every system message, in order. */
  systemMessage?: string[];
}

/**
 * The PHP AgentBuilder's array form of an outcome, from {@link HookOutcome.toArray}: the same keys and values as its
 * `HookOutcome::toArray()`, for logs and tools that read that shape.
 */
export interface HookOutcomeArray {
  /** The decision: `'proceed'`, `'block'` or `'stop'` as in PHP, or `'ask'`, which PHP does not have. */
  type: OutcomeType;
  /** Why (block, stop, ask; a grant may give one too); `null` when there is none, as PHP writes it. */
  reason: string | null;
  /** Whether the outcome carries a context to go on with. */
  hasContext: boolean;
}

/** Thrown when an outcome is built from invalid arguments (a block or stop without a reason). */
export class HookOutcomeError extends TypeError {
  /** Always `'HookOutcomeError'`. */
  override readonly name = 'HookOutcomeError';
}

const NONE: readonly string[] = Object.freeze([]);

const OUTCOME = brandKey('HookOutcome');
const TYPES: ReadonlySet<unknown> = new Set<OutcomeType>(['proceed', 'block', 'stop', 'ask']);

const list = (value: string | readonly string[] | undefined, field: string): readonly string[] => {
  if (value === undefined) return NONE;
  if (typeof value !== 'string' && !Array.isArray(value)) {
    throw new HookOutcomeError(`${field} must be a string or an array of strings, got ${value === null ? 'null' : typeof value}.`);
  }
  const items: readonly unknown[] = typeof value === 'string' ? [value] : value;
  for (const item of items) {
    if (typeof item !== 'string') throw new HookOutcomeError(`${field} must be a string or an array of strings, got ${typeof item}.`);
  }
  return Object.freeze((items as string[]).filter((s) => s.length > 0));
};

const requireReason = (type: OutcomeType, reason: unknown): string => {
  if (typeof reason !== 'string' || reason.trim().length === 0) {
    throw new HookOutcomeError(
      `HookOutcome.${type}() needs a non-empty reason: it is shown to the model or the user, so say why (e.g. HookOutcome.${type}('Dangerous command: rm -rf')).`,
    );
  }
  return reason;
};

/**
 * A hook's decision. Immutable; build one with {@link HookOutcome.proceed}, {@link HookOutcome.block},
 * {@link HookOutcome.stop} or {@link HookOutcome.ask}.
 *
 * What `block` means depends on the event: on PreToolUse the call is refused and the model is told why; on Stop the
 * agent keeps working with the reason as feedback; on UserPromptSubmit the prompt is rejected; on an observer event it
 * is ignored with a warning. `stop` halts the run wherever it is returned.
 */
export class HookOutcome<C extends AnyHookContext = AnyHookContext> {
  // Private fields behind getters make an outcome read-only at run time without Object.freeze, which costs more than
  // a whole hook's dispatch (an outcome is made on every dispatch).
  readonly #type: OutcomeType;
  readonly #reason: string | undefined;
  readonly #context: C | undefined;
  readonly #additionalContext: readonly string[];
  readonly #systemMessages: readonly string[];
  readonly #granted: boolean;
  readonly #deferred: boolean;

  static {
    brand(this, OUTCOME);
  }

  private constructor(
    type: OutcomeType,
    reason: string | undefined,
    context: C | undefined,
    additionalContext: readonly string[],
    systemMessages: readonly string[],
    granted = false,
    deferred = false,
  ) {
    this.#type = type;
    this.#reason = reason;
    this.#context = context;
    this.#additionalContext = additionalContext;
    this.#systemMessages = systemMessages;
    this.#granted = granted;
    this.#deferred = deferred;
  }

  /**
   * Whether an ask defers the decision to whoever decides later (Claude Code's `permissionDecision: "defer"`) rather
   * than asking now: the agent runs no PermissionRequest hook and no approver for it. With
   * `withApprovalInterrupts()` the run pauses at the call, to be resumed with a decision; without, it ends there and
   * the tool does not run, as a headless Claude Code ends.
   */
  get deferred(): boolean {
    return this.#deferred;
  }

  /**
   * Whether a hook explicitly granted the action ({@link HookOutcome.allow}) rather than merely letting it go on. On
   * PermissionRequest a grant approves the call without asking the approver; elsewhere it is a proceed.
   */
  get granted(): boolean {
    return this.#granted;
  }

  /** The decision. */
  get type(): OutcomeType {
    return this.#type;
  }

  /** Why: always set for block, stop and ask. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** The context to go on with: the modified one, when a hook changed it. */
  get context(): C | undefined {
    return this.#context;
  }

  /** Text for the model's next call, from every hook that gave some, in order (a frozen array). */
  get additionalContext(): readonly string[] {
    return this.#additionalContext;
  }

  /** Messages for the user, from every hook that gave some, in order (a frozen array). */
  get systemMessages(): readonly string[] {
    return this.#systemMessages;
  }

  /** Go on, with `context` when the hook modified it. */
  static proceed<C extends AnyHookContext>(context?: C, extras?: OutcomeExtras): HookOutcome<C> {
    // The stack makes one of these for every dispatch: no extras object, no list to check.
    if (extras === undefined || (extras.additionalContext === undefined && extras.systemMessage === undefined)) {
      return context === undefined ? (PROCEED as HookOutcome<C>) : new HookOutcome<C>('proceed', undefined, context, NONE, NONE);
    }
    return HookOutcome.create<C>('proceed', undefined, context, extras);
  }

  /**
   * Explicitly grant the action: a proceed that also answers a permission request (Claude Code's
   * `permissionDecision: "allow"`), so the approver is not asked. A later hook's block, stop or ask still wins.
   */
  static allow<C extends AnyHookContext>(context?: C, extras: OutcomeExtras & { reason?: string } = {}): HookOutcome<C> {
    return new HookOutcome<C>(
      'proceed',
      extras.reason,
      context,
      list(extras.additionalContext, 'additionalContext'),
      list(extras.systemMessage, 'systemMessage'),
      true,
    );
  }

  /** Refuse this one action; the run goes on. `reason` is required: the model or the user is told. */
  static block(reason: string, extras: OutcomeExtras = {}): HookOutcome<never> {
    return HookOutcome.create<never>('block', requireReason('block', reason), undefined, extras);
  }

  /** Halt the whole run. `reason` is required. */
  static stop(reason: string, extras: OutcomeExtras = {}): HookOutcome<never> {
    return HookOutcome.create<never>('stop', requireReason('stop', reason), undefined, extras);
  }

  /**
   * The action needs approval: PermissionRequest hooks, then the approver, decide. `reason` is required. `defer: true`
   * leaves the decision to later instead (see {@link HookOutcome.deferred}).
   */
  static ask<C extends AnyHookContext>(reason: string, extras: OutcomeExtras & { context?: C; defer?: boolean } = {}): HookOutcome<C> {
    const ask = HookOutcome.create<C>('ask', requireReason('ask', reason), extras.context, extras);
    return extras.defer === true ? new HookOutcome<C>('ask', ask.reason, ask.context, ask.additionalContext, ask.systemMessages, false, true) : ask;
  }

  private static create<C extends AnyHookContext>(
    type: OutcomeType,
    reason: string | undefined,
    context: C | undefined,
    extras: OutcomeExtras,
  ): HookOutcome<C> {
    return new HookOutcome<C>(
      type,
      reason,
      context,
      list(extras.additionalContext, 'additionalContext'),
      list(extras.systemMessage, 'systemMessage'),
    );
  }

  /**
   * Whether `value` is an outcome: of this copy of the package, or of another one (its ESM and CommonJS builds loaded
   * side by side, or another installed version), which the stack accepts from a hook just the same.
   */
  static isOutcome(value: unknown): value is HookOutcome {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OUTCOME] === BRAND;
  }

  /** Makes `instanceof HookOutcome` true for the outcomes of every copy of the package, as {@link HookOutcome.isOutcome}. */
  static [Symbol.hasInstance](value: unknown): value is HookOutcome {
    return HookOutcome.isOutcome(value);
  }

  /**
   * @internal `value` as an outcome of this copy: itself, or a copy of another copy's outcome read through its public
   * getters (its private fields belong to its own class); `undefined` when `value` is no outcome, or one of a type
   * this version does not know.
   */
  static adopt(value: unknown): HookOutcome | undefined {
    if (value instanceof OwnOutcome) return value;
    if (!HookOutcome.isOutcome(value)) return undefined;
    const { type, reason, context, additionalContext, systemMessages, granted } = value;
    if (!TYPES.has(type)) return undefined;
    const deferred = (value as { deferred?: unknown }).deferred === true;
    return new HookOutcome(type, reason, context, list(additionalContext, 'additionalContext'), list(systemMessages, 'systemMessage'), granted === true, deferred);
  }

  /**
   * The combined decision of an earlier hook (`first`) and the hooks after it (`then`), as the stack defines it:
   * deny (block) and stop win over ask, ask wins over allow (proceed); the result goes on with `then`'s context, and
   * keeps every additional context and system message, `first`'s before `then`'s.
   */
  static merge<C extends AnyHookContext>(first: HookOutcome<C>, then: HookOutcome<C>): HookOutcome<C> {
    // A hook class of one copy merges its decision with what the stack of another copy answered.
    first = (HookOutcome.adopt(first) ?? first) as HookOutcome<C>;
    then = (HookOutcome.adopt(then) ?? then) as HookOutcome<C>;
    const additionalContext = join(first.additionalContext, then.additionalContext);
    const systemMessages = join(first.systemMessages, then.systemMessages);
    if (first.type === 'block' || first.type === 'stop') {
      return first.with(additionalContext, systemMessages);
    }
    if (first.type === 'ask' && then.type === 'proceed') {
      return new HookOutcome<C>('ask', first.reason, then.context ?? first.context, additionalContext, systemMessages, false, first.#deferred);
    }
    // A defer wins over an ask, as in Claude Code (deny > defer > ask > allow).
    if (first.type === 'ask' && first.#deferred && then.type === 'ask' && !then.#deferred) {
      return new HookOutcome<C>('ask', first.reason, then.context ?? first.context, additionalContext, systemMessages, false, true);
    }
    let merged = then.with(additionalContext, systemMessages);
    if (first.granted && merged.type === 'proceed' && !merged.granted) {
      merged = new HookOutcome<C>('proceed', first.reason, merged.context, additionalContext, systemMessages, true);
    }
    return merged.context === undefined && first.context !== undefined && merged.type !== 'block' && merged.type !== 'stop'
      ? merged.withContext(first.context)
      : merged;
  }

  /** Whether the hook lets the action go on. */
  isProceed(): boolean {
    return this.type === 'proceed';
  }

  /** Whether the action is refused. */
  isBlocked(): boolean {
    return this.type === 'block';
  }

  /** Whether the run is halted. */
  isStopped(): boolean {
    return this.type === 'stop';
  }

  /** Whether the action needs approval. */
  needsApproval(): boolean {
    return this.type === 'ask';
  }

  /** The decision in permission terms: block and stop are `deny`, ask is `ask`, proceed is `allow`. */
  get decision(): PermissionDecision {
    return this.type === 'proceed' ? 'allow' : this.type === 'ask' ? 'ask' : 'deny';
  }

  /** All system messages joined by newlines, or `undefined` when there are none. */
  get systemMessage(): string | undefined {
    return this.systemMessages.length > 0 ? this.systemMessages.join('\n') : undefined;
  }

  /** The same decision carrying `context` (ignored for block and stop, which carry none). */
  withContext<D extends AnyHookContext>(context: D): HookOutcome<D> {
    if (this.type === 'block' || this.type === 'stop') return this as unknown as HookOutcome<D>;
    return new HookOutcome<D>(this.type, this.reason, context, this.additionalContext, this.systemMessages, this.#granted, this.#deferred);
  }

  /** The same decision with more additional context appended. */
  withAdditionalContext(...text: string[]): HookOutcome<C> {
    return this.with(join(this.additionalContext, list(text, 'additionalContext')), this.systemMessages);
  }

  /** The same decision with more system messages appended. */
  withSystemMessage(...message: string[]): HookOutcome<C> {
    return this.with(this.additionalContext, join(this.systemMessages, list(message, 'systemMessage')));
  }

  /** A plain object for logs and wire formats (the context is left out). */
  toJSON(): HookOutcomeJSON {
    return {
      type: this.type,
      decision: this.decision,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.additionalContext.length > 0 ? { additionalContext: [...this.additionalContext] } : {}),
      ...(this.systemMessages.length > 0 ? { systemMessage: [...this.systemMessages] } : {}),
    };
  }

  /**
   * The outcome in the PHP AgentBuilder's array shape, `{ type, reason, hasContext }`. `reason` is `null`, not
   * absent, when there is none, so the JSON has the same keys as PHP's. {@link HookOutcome.toJSON} carries more.
   */
  toArray(): HookOutcomeArray {
    return { type: this.type, reason: this.reason ?? null, hasContext: this.context !== undefined };
  }

  /** Shows the outcome's fields in `console.log` and `util.inspect` (they are private fields behind getters). */
  [Symbol.for('nodejs.util.inspect.custom')](): object {
    return { ...this.toJSON(), ...(this.context ? { context: this.context.event } : {}) };
  }

  /** E.g. `block: Dangerous command`. */
  toString(): string {
    return this.reason === undefined ? this.type : `${this.type}: ${this.reason}`;
  }

  private with(additionalContext: readonly string[], systemMessages: readonly string[]): HookOutcome<C> {
    if (additionalContext === this.additionalContext && systemMessages === this.systemMessages) return this;
    return new HookOutcome<C>(this.type, this.reason, this.context, additionalContext, systemMessages, this.#granted, this.#deferred);
  }
}

const join = (a: readonly string[], b: readonly string[]): readonly string[] =>
  a.length === 0 ? b : b.length === 0 ? a : Object.freeze([...a, ...b]);

// This copy's own outcomes, found without the brand check of HookOutcome's instanceof.
const OwnOutcome = ownClass(HookOutcome);

// A context-free proceed carries nothing, so one frozen instance serves every caller.
const PROCEED: HookOutcome = HookOutcome.proceed(undefined, { additionalContext: [] });
