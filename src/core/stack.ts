/**
 * The priority-sorted middleware stack every hook runs in.
 *
 * @module
 */
import type { AnyHookContext } from './context/any-hook-context.js';
import { HookEvent, type HookEventName } from './events.js';
import { HookError } from './hook-error.js';
import { isHook, type Hook, type HookFn, type MaybePromise, type NextFn } from './hook.js';
import { HookScope, type DispatchOptions, type HookObserver } from './hook-scope.js';
import { CallableHook } from './hooks/callable-hook.js';
import { EventHook } from './hooks/event-hook.js';
import { isHookMatcher, type HookMatcher } from './matchers/hook-matcher.js';
import { Matcher } from './matchers/matcher.js';
import { MATCH_INPUT_LIMIT } from './matchers/match-input-limit.js';
import { HookOutcome } from './outcome.js';
import { BRAND, brand, brandKey, isInstance, ownClass } from './internal/brand.js';
import { handleMatched } from './internal/matched.js';
import { messageOf } from './internal/message-of.js';
import { isThenable } from './internal/thenable.js';

/** The innermost step of a dispatch: what happens when every hook has called `next`. Defaults to proceed. */
export type Terminal<C extends AnyHookContext = AnyHookContext> = (ctx: C) => MaybePromise<HookOutcome>;

/** One hook as registered in a stack. */
export interface HookEntry {
  /** The hook. */
  readonly hook: Hook;
  /** Its priority: higher runs first. */
  readonly priority: number;
  /** Its name, for listings and errors. */
  readonly name: string;
  /** Where it applies: the hook's own matcher, made a {@link HookMatcher} when the hook declared a pattern or a predicate. */
  readonly matcher: HookMatcher | undefined;
  /** The events it can run for, when restricted (by the hook or its matcher). */
  readonly events: ReadonlySet<HookEventName> | undefined;
}

/** A hook with the priority to register it at. */
export interface PrioritizedHook {
  /** The hook, or a `(ctx, next)` function. */
  readonly hook: Hook | HookFn;
  /** Higher runs first; default: the hook's own `priority`, else 0. */
  readonly priority?: number | undefined;
}

/** What {@link HookStack.withAll} accepts: a hook, a `(ctx, next)` function, or either with a priority. */
export type HookRegistration = Hook | HookFn | PrioritizedHook;

interface Entry extends HookEntry {
  /** Registration number: breaks priority ties, so (priority, seq) fixes an entry's place in every chain. */
  readonly seq: number;
  readonly toolNames: ReadonlySet<string> | undefined;
  /** Whether `matcher.matches` must run at dispatch (the hints do not settle it). */
  readonly check: boolean;
  /**
   * For an event callback ({@link EventHook}): the callback. Such a hook only decides before the rest of the chain
   * runs, so the stack calls it in a loop, without a `next` function, and goes on when it answers nothing.
   */
  readonly callback: ((ctx: AnyHookContext, scope: HookScope) => unknown) | undefined;
}

/**
 * The entries that can run for one event (and, for tool events, one tool name). Its array is never handed out, so it
 * is not frozen: on Node 20 a loop over a frozen array's elements runs at half the speed.
 */
interface Chain {
  readonly entries: readonly Entry[];
  /** For tool events whose hooks are indexed by tool name: the name this chain was built for. */
  readonly toolName: string | undefined;
  readonly event: EventChains;
}

interface EventChains {
  readonly all: Chain;
  /** Whether some hook is restricted to exact tool names, so chains differ per tool. */
  readonly byTool: Map<string, Chain> | undefined;
}

const STACK = brandKey('HookStack');
// This copy's own outcomes and event hooks, found without the brand checks of their classes' instanceof.
const OwnOutcome = ownClass(HookOutcome);
const OwnEventHook = ownClass(EventHook);

/** How many per-tool chains one event keeps; beyond it chains are built per dispatch, never leaking memory. */
const MAX_TOOL_CHAINS = 4096;

// Errors the terminal threw pass through the hooks around it unchanged: they are not the hooks' fault.
const terminalErrors = new WeakSet<object>();

/** The order hooks run in: higher priority first, then registration order. */
const runOrder = (a: Entry, b: Entry): number => b.priority - a.priority || a.seq - b.seq;

const toolNameOf = (ctx: AnyHookContext): string | undefined => ('toolCall' in ctx ? ctx.toolCall.name : undefined);

function hookName(hook: Hook, fallback: string): string {
  if (typeof hook.name === 'string' && hook.name.length > 0) return hook.name;
  const ctor = (hook as object).constructor;
  if (ctor && ctor !== Object && ctor.name) return ctor.name;
  return fallback;
}

function intersectEvents(
  a: ReadonlySet<HookEventName> | undefined,
  b: ReadonlySet<HookEventName> | undefined,
): ReadonlySet<HookEventName> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a].filter((e) => b.has(e)));
}

/**
 * An immutable, priority-sorted stack of hooks — the one mechanism behind callbacks, Hook classes and script hooks.
 *
 * - Higher priority runs first; equal priorities run in registration order.
 * - `process(ctx, terminal)` runs the onion: each hook may act before `next`, after it, or not call it at all.
 * - The first `block` or `stop` ends the chain; a modified context passed to `next` is what later hooks see, so edits
 *   compose; decisions merge deny > ask > allow and every additional context is kept, in order.
 * - A hook that throws (or breaks the contract) makes `process` reject with a {@link HookError} naming it.
 * - The chain for an event, filtered by each hook's events and matcher hints and indexed by exact tool name, is built
 *   once per stack instance and reused. Hooks that return synchronously are run without a promise per hook.
 *
 * The highest priority is the outermost middleware: a logger that must also see the calls a guard refuses goes above
 * the guard (the built-in observers default to 10000), since a hook below a blocking one never runs.
 *
 * ```ts
 * const stack = new HookStack()
 *   .with(new LoggingHook(), 10_000)
 *   .with(new SecurityHook(), 100);
 * const outcome = await stack.process(ToolHookContext.beforeToolUse(call));
 * if (outcome.isBlocked()) console.log(outcome.reason);
 * ```
 */
export class HookStack {
  // Assigned once, in the constructor or in HookStack.of; never changed after.
  private entries: readonly Entry[];
  private nextSeq: number;
  /** The events some hook can run for: what {@link HookStack.hasHooksFor} answers from. */
  private listened: ReadonlySet<HookEventName>;
  private readonly chains = new Map<HookEventName, EventChains>();

  static {
    brand(this, STACK);
  }

  /**
   * Whether `value` is a stack: of this copy of the package, or of another one (its ESM and CommonJS builds loaded side
   * by side, or another installed version); another copy's stack is used through its public methods.
   */
  static isHookStack(value: unknown): value is HookStack {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STACK] === BRAND;
  }

  /** Makes `instanceof HookStack` true for the stacks of every copy of the package, as {@link HookStack.isHookStack}. */
  static [Symbol.hasInstance]<T>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
  }

  /** An empty stack, or one holding `hooks` (see {@link HookStack.withAll}). */
  constructor(hooks: readonly HookRegistration[] = []) {
    if (hooks.length === 0) {
      this.entries = [];
      this.nextSeq = 0;
      this.listened = NO_EVENTS;
      return;
    }
    const built = new HookStack().withAll(hooks);
    this.entries = built.entries;
    this.nextSeq = built.nextSeq;
    this.listened = built.listened;
  }

  private static of(entries: Entry[], nextSeq: number): HookStack {
    const stack = new HookStack();
    stack.entries = Object.freeze(entries);
    stack.nextSeq = nextSeq;
    stack.listened = entries.some((e) => e.events === undefined) ? ALL_EVENTS : new Set(entries.flatMap((e) => [...e.events!]));
    return stack;
  }

  /** How many hooks the stack holds. */
  get count(): number {
    return this.entries.length;
  }

  /** Whether the stack holds no hook. */
  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  /**
   * A new stack with `hook` added at `priority` (default: the hook's own `priority`, else 0). A bare `(ctx, next)`
   * function is wrapped in a {@link CallableHook}. This stack is not changed.
   */
  with(hook: Hook | HookFn, priority?: number): HookStack {
    return this.withAll([{ hook, priority }]);
  }

  /** A new stack with several hooks added, in order (each a hook, a function, or `{ hook, priority }`). */
  withAll(hooks: readonly HookRegistration[]): HookStack {
    // Entries are immutable, so stacks share them.
    const entries = [...this.entries];
    let seq = this.nextSeq;
    for (const registration of hooks) {
      const { hook, priority } = normalize(registration);
      entries.push(makeEntry(hook, priority, seq++));
    }
    entries.sort(runOrder);
    return HookStack.of(entries, seq);
  }

  /** A new stack holding this stack's hooks, then `other`'s (registered after them, keeping their priorities). */
  concat(other: HookStack): HookStack {
    // Another copy's stack is read through all(): its run order registers its hooks in the same order among themselves.
    const entries = other instanceof OwnStack ? other.entries.slice().sort((a, b) => a.seq - b.seq) : (other as HookStack).all();
    return this.withAll(entries.map((e) => ({ hook: e.hook, priority: e.priority })));
  }

  /** Every hook, in the order they would run. */
  all(): readonly HookEntry[] {
    return this.entries.map(publicEntry);
  }

  /**
   * The hooks that can run for `event` (and, for a tool event, for a tool called `toolName`), in the order they run.
   * Matchers that need the full context (regexes, predicates) are not evaluated here.
   */
  hooksFor(event: string, toolName?: string): readonly HookEntry[] {
    const chains = this.chainsFor(HookEvent.parse(event));
    const chain = toolName === undefined ? chains.all : this.chainForTool(chains, toolName);
    return chain.entries.map(publicEntry);
  }

  /** Whether any hook can run for `event`; a runtime can skip building a context when not. */
  hasHooksFor(event: HookEventName): boolean {
    return this.listened.has(event);
  }

  /**
   * Dispatches `ctx` through the hooks of its event, then `terminal` (default: proceed), and resolves with the
   * outcome. A proceed or ask outcome always carries the context to go on with.
   *
   * `options` lend the hooks an abort signal and receive their notes, handed-over work and per-hook timings.
   *
   * @throws rejects with a {@link HookError} when a hook throws or breaks the contract; an error thrown by `terminal`
   *   is passed through unchanged.
   */
  process<C extends AnyHookContext>(ctx: C, terminal?: Terminal<C>, options?: DispatchOptions): Promise<HookOutcome<C>> {
    try {
      const result = this.dispatch(ctx, terminal, options);
      return (result instanceof Promise ? result : Promise.resolve(result)) as Promise<HookOutcome<C>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Like {@link HookStack.process}, but stays synchronous while every hook does: it returns the outcome itself when no
   * hook returned a promise, and throws (rather than rejects) when a synchronous hook fails. For runtimes that want
   * to pay for no promise at all on the fast path.
   */
  dispatch<C extends AnyHookContext>(ctx: C, terminal?: Terminal<C>, options?: DispatchOptions): MaybePromise<HookOutcome<C>> {
    const chains = this.chainsFor(ctx.event);
    const chain = chains.byTool === undefined ? chains.all : this.chainForTool(chains, toolNameOf(ctx));
    // No hook for this event: no dispatch state, no terminal call; the common case for most events.
    if (chain.entries.length === 0) {
      return (terminal === undefined ? HookOutcome.proceed(ctx) : this.finish(terminal as Terminal, ctx)) as MaybePromise<HookOutcome<C>>;
    }
    const run: Run =
      terminal === undefined && options === undefined
        ? PLAIN_RUN
        : { terminal: (terminal ?? proceedTerminal) as Terminal, scope: HookScope.of(options), observer: options?.observer };
    return this.run(chain, 0, ctx, run) as MaybePromise<HookOutcome<C>>;
  }

  /** Runs the chain from `from` on; see {@link HookStack.advance}. */
  private run(chain: Chain, from: number, ctx: AnyHookContext, run: Run): MaybePromise<HookOutcome> {
    return this.advance(chain, from, ctx, run, undefined) as MaybePromise<HookOutcome>;
  }

  /**
   * Runs the chain from `from` on, synchronously for as long as the hooks answer synchronously. Event callbacks run in
   * this loop, one after the other, without a `next` function or a promise; any other hook gets a `next` that runs the
   * rest of the chain, and its outcome is the result.
   *
   * When a callback answers with a promise, the rest is left to {@link HookStack.resume}: with `at` (a dispatch that
   * is already resuming) the position is written there and `at` is returned; without, `resume` starts.
   */
  private advance(chain: Chain, from: number, ctx: AnyHookContext, run: Run, at: Pending | undefined): MaybePromise<HookOutcome> | Pending {
    let entries = chain.entries;
    for (let i = from; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.check && !this.matches(entry, ctx)) continue;
      const callback = entry.callback;
      if (callback === undefined || run.observer !== undefined) return this.handle(chain, i, entry, ctx, run);
      let answer: unknown;
      try {
        answer = callback(ctx, run.scope);
      } catch (error) {
        throw wrap(error, entry, ctx);
      }
      if (answer === undefined || answer === null) continue;
      // A promise, as EventHook.handle tells one: any other answer, a custom thenable too, means what outcomeOf says.
      if (answer instanceof Promise) {
        if (at === undefined) return this.resume({ chain, index: i, entry, ctx, answer }, run);
        at.chain = chain;
        at.index = i;
        at.entry = entry;
        at.ctx = ctx;
        at.answer = answer;
        return at;
      }
      const went = this.decided(chain, i, entry, answer, ctx, run);
      // `decided` answers with this copy's outcomes only.
      if (went instanceof OwnOutcome || went instanceof Promise) return went;
      if (went !== ctx) {
        chain = this.rechain(chain, i, entry, went);
        entries = chain.entries;
        ctx = went;
      }
    }
    return this.finish(run.terminal, ctx);
  }

  /**
   * The rest of a dispatch after a callback answered with a promise: wait for it, then run on synchronously until the
   * next promise. One async function per dispatch, not one per hook, so each asynchronous callback costs one `await`.
   */
  private async resume(at: Pending, run: Run): Promise<HookOutcome> {
    for (;;) {
      const { entry, index } = at;
      let { chain, ctx } = at;
      let answer: unknown;
      try {
        answer = await at.answer;
      } catch (error) {
        throw wrap(error, entry, ctx);
      }
      if (answer !== undefined && answer !== null) {
        const went = this.decided(chain, index, entry, answer, ctx, run);
        if (went instanceof OwnOutcome) return went;
        if (went instanceof Promise) return await went;
        if (went !== ctx) {
          chain = this.rechain(chain, index, entry, went);
          ctx = went;
        }
      }
      const result = this.advance(chain, index + 1, ctx, run, at);
      if (result instanceof OwnOutcome) return result;
      if (result !== at) return await (result as Promise<HookOutcome>);
    }
  }

  /**
   * What an event callback's answer (other than nothing) does to the chain: a block or stop ends it; a plain proceed
   * goes on with the context it carries (returned as is); an ask, a grant or a proceed with extras is merged with what
   * the rest of the chain decides, as {@link HookOutcome.merge} defines.
   */
  private decided(chain: Chain, index: number, entry: Entry, answer: unknown, ctx: AnyHookContext, run: Run): AnyHookContext | MaybePromise<HookOutcome> {
    let outcome: HookOutcome;
    try {
      outcome = (entry.hook as EventHook).outcomeOf(answer, ctx);
    } catch (error) {
      throw wrap(error, entry, ctx);
    }
    if (outcome.type === 'block' || outcome.type === 'stop') return outcome;
    const next = outcome.context ?? ctx;
    if (next.event !== ctx.event) {
      throw new HookError(`passed a ${String(next?.event)} context to next()`, errorInit(entry, ctx), `pass a ${ctx.event} context`);
    }
    if (outcome.type === 'proceed' && !outcome.granted && outcome.additionalContext.length === 0 && outcome.systemMessages.length === 0) {
      return next;
    }
    const rest = this.run(this.rechain(chain, index, entry, next), index + 1, next, run);
    return rest instanceof Promise ? rest.then((r: HookOutcome) => HookOutcome.merge(outcome, r)) : HookOutcome.merge(outcome, rest as HookOutcome);
  }

  /**
   * Runs one hook that gets a `next` function (any hook under an observer). The `next` function and the reactions that
   * settle an asynchronous result are made in this one scope, so they share one closure context. They are passed
   * inline, never bound to a name: compilers that preserve function names (esbuild's keepNames, used by tsx) would
   * otherwise add a defineProperty call to every hook of every dispatch.
   */
  private handle(chain: Chain, i: number, entry: Entry, ctx: AnyHookContext, run: Run): MaybePromise<HookOutcome> {
    if (run.observer !== undefined) return this.observed(chain, i, entry, ctx, run, run.observer);
    let called = false;
    // What `next` returned: the rest of the chain, already settled by the stack.
    let rest: MaybePromise<HookOutcome> | undefined;
    let result: MaybePromise<HookOutcome>;
    try {
      result = callHook(entry, ctx, run.scope, (nextCtx?: AnyHookContext): MaybePromise<HookOutcome> => {
        if (called) {
          throw new HookError('called next() more than once', errorInit(entry, ctx), 'call it once, or not at all to short-circuit the chain');
        }
        called = true;
        const c = nextCtx ?? ctx;
        if (c.event !== ctx.event) {
          throw new HookError(`passed a ${String(c?.event)} context to next()`, errorInit(entry, ctx), `pass a ${ctx.event} context`);
        }
        // The next entry straight away when the chain stays the same and nothing but the entry's own hook can skip it:
        // what `advance` would do, minus its loop.
        const j = i + 1;
        if ((c === ctx || chain.toolName === undefined) && j < chain.entries.length) {
          const e = chain.entries[j]!;
          if (!e.check && e.callback === undefined) return (rest = this.handle(chain, j, e, c, run));
        }
        return (rest = this.run(this.rechain(chain, i, entry, c), j, c, run));
      });
    } catch (error) {
      throw wrap(error, entry, ctx);
    }
    if (result instanceof Promise) {
      // A hook that hands back the very promise `next` gave it (`return next(ctx)` outside an async function) adds
      // nothing to check: every promise the rest of a chain returns fulfils with an outcome `settle` keeps as it is
      // (this copy's, with a context unless a block or stop), and rejects with an error `wrap` keeps as it is (a
      // HookError, or the terminal's own). So it is passed on as it is, without a reaction and its microtask.
      if (result === rest) return result;
      // Any other promise gets the one reaction per asynchronous hook that koa-compose does not have, and that cannot
      // go: the hook around this one awaits what `next` returned, and must get the HookError naming this hook (not the
      // raw error, which it could catch and misread) and a checked outcome. A `then` rather than an async function: no
      // frame to suspend and resume.
      return result.then(
        (outcome: unknown) => settle(outcome, entry, ctx),
        (error: unknown) => {
          throw wrap(error, entry, ctx);
        },
      );
    }
    if (isThenable(result)) return settleAsync(result, entry, ctx);
    return settle(result, entry, ctx);
  }

  /** `run` for one hook under an observer: the same steps, timed, minus the time spent inside `next`. */
  private observed(chain: Chain, i: number, entry: Entry, ctx: AnyHookContext, run: Run, observer: HookObserver): MaybePromise<HookOutcome> {
    const info = { hookName: entry.name, priority: entry.priority, event: ctx.event };
    let inner = 0;
    const next = this.nextFor(chain, i, entry, ctx, run);
    const timedNext: NextFn = (c) => {
      const t0 = performance.now();
      let result: MaybePromise<HookOutcome>;
      try {
        result = next(c);
      } catch (error) {
        inner += performance.now() - t0;
        throw error;
      }
      if (!isThenable(result)) {
        inner += performance.now() - t0;
        return result;
      }
      return Promise.resolve(result).finally(() => {
        inner += performance.now() - t0;
      });
    };
    const started = performance.now();
    const own = (): number => Math.max(0, performance.now() - started - inner);
    const failed = (error: unknown): never => {
      const wrapped = wrap(error, entry, ctx);
      // Errors from the terminal or a later hook were reported where they happened.
      if (HookError.isHookError(wrapped) && wrapped.hookName === entry.name && !reported.has(wrapped)) {
        reported.add(wrapped);
        observer.onHookError?.({ ...info, error: wrapped, durationMs: own() });
      }
      throw wrapped;
    };
    const ended = (outcome: HookOutcome): HookOutcome => {
      observer.onHookEnd?.({ ...info, outcome, durationMs: own() });
      return outcome;
    };
    observer.onHookStart?.(info);
    let result: MaybePromise<HookOutcome>;
    try {
      result = callHook(entry, ctx, run.scope, timedNext);
    } catch (error) {
      return failed(error);
    }
    if (isThenable(result)) return settleAsync(result, entry, ctx).then(ended, failed);
    try {
      return ended(settle(result, entry, ctx));
    } catch (error) {
      return failed(error);
    }
  }

  /**
   * The `next` handed to one hook. Returned as an anonymous arrow from a method: compilers that preserve function
   * names (esbuild's keepNames, used by tsx) would otherwise add a defineProperty call to every hook of every dispatch.
   */
  private nextFor(chain: Chain, index: number, current: Entry, ctx: AnyHookContext, run: Run): NextFn {
    let called = false;
    return (nextCtx?: AnyHookContext): MaybePromise<HookOutcome> => {
      if (called) {
        throw new HookError('called next() more than once', errorInit(current, ctx), 'call it once, or not at all to short-circuit the chain');
      }
      called = true;
      const c = nextCtx ?? ctx;
      if (c.event !== ctx.event) {
        throw new HookError(`passed a ${String(c?.event)} context to next()`, errorInit(current, ctx), `pass a ${ctx.event} context`);
      }
      return this.run(this.rechain(chain, index, current, c), index + 1, c, run);
    };
  }

  private finish(terminal: Terminal, ctx: AnyHookContext): MaybePromise<HookOutcome> {
    if (terminal === proceedTerminal) return HookOutcome.proceed(ctx);
    let result: MaybePromise<HookOutcome>;
    try {
      result = terminal(ctx);
    } catch (error) {
      throw markTerminal(error);
    }
    if (isThenable(result)) return finishAsync(result, ctx);
    return terminalOutcome(result, ctx);
  }

  private matches(entry: Entry, ctx: AnyHookContext): boolean {
    try {
      return entry.matcher!.matches(ctx);
    } catch (error) {
      throw new HookError(`has a matcher (${String(entry.matcher)}) that threw`, { ...errorInit(entry, ctx), cause: error }, messageOf(error));
    }
  }

  /** A hook renamed the tool: go on with the chain of the new name, from the same position in the stack's order. */
  private rechain(chain: Chain, index: number, after: Entry, ctx: AnyHookContext): Chain {
    if (chain.toolName === undefined) return chain;
    const name = toolNameOf(ctx);
    if (name === chain.toolName) return chain;
    const other = this.chainForTool(chain.event, name);
    // Entries up to `after` already had their turn; `run` goes on at index + 1, so keep the old chain up to there and
    // append the new chain's entries that come after `after` in run order.
    const later = other.entries.filter((e) => runOrder(after, e) < 0);
    return { entries: [...chain.entries.slice(0, index + 1), ...later], toolName: name, event: chain.event };
  }

  // The lookups are kept apart from the building, small enough for the compiler to inline them into dispatch.
  private chainsFor(event: HookEventName): EventChains {
    return this.chains.get(event) ?? this.buildChains(event);
  }

  private chainForTool(chains: EventChains, toolName: string | undefined): Chain {
    if (chains.byTool === undefined || toolName === undefined) return chains.all;
    return chains.byTool.get(toolName) ?? this.buildToolChain(chains, chains.byTool, toolName);
  }

  private buildChains(event: HookEventName): EventChains {
    const entries = this.entries.filter((e) => e.events === undefined || e.events.has(event));
    const indexed = HookEvent.isToolEvent(event) && entries.some((e) => e.toolNames !== undefined);
    const chains = { byTool: indexed ? new Map<string, Chain>() : undefined } as { all: Chain; byTool: Map<string, Chain> | undefined };
    // Without a tool name (hooksFor(event)), a tool-indexed hook may still run: keep every entry, checked at dispatch.
    chains.all = { entries, toolName: undefined, event: chains };
    this.chains.set(event, chains);
    return chains;
  }

  private buildToolChain(chains: EventChains, byTool: Map<string, Chain>, toolName: string): Chain {
    // A regex counts a name too long to test as a match, so for such a name every matcher decides, hints or not: a
    // chain of every entry, each checked, and not kept (a long name in a map would hold on to its memory).
    if (toolName.length > MATCH_INPUT_LIMIT) {
      return { entries: chains.all.entries.map((e) => (e.check || e.matcher === undefined ? e : { ...e, check: true })), toolName, event: chains };
    }
    const chain = {
      entries: chains.all.entries.filter((e) => e.toolNames === undefined || e.toolNames.has(toolName)),
      toolName,
      event: chains,
    };
    if (byTool.size < MAX_TOOL_CHAINS) byTool.set(toolName, chain);
    return chain;
  }
}

const OwnStack = ownClass(HookStack);

const proceedTerminal: Terminal = (ctx) => HookOutcome.proceed(ctx);

const NO_EVENTS: ReadonlySet<HookEventName> = new Set();
const ALL_EVENTS: ReadonlySet<HookEventName> = new Set(HookEvent.all);

/** What stays the same through one dispatch. */
interface Run {
  readonly terminal: Terminal;
  readonly scope: HookScope;
  readonly observer: HookObserver | undefined;
}

/** The run of a dispatch without a terminal or options: shared, since nothing in it belongs to one dispatch. */
const PLAIN_RUN: Run = Object.freeze({ terminal: proceedTerminal, scope: HookScope.none, observer: undefined });

/** Where a dispatch waits: the callback at `index` of `chain` answered `answer`, a promise, for `ctx`. */
interface Pending {
  chain: Chain;
  index: number;
  entry: Entry;
  ctx: AnyHookContext;
  answer: Promise<unknown>;
}

// Errors already handed to an observer's onHookError, so the hooks around the failing one do not report it again.
const reported = new WeakSet<object>();

/**
 * Calls an entry's hook with `next`. The matcher was checked (or settled by the chain's index) on the way here; a hook
 * with a matcher is called through {@link handleMatched}, which tells it so.
 */
function callHook(entry: Entry, ctx: AnyHookContext, scope: HookScope, next: NextFn): MaybePromise<HookOutcome> {
  return entry.matcher === undefined ? entry.hook.handle(ctx, next, scope) : handleMatched(entry.hook, entry.matcher, ctx, next, scope);
}

function normalize(registration: HookRegistration): { hook: Hook; priority: number } {
  let hook: Hook | HookFn;
  let priority: number | undefined;
  if (typeof registration === 'function') hook = registration;
  else if (isHook(registration)) hook = registration;
  else if (registration !== null && typeof registration === 'object' && 'hook' in registration) {
    hook = registration.hook;
    priority = registration.priority;
  } else {
    throw new TypeError(`Not a hook: ${String(registration)}. Give an object with handle(ctx, next), or a (ctx, next) function.`);
  }
  if (typeof hook === 'function') hook = new CallableHook(hook);
  if (!isHook(hook)) throw new TypeError(`Not a hook: ${String(hook)}. A hook needs a handle(ctx, next) method.`);
  // A hook that knows its place (a script hook's manifest priority) keeps it unless the caller says otherwise.
  priority ??= hook.priority ?? 0;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) {
    throw new TypeError(`A hook priority must be a finite number, got ${String(priority)} for '${hookName(hook, 'hook')}'.`);
  }
  return { hook, priority };
}

/**
 * A hook's matcher as a {@link HookMatcher}: a class may declare it as anything the builder's `matcher` option takes.
 * Normalised once, when the hook is registered, so a dispatch only calls `matches`.
 */
function matcherOf(hook: Hook, name: string): HookMatcher | undefined {
  const declared = hook.matcher;
  if (declared === undefined || declared === null || isHookMatcher(declared)) return declared ?? undefined;
  try {
    return Matcher.from(declared);
  } catch (error) {
    // A pattern that does not compile says so itself (MatcherSyntaxError); a value of the wrong kind needs the hook named.
    if (!(error instanceof TypeError)) throw error;
    throw new TypeError(`The matcher of hook '${name}' is unusable: ${error.message}`, { cause: error });
  }
}

function makeEntry(hook: Hook, priority: number, seq: number): Entry {
  const name = hookName(hook, `hook #${seq + 1}`);
  const matcher = matcherOf(hook, name);
  const hints = matcher?.hints;
  const declared = hook.events ? new Set(hook.events.map((e) => HookEvent.parse(e))) : undefined;
  const events = intersectEvents(declared, hints?.events);
  return {
    hook,
    priority,
    seq,
    name,
    matcher,
    events,
    toolNames: hints?.toolNames,
    check: matcher !== undefined && hints?.exact !== true,
    // A subclass that overrides handle() gets what it asked for: its own handle, with a next function. So does another
    // copy's EventHook: its handle is the one of its own copy, whose outcomes `settle` adopts.
    callback: hook instanceof OwnEventHook && hook.handle === EventHook.prototype.handle ? (hook.callback as (ctx: AnyHookContext, scope: HookScope) => unknown) : undefined,
  };
}

function publicEntry(e: Entry): HookEntry {
  return { hook: e.hook, priority: e.priority, name: e.name, matcher: e.matcher, events: e.events };
}

function errorInit(entry: Entry, ctx: AnyHookContext) {
  return { hookName: entry.name, event: ctx.event, priority: entry.priority };
}

function wrap(error: unknown, entry: Entry, ctx: AnyHookContext): unknown {
  if (HookError.isHookError(error)) return error;
  if (error !== null && typeof error === 'object' && terminalErrors.has(error)) return error;
  return HookError.fromThrown(error, errorInit(entry, ctx));
}

function markTerminal(error: unknown): unknown {
  const marked = error !== null && typeof error === 'object' ? error : new Error(String(error), { cause: error });
  terminalErrors.add(marked);
  return marked;
}

/** A proceed or ask that names no context goes on with the one it was decided on (block and stop carry none). */
const withDefaultContext = (outcome: HookOutcome, ctx: AnyHookContext): HookOutcome =>
  outcome.context === undefined ? outcome.withContext(ctx) : outcome;

// The hooks and the terminal may answer with another copy's outcome: from here on, only this copy's are passed on.
function terminalOutcome(value: unknown, ctx: AnyHookContext): HookOutcome {
  const outcome = value instanceof OwnOutcome ? value : HookOutcome.adopt(value);
  if (outcome === undefined) {
    throw markTerminal(new TypeError(`The terminal returned ${String(value)} instead of a HookOutcome.`));
  }
  return withDefaultContext(outcome, ctx);
}

async function finishAsync(result: PromiseLike<HookOutcome>, ctx: AnyHookContext): Promise<HookOutcome> {
  let outcome: HookOutcome;
  try {
    outcome = await result;
  } catch (error) {
    throw markTerminal(error);
  }
  return terminalOutcome(outcome, ctx);
}

/**
 * An asynchronous hook's result (a thenable other than a native promise, or any under an observer), settled: its
 * rejection named after it, its value checked, as the stack does for a native promise.
 */
function settleAsync(result: PromiseLike<HookOutcome>, entry: Entry, ctx: AnyHookContext): Promise<HookOutcome> {
  return (result instanceof Promise ? result : Promise.resolve(result)).then(
    (outcome) => settle(outcome, entry, ctx),
    (error: unknown) => {
      throw wrap(error, entry, ctx);
    },
  );
}

function settle(value: unknown, entry: Entry, ctx: AnyHookContext): HookOutcome {
  const outcome = value instanceof OwnOutcome ? value : HookOutcome.adopt(value);
  if (outcome === undefined) {
    throw new HookError(
      `returned ${value === undefined ? 'undefined' : String(value)} instead of a HookOutcome`,
      errorInit(entry, ctx),
      'return next(ctx) to go on, or HookOutcome.block/stop/ask to decide',
    );
  }
  return withDefaultContext(outcome, ctx);
}
