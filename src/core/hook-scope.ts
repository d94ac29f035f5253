/**
 * What one dispatch lends its hooks besides the context: a cancellation signal, a place to report what happened
 * beside the outcome, and a way to leave work running after the outcome is decided.
 *
 * @module
 */
import type { HookEventName } from './events.js';
import type { HookOutcome } from './outcome.js';

/**
 * Something a hook wants known that is not a decision: a script hook that crashed and failed open, a hook that timed
 * out, an asynchronous hook that finished. Runtimes forward notes to their observers (the agent emits them as
 * `hook:note`, and as `warning` when the level says so).
 */
export interface HookNote {
  /** `warning` when something went wrong and the hook failed open (or closed); `info` for the rest. */
  readonly level: 'warning' | 'info';
  /** The hook that reports. */
  readonly hookName: string;
  /** The event being dispatched. */
  readonly event: HookEventName;
  /** What happened, in one sentence that names the cause. */
  readonly message: string;
  /** A stable, machine-readable kind, e.g. `timeout`, `exit-code`, `invalid-output`, `async-exit`. */
  readonly code: string;
  /** Details (exit code, stderr, duration, …). */
  readonly data?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The third argument of {@link Hook.handle}. Hooks that need none of it ignore it; a dispatch without options hands
 * every hook {@link HookScope.none}.
 */
export interface HookScope {
  /**
   * Aborts when the run that dispatched this event is cancelled and, in an agent, when the hook runs past its timeout
   * (see {@link Hook.timeout}); long-running hooks should stop.
   */
  readonly signal: AbortSignal | undefined;
  /** Reports a {@link HookNote} to whoever dispatched the event. */
  report(note: HookNote): void;
  /**
   * Hands over work that goes on after the outcome is returned (an asynchronous hook's process). The dispatcher may
   * wait for it later (an agent session does on close); its rejection is the hook's to handle.
   */
  waitUntil(work: Promise<unknown>): void;
  /**
   * Hands the model a message from work that finished after the outcome was returned (a Claude Code `asyncRewake`
   * hook that exited 2): an agent puts it before its next model call, in this run or its session's next turn.
   * `undefined` where the dispatcher has no model to give it to.
   */
  readonly wake?: ((message: string, from: WakeSource) => void) | undefined;
}

/** Who hands the model a message with {@link HookScope.wake}: the hook, and the event it ran for. */
export interface WakeSource {
  /** The hook's name. */
  readonly hookName: string;
  /** The event it ran for. */
  readonly event: HookEventName;
}

/** What a hook-by-hook observer is told: which hook ran, for which event, at which priority. */
export interface HookRunInfo {
  /** The hook's name. */
  readonly hookName: string;
  /** Its priority in the stack. */
  readonly priority: number;
  /** The event dispatched. */
  readonly event: HookEventName;
}

/**
 * Watches a dispatch hook by hook (tapable's interceptors). Durations are the hook's own time: the time spent in the
 * rest of the chain (inside `next`) is not counted.
 */
export interface HookObserver {
  /** A hook is about to run. */
  onHookStart?(info: HookRunInfo): void;
  /** A hook returned an outcome. */
  onHookEnd?(info: HookRunInfo & { readonly outcome: HookOutcome; readonly durationMs: number }): void;
  /** A hook threw or broke the contract; the dispatch rejects with `error`. */
  onHookError?(info: HookRunInfo & { readonly error: unknown; readonly durationMs: number }): void;
}

/** Options of one dispatch ({@link HookStack.process} and {@link HookStack.dispatch}). */
export interface DispatchOptions {
  /** Passed to every hook as {@link HookScope.signal}. */
  readonly signal?: AbortSignal | undefined;
  /** Receives the notes hooks report. */
  readonly onNote?: ((note: HookNote) => void) | undefined;
  /** Receives the work hooks hand over with {@link HookScope.waitUntil}. */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
  /** Watches each hook run. */
  readonly observer?: HookObserver | undefined;
  /** Receives the messages hooks hand the model with {@link HookScope.wake}; without it, hooks have no `wake`. */
  readonly onWake?: ((message: string, from: WakeSource) => void) | undefined;
}

const ignore = (): void => {};

/** Helpers for {@link HookScope}. */
export const HookScope = {
  /** The scope of a dispatch without options: no signal, notes dropped, handed-over work left to itself. */
  none: Object.freeze({ signal: undefined, report: ignore, waitUntil: ignore }) as HookScope,

  /**
   * The scope a dispatch with `options` lends its hooks. Made once per options object: a runtime that passes the same
   * options to every dispatch of a run pays for it once. It is kept on the options object itself, under a symbol and
   * not enumerable, rather than in a weak map keyed by it: a weak map's entry for each short-lived options object (a
   * request of `agent-hooks serve`, a bridged call) made every scavenge of the young generation keep the dispatch's
   * objects and move them to the old one — 2 KB a request, scavenges 15 times as long, the tail of a loaded server
   * (`npm run bench -- serve`). Options that cannot take the property (frozen, or a proxy that refuses it) get a scope of
   * their own each dispatch.
   */
  of(options: DispatchOptions | undefined): HookScope {
    if (options === undefined || (options.signal === undefined && options.onNote === undefined && options.waitUntil === undefined && options.onWake === undefined)) {
      return HookScope.none;
    }
    const kept = (options as { [SCOPE]?: HookScope })[SCOPE];
    if (kept !== undefined) return kept;
    const scope = makeScope(options);
    try {
      if (Object.isExtensible(options)) Object.defineProperty(options, SCOPE, { value: scope });
    } catch {
      // A proxy that refuses the property: its dispatches make their scope each time.
    }
    return scope;
  },
};

/** Where {@link HookScope.of} keeps the scope made for an options object. */
const SCOPE = Symbol('agent-hooks.scope');

function makeScope(options: DispatchOptions): HookScope {
  const waitUntil = options.waitUntil;
  return Object.freeze({
    signal: options.signal,
    report: options.onNote ?? ignore,
    waitUntil:
      waitUntil === undefined
        ? ignore
        : (work: Promise<unknown>) => {
            // Handed-over work must never surface as an unhandled rejection through us.
            work.catch(ignore);
            waitUntil(work);
          },
    ...(options.onWake !== undefined ? { wake: options.onWake } : {}),
  });
}
