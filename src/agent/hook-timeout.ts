/**
 * How long an in-process hook may run. Past its timeout, its signal is aborted and it fails with a `timeout`
 * {@link HookError}, which the `onHookError` policy then handles as any other failure of the hook.
 *
 * @module
 */
import pTimeout, { type ClearablePromise } from 'p-timeout';
import {
  EventHook,
  ParallelHooks,
  HookError,
  type AnyHookContext,
  type EventCallback,
  type Hook,
  type HookEventName,
  type HookNote,
  type HookOutcome,
  type HookScope,
  type MaybePromise,
  type NextFn,
  type WakeSource,
} from '../core/index.js';
import { ownClass } from '../core/internal/brand.js';
import { isThenable } from '../core/internal/thenable.js';

/**
 * The timeout of an in-process hook that names none (`withOptions({ hookTimeout })` changes it): 60 s, the default of
 * the Claude Agent SDK's hook callbacks. Long enough for a hook that asks a service; short enough that a hook that
 * never settles does not hold the run for good.
 */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

// setTimeout runs a longer delay at once (after a TimeoutOverflowWarning): such a timeout would fire immediately.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * `value` as a timeout in milliseconds (`undefined` when not given, `Infinity` for no limit).
 *
 * @throws a RangeError naming `where` when it is not a positive number of milliseconds.
 * @internal
 */
export function checkTimeout(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0 || (value > MAX_TIMER_MS && value !== Infinity)) {
    throw new RangeError(
      `${where} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (or Infinity for no limit), got ${String(value)}. ` +
        'It is in milliseconds: 60 s is 60000.',
    );
  }
  return value;
}

/**
 * The timeout a script, command, HTTP, prompt or agent hook enforces on its own work (its `timeoutMs`: a process it
 * kills, a request it aborts): such a hook answers with a `timeout` note of its own when it passes, so the agent's
 * default is not laid over it — it would cut short a hook whose configured timeout is longer. Claude Code's hooks of
 * one event run side by side (`withHooksFrom({ parallel: true })`) keep theirs too: the longest of them.
 */
function ownLimit(hook: Hook): number | undefined {
  const ms = (hook as { readonly timeoutMs?: unknown }).timeoutMs;
  if (typeof ms === 'number') return ms;
  if (!(hook instanceof ParallelHooks) || hook.hooks.length === 0) return undefined;
  const limits = hook.hooks.map(ownLimit);
  return limits.every((l) => l !== undefined) ? Math.max(...(limits as number[])) : undefined;
}

/**
 * The timeout the agent enforces on `hook`, or `undefined` for none: the hook's own `timeout` (a registration's
 * `timeout` is declared there too), else none for a hook that enforces a limit of its own, else `fallback`.
 *
 * @internal
 */
export function timeoutFor(hook: Hook, name: string, fallback: number): number | undefined {
  const declared = checkTimeout(hook.timeout, `The timeout of hook '${name}'`);
  const ms = declared ?? (ownLimit(hook) !== undefined ? undefined : fallback);
  return ms === Infinity ? undefined : ms;
}

/**
 * A timed hook's scope: the dispatch's, with a signal of its own that aborts when the dispatch's does, or when the
 * hook runs past its timeout. The signal is made the first time the hook reads it, so a hook that never does (most
 * synchronous ones) costs no AbortController; it stops listening to the dispatch's signal once the hook and the work
 * it handed over (`waitUntil`) have settled, so a long-lived signal does not collect listeners.
 */
class TimedScope implements HookScope {
  private controller: AbortController | undefined;
  private expired: HookError | undefined;
  private linked = false;
  private settled = false;
  private handedOver = 0;
  /** The listener on the dispatch's signal, made when the hook first reads its own. */
  private forward: (() => void) | undefined;

  constructor(private readonly outer: HookScope) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      const outer = this.outer.signal;
      if (this.expired !== undefined) controller.abort(this.expired);
      else if (outer?.aborted === true) controller.abort(outer.reason);
      else if (outer !== undefined && !this.idle()) {
        this.forward = this.forwardAbort.bind(this);
        outer.addEventListener('abort', this.forward, { once: true });
        this.linked = true;
      }
    }
    return this.controller.signal;
  }

  get wake(): ((message: string, from: WakeSource) => void) | undefined {
    return this.outer.wake;
  }

  report(note: HookNote): void {
    this.outer.report(note);
  }

  waitUntil(work: Promise<unknown>): void {
    this.handedOver++;
    const release = (): void => {
      this.handedOver--;
      this.unlink();
    };
    work.then(release, release);
    this.outer.waitUntil(work);
  }

  /** The hook ran past its timeout: its signal aborts, with `error` as the reason. */
  expire(error: HookError): void {
    this.expired = error;
    this.controller?.abort(error);
    this.done();
  }

  /** The hook settled (or timed out). */
  done(): void {
    this.settled = true;
    this.unlink();
  }

  /** Whether the run timed out, so that the hook may no longer act. */
  get timedOut(): boolean {
    return this.expired !== undefined;
  }

  private forwardAbort(): void {
    this.controller?.abort(this.outer.signal?.reason);
  }

  private idle(): boolean {
    return this.settled && this.handedOver === 0;
  }

  private unlink(): void {
    if (!this.linked || !this.idle()) return;
    this.linked = false;
    this.outer.signal?.removeEventListener('abort', this.forward!);
  }
}

/** Where a timed hook sits, for its errors. */
interface TimedInfo {
  readonly name: string;
  readonly priority: number;
}

/**
 * The hook's own time, with `p-timeout` armed over its promise while it runs outside `next`: the time in `next` (the
 * later hooks, and the model or the tool behind them) is not the hook's, and has timeouts of its own.
 *
 * Most asynchronous hooks settle within a few microtasks, and a timer set and cleared for each cost several times
 * what such a hook does: the timer is set once the current turn of the event loop is over, if the hook is still
 * running then. The deadline does not move: the timer gets what is left of the hook's own time.
 */
class OwnTime {
  private used = 0;
  private since: number | undefined = performance.now();
  private result: Promise<HookOutcome> | undefined;
  private segment: ClearablePromise<HookOutcome> | undefined;
  private soon: NodeJS.Immediate | undefined;
  private reject: ((error: unknown) => void) | undefined;
  private over = false;

  constructor(
    private readonly ms: number,
    private readonly scope: TimedScope,
    private readonly info: TimedInfo,
    private readonly event: HookEventName,
  ) {}

  /** The hook calls `next`: its clock stops. */
  pause(): void {
    if (this.since === undefined) return;
    this.used += performance.now() - this.since;
    this.since = undefined;
    this.disarm();
  }

  /** `next` returned: the hook's clock runs again. */
  resume(): void {
    if (this.since !== undefined || this.over) return;
    this.since = performance.now();
    if (this.result !== undefined) this.armSoon();
  }

  /** `result`, or the hook's `timeout` failure once its own time has run out. */
  race<T>(result: Promise<T>): Promise<T> {
    this.result = result as unknown as Promise<HookOutcome>;
    return new Promise<T>((resolve, reject) => {
      this.reject = reject;
      result.then(
        (value) => {
          this.end();
          resolve(value);
        },
        (error: unknown) => {
          this.end();
          reject(error);
        },
      );
      if (this.since !== undefined) this.armSoon();
    });
  }

  /** Sets the timer over what is left of the hook's own time, unless it settled, is inside `next`, or has one. */
  arm(): void {
    this.soon = undefined;
    if (this.over || this.since === undefined || this.segment !== undefined) return;
    // Whole milliseconds: Node keeps one timer list per duration, and a fractional one would make a list per hook.
    const left = Math.ceil(this.ms - this.used - (performance.now() - this.since));
    // p-timeout makes its TimeoutError up front, stack trace and all, though with a fallback it is never thrown: made
    // without the trace, it costs next to nothing.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      this.segment = pTimeout(this.result!, { milliseconds: Math.max(1, left), fallback: () => this.expire() });
    } finally {
      Error.stackTraceLimit = limit;
    }
    // Only the timeout is taken from here: the result itself settles the race (a rejection lands twice, harmlessly).
    this.segment.catch(this.reject!);
  }

  private armSoon(): void {
    this.soon ??= setImmediate(armClock, this);
  }

  private disarm(): void {
    if (this.soon !== undefined) clearImmediate(this.soon);
    this.soon = undefined;
    this.segment?.clear();
    this.segment = undefined;
  }

  private end(): void {
    this.over = true;
    this.disarm();
    this.scope.done();
  }

  private expire(): never {
    // The result settled in the same turn as the timer fired: it counts.
    if (this.over) return undefined as never;
    this.over = true;
    const error = timeoutError(this.ms, this.info, this.event);
    this.scope.expire(error);
    throw error;
  }
}

const armClock = (clock: OwnTime): void => clock.arm();

function timeoutError(ms: number, info: TimedInfo, event: HookEventName): HookError {
  return new HookError(
    `timed out after ${ms} ms`,
    { hookName: info.name, event, priority: info.priority, code: 'timeout' },
    'its signal was aborted; make it settle sooner, or give it a longer `timeout` (its registration, or withOptions({ hookTimeout }))',
  );
}

/** Any hook, run against its timeout. */
class TimedHook implements Hook {
  constructor(
    private readonly inner: Hook,
    private readonly info: TimedInfo,
    readonly timeout: number,
  ) {}

  get name(): string {
    return this.info.name;
  }

  get events() {
    return this.inner.events;
  }

  get matcher() {
    return this.inner.matcher;
  }

  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    const timed = new TimedScope(scope);
    const clock = new OwnTime(this.timeout, timed, this.info, ctx.event);
    const timedNext: NextFn = (c) => {
      // A hook that timed out no longer acts: the chain went on (or the run failed) without it.
      if (timed.timedOut) {
        throw new HookError('called next() after it timed out', { hookName: this.info.name, event: ctx.event, priority: this.info.priority });
      }
      clock.pause();
      let rest: MaybePromise<HookOutcome>;
      try {
        rest = next(c);
      } catch (error) {
        clock.resume();
        throw error;
      }
      if (!isThenable(rest)) {
        clock.resume();
        return rest;
      }
      return Promise.resolve(rest).then(
        (outcome) => {
          clock.resume();
          return outcome;
        },
        (error: unknown) => {
          clock.resume();
          throw error;
        },
      );
    };
    let result: MaybePromise<HookOutcome>;
    try {
      result = this.inner.handle(ctx, timedNext, timed);
    } catch (error) {
      timed.done();
      throw error;
    }
    if (!isThenable(result)) {
      timed.done();
      return result;
    }
    return clock.race(Promise.resolve(result));
  }
}

const OwnEventHook = ownClass(EventHook);

/**
 * An event hook whose callback runs against its timeout, still an {@link EventHook}: the stack keeps calling it in
 * its loop, without a `next` function or a promise while it answers synchronously.
 */
function timedEventHook(hook: EventHook, info: TimedInfo, ms: number): EventHook {
  const callback = hook.callback as EventCallback<HookEventName>;
  const timedCallback: EventCallback<HookEventName> = (ctx, scope) => {
    const timed = new TimedScope(scope);
    let value: ReturnType<EventCallback<HookEventName>>;
    try {
      value = callback(ctx, timed);
    } catch (error) {
      timed.done();
      throw error;
    }
    // As the stack reads a callback's answer: a native promise is awaited, anything else is the answer.
    if (!(value instanceof Promise)) {
      timed.done();
      return value;
    }
    return new OwnTime(ms, timed, info, ctx.event).race(value);
  };
  return new EventHook(hook.events, timedCallback, { matcher: hook.matcher, name: info.name, timeout: ms });
}

/**
 * `hook` run against a timeout of `ms` milliseconds of its own time. An event callback stays an event callback; any
 * other hook is wrapped.
 *
 * @internal
 */
export function withTimeout(hook: Hook, info: TimedInfo, ms: number): Hook {
  // A subclass that overrides handle() is run through it, as the stack would.
  if (hook instanceof OwnEventHook && hook.handle === EventHook.prototype.handle) return timedEventHook(hook, info, ms);
  return new TimedHook(hook, info, ms);
}

/**
 * `hook` with a registration's `timeout` declared on it, as a Hook class declares its own.
 *
 * @internal
 */
export function declareTimeout(hook: Hook, timeout: number): Hook {
  return new DeclaredTimeout(hook, timeout);
}

/** A hook registered with a `timeout` of its registration. */
class DeclaredTimeout implements Hook {
  constructor(
    private readonly inner: Hook,
    readonly timeout: number,
  ) {}

  get name(): string | undefined {
    return this.inner.name ?? (this.inner.constructor !== Object ? this.inner.constructor.name : undefined);
  }

  get priority() {
    return this.inner.priority;
  }

  get events() {
    return this.inner.events;
  }

  get matcher() {
    return this.inner.matcher;
  }

  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    return this.inner.handle(ctx, next, scope);
  }
}
