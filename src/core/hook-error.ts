/**
 * The error a failing hook is reported with.
 *
 * @module
 */
import type { HookEventName } from './events.js';
import { BRAND, brand, brandKey, isInstance } from './internal/brand.js';
import { messageOf } from './internal/message-of.js';

const HOOK_ERROR = brandKey('HookError');

/** Where a {@link HookError} comes from. */
export interface HookErrorInit {
  /** The hook's name. */
  hookName: string;
  /** The event being dispatched. */
  event: HookEventName;
  /** The hook's priority in its stack. */
  priority?: number | undefined;
  /** What the hook threw, if it threw. */
  cause?: unknown;
  /** What kind of failure it is (default `'hook-error'`). */
  code?: HookErrorCode | undefined;
}

/**
 * What kind of failure a {@link HookError} reports: `'timeout'` when the hook ran past its timeout (its signal was
 * aborted), `'hook-error'` for anything else (it threw, or broke the middleware contract).
 */
export type HookErrorCode = 'hook-error' | 'timeout';

/**
 * A hook threw, or broke the middleware contract (called `next` twice, returned no outcome). Names the hook and the
 * event; the original error is `cause`. The stack never swallows it: `process` rejects with it and the runtime decides
 * what to do (fail the run, ignore, or treat as a block).
 */
export class HookError extends Error {
  /** Always `'HookError'`. */
  override readonly name = 'HookError';
  /** The hook's name. */
  readonly hookName: string;
  /** The event being dispatched. */
  readonly event: HookEventName;
  /** The hook's priority in its stack, when known. */
  readonly priority: number | undefined;
  /** `'timeout'` when the hook ran past its timeout, `'hook-error'` for any other failure. */
  readonly code: HookErrorCode;

  static {
    brand(this, HOOK_ERROR);
  }

  /**
   * Whether `value` is a HookError: of this copy of the package, or of another one (its ESM and CommonJS builds loaded
   * side by side, or another installed version), whose stacks and agents throw their own.
   */
  static isHookError(value: unknown): value is HookError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[HOOK_ERROR] === BRAND;
  }

  /**
   * Makes `instanceof HookError` true for the HookErrors of every copy of the package, so a `catch` need not know
   * which copy threw; for a subclass of yours it keeps its usual meaning.
   */
  static override [Symbol.hasInstance]<T>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
  }

  /**
   * @param summary - what went wrong, as a verb phrase (`'failed'`, `'called next() more than once'`).
   * @param init - the hook, the event and the cause.
   * @param detail - more about it, appended after a colon (how to fix it, or the cause's message).
   */
  constructor(summary: string, init: HookErrorInit, detail?: string) {
    const where = init.priority === undefined ? '' : ` (priority ${init.priority})`;
    super(
      `Hook '${init.hookName}'${where} ${summary} on ${init.event}${detail ? `: ${detail}` : ''}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.hookName = init.hookName;
    this.event = init.event;
    this.priority = init.priority;
    this.code = init.code ?? 'hook-error';
  }

  /** A HookError for something a hook threw; its message includes the original message. */
  static fromThrown(thrown: unknown, init: Omit<HookErrorInit, 'cause'>): HookError {
    return new HookError('failed', { ...init, cause: thrown }, messageOf(thrown));
  }
}
