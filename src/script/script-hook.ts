/**
 * A HOOK.md hook as a middleware of the stack: its script runs as a process, and what the process answers becomes
 * the hook's outcome.
 *
 * @module
 */
import { resolve as resolvePath } from 'node:path';
import { EventEmitter } from 'eventemitter3';
import {
  HookOutcome,
  HookStack,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type HookMatcher,
  type HookNote,
  type HookScope,
  type MaybePromise,
  type NextFn,
} from '../core/index.js';
import { continueChain } from '../core/internal/continue-chain.js';
import { messageOf } from '../core/internal/message-of.js';
import type { Decision, WireDialect, WireHookInfo } from './dialects/dialect.js';
import { failureDecision } from './dialects/failure.js';
import { hookMdDialect } from './dialects/hookmd.js';
import { resolveScriptEntry } from './entry.js';
import { readHookBody } from './frontmatter.js';
import type { HookManifest } from './manifest.js';
import { manifestMatcher } from './manifest-matcher.js';
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess, type ProcessResult } from './run-process.js';

/** How script hooks run: where, with what environment, and what a failure means. */
export interface ScriptHookOptions {
  /** The project directory: the process's working directory, `work_dir` on stdin and `AGENT_HOOKS_PROJECT_DIR`. */
  readonly projectDir: string;
  /** Variables added to the parent's environment (`undefined` removes one). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Whether every hook fails closed: a crash, timeout, missing script or nonsense output blocks the action instead of
   * letting it go on with a warning. A hook also fails closed when its HOOK.md says `metadata: { failClosed: true }`;
   * it cannot opt out of a global `true`.
   */
  readonly failClosed?: boolean | undefined;
  /** The cap on each of stdout and stderr, in bytes (default 1 MiB); past it the process is killed. */
  readonly maxOutputBytes?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when a process is killed (default 2000). */
  readonly killGraceMs?: number | undefined;
  /** The wire protocol (default {@link hookMdDialect}). */
  readonly dialect?: WireDialect | undefined;
}

/** What the `exit` event reports for every process a script hook ran. */
export interface ScriptExit extends ProcessResult {
  /** The hook's name. */
  readonly hookName: string;
  /** The event dispatched. */
  readonly event: HookEventName;
  /** The event's name as sent to the script (`event_type`, `AGENT_HOOKS_EVENT`). */
  readonly eventName: string;
  /** Whether the hook ran in the background. */
  readonly async: boolean;
}

/** The events of {@link ScriptHook.emitter}. */
export interface ScriptHookEvents {
  /** A note the hook also reported to the dispatch (a failure it failed open or closed on, ignored output, …). */
  note: [note: HookNote];
  /** A process ended: every run, whatever it decided, for logs and metrics. */
  exit: [exit: ScriptExit];
}

const ignore = (): void => {};

/**
 * One HOOK.md hook in a {@link HookStack}. Its events and matcher come from the manifest, so the stack leaves it out
 * of every dispatch it does not match and nothing is spawned for those; register it at its manifest's priority:
 *
 * ```ts
 * const hook = new ScriptHook(manifest, { projectDir: process.cwd() });
 * const stack = new HookStack().with(hook, hook.priority);
 * ```
 *
 * When it runs, the script entry is resolved afresh (a script added or removed since discovery counts), the event
 * goes to its stdin as JSON, and the dialect reads the answer: block and stop end the chain; ask and proceed call
 * `next` (with the rewritten context, if any) and merge their additional context and messages with what the later
 * hooks decide.
 *
 * An async hook (`async: true`) starts its process and lets the chain go on at once: it can neither block nor modify,
 * and whatever it prints to try is ignored with a note. Its process is handed to the dispatch through
 * `scope.waitUntil`, and {@link ScriptHook.drain} waits for all of them.
 */
export class ScriptHook implements Hook {
  /** The manifest the hook was built from. */
  readonly manifest: HookManifest;
  /** The hook's name (the manifest's). */
  readonly name: string;
  /** The one event it runs for: the manifest's trigger. */
  readonly events: readonly HookEventName[];
  /** The manifest's `matcher`, for the stack to apply; `undefined` when there is none. */
  readonly matcher: HookMatcher | undefined;
  /** Whether a failure blocks instead of letting the action go on (never for an async hook, which cannot block). */
  readonly failClosed: boolean;
  /** The trigger's name as the script receives it (`event_type` and `AGENT_HOOKS_EVENT`). */
  readonly eventName: string;
  /** The project directory, absolute. */
  readonly projectDir: string;
  /** Notes and process exits, for observers that are not part of a dispatch. Listener errors are ignored. */
  readonly emitter = new EventEmitter<ScriptHookEvents>();
  private readonly dialect: WireDialect;
  private readonly options: ScriptHookOptions;
  private readonly wire: WireHookInfo;
  private readonly pending = new Set<Promise<void>>();
  private bodyText: Promise<string> | undefined;

  /** @throws Error naming the hook and the field when the manifest's matcher regexes do not compile. */
  constructor(manifest: HookManifest, options: ScriptHookOptions) {
    this.manifest = manifest;
    this.name = manifest.name;
    this.events = Object.freeze([manifest.trigger]);
    this.matcher = manifestMatcher(manifest);
    this.options = options;
    this.dialect = options.dialect ?? hookMdDialect;
    this.failClosed = !manifest.async && (options.failClosed === true || manifest.metadata.failClosed === true);
    this.eventName = this.dialect.eventName(manifest.trigger, manifest.triggerName);
    this.projectDir = resolvePath(options.projectDir);
    this.wire = {
      name: this.name,
      failClosed: this.failClosed,
      timeoutMs: manifest.timeout,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    };
  }

  /** The manifest's priority (higher runs first): the one to register the hook at. */
  get priority(): number {
    return this.manifest.priority;
  }

  /** How many async runs of this hook are still going. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * The HOOK.md body (the Markdown after the frontmatter). Read on the hook's first run, not at discovery, and kept;
   * a failed read is retried on the next call.
   */
  body(): Promise<string> {
    this.bodyText ??= readHookBody(this.manifest).catch((error: unknown) => {
      this.bodyText = undefined;
      throw error;
    });
    return this.bodyText;
  }

  /** Runs the script for `ctx` and turns its answer into the outcome (see the class description). */
  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    if (this.manifest.async) {
      this.startAsync(ctx, scope);
      return next(ctx);
    }
    return this.decide(ctx, scope, false).then((decision) => this.continueWith(decision, ctx, next));
  }

  /** Resolves once every async run of this hook has finished, including runs started while waiting. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private continueWith(decision: Decision, ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    return continueChain(this.outcomeOf(decision), ctx, next);
  }

  /** The dialect's decision as the outcome a callback would return. */
  private outcomeOf(decision: Decision): HookOutcome {
    const extras = { additionalContext: decision.additionalContext, systemMessage: decision.systemMessage };
    const reason = decision.reason?.trim() ? decision.reason : undefined;
    switch (decision.kind) {
      case 'block':
        return HookOutcome.block(reason ?? `blocked by hook '${this.name}'`, extras);
      case 'stop':
        return HookOutcome.stop(reason ?? `Hook '${this.name}' stopped the run.`, extras);
      case 'ask':
        return HookOutcome.ask(reason ?? `Hook '${this.name}' asks for approval.`, { ...extras, context: decision.ctx });
      default:
        return decision.granted
          ? HookOutcome.allow(decision.ctx, { ...extras, ...(reason !== undefined ? { reason } : {}) })
          : HookOutcome.proceed(decision.ctx, extras);
    }
  }

  /** One run, start to decision, with its notes reported. */
  private async decide(ctx: AnyHookContext, scope: HookScope, isAsync: boolean): Promise<Decision> {
    // The body is read on the first run (progressive disclosure); nothing here waits for it.
    if (this.bodyText === undefined) this.body().catch(ignore);
    const decision = await this.run(ctx, scope, isAsync);
    for (const note of decision.notes) this.report(note, scope);
    return decision;
  }

  /** Expected failures (no script, an event that is not JSON, a crash) are decisions here, never errors. */
  private async run(ctx: AnyHookContext, scope: HookScope, isAsync: boolean): Promise<Decision> {
    const hook = this.wire;
    // The entry lookup waits on the file system; building the input meanwhile takes it off the critical path.
    const lookup = resolveScriptEntry(this.manifest.dir).catch((error: unknown) => ({
      ok: false as const,
      problem: { code: 'no-entry', message: messageOf(error) },
    }));
    // An async run must not hold up the dispatch that starts it: its input (a copy of the environment alone takes some
    // 100 µs) is built once the lookup is back, after the dispatch has returned.
    if (isAsync) await lookup;
    let stdin: string | undefined;
    let unsendable: unknown;
    try {
      stdin = JSON.stringify(this.dialect.payload(ctx, { eventName: this.eventName, workDir: this.projectDir, hookName: this.name }));
    } catch (error) {
      unsendable = error;
    }
    const env = {
      ...process.env,
      ...this.options.env,
      AGENT_HOOKS_PROJECT_DIR: this.projectDir,
      AGENT_HOOKS_EVENT: this.eventName,
      AGENT_HOOKS_HOOK_NAME: this.name,
    };
    const entry = await lookup;
    if (!entry.ok) {
      const cause = `cannot run its script: ${entry.problem.message}`;
      return failureDecision({ code: entry.problem.code, cause }, undefined, ctx, hook);
    }
    if (stdin === undefined) {
      // Tool arguments holding a BigInt or a cycle cannot be sent; that is this run's failure, not the dispatch's.
      const cause = `could not be sent the event as JSON (${messageOf(unsendable)})`;
      return failureDecision({ code: 'invalid-input', cause }, undefined, ctx, hook);
    }
    const result = await runProcess({
      command: entry.command,
      cwd: this.projectDir,
      env,
      stdin,
      timeoutMs: this.manifest.timeout,
      maxOutputBytes: hook.maxOutputBytes,
      killGraceMs: this.options.killGraceMs,
      signal: scope.signal,
    });
    this.emit('exit', { ...result, hookName: this.name, event: ctx.event, eventName: this.eventName, async: isAsync });
    return this.dialect.interpret(result, ctx, hook);
  }

  private startAsync(ctx: AnyHookContext, scope: HookScope): void {
    const run = this.decide(ctx, scope, true).then(
      (decision) => {
        const ignored = [
          decision.kind === 'proceed' ? undefined : `${decision.kind} decision`,
          decision.ctx === undefined ? undefined : 'modified input',
          decision.additionalContext.length === 0 && decision.systemMessage === undefined ? undefined : 'messages',
        ].filter((part) => part !== undefined);
        if (ignored.length === 0) return;
        const what = `${ignored.join(' and ')} ${ignored.length === 1 ? 'was' : 'were'}`;
        const message = `Hook '${this.name}' runs asynchronously, so its ${what} ignored: an async hook cannot block, modify or add context.`;
        this.report(this.note(ctx, 'async-decision-ignored', message), scope);
      },
      (error: unknown) => {
        this.report(this.note(ctx, 'internal-error', `Hook '${this.name}' failed in the background: ${messageOf(error)}`), scope);
      },
    );
    const tracked = run.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    scope.waitUntil(tracked);
  }

  private note(ctx: AnyHookContext, code: string, message: string): HookNote {
    return { level: 'warning', hookName: this.name, event: ctx.event, code, message };
  }

  private report(note: HookNote, scope: HookScope): void {
    scope.report(note);
    this.emit('note', note);
  }

  private emit<K extends keyof ScriptHookEvents>(event: K, ...args: ScriptHookEvents[K]): void {
    try {
      (this.emitter.emit as (event: K, ...args: ScriptHookEvents[K]) => boolean)(event, ...args);
    } catch {
      // An observer's bug must not change what the hook decides.
    }
  }
}

/** Anything that can be waited for like a script hook's background runs. */
interface Drainable {
  drain(): Promise<void>;
}

const isDrainable = (hook: Hook): hook is Hook & Drainable =>
  hook !== null && typeof hook === 'object' && typeof (hook as Partial<Drainable>).drain === 'function';

/**
 * Waits for the background runs of every hook that has any (every {@link ScriptHook}, async or not), e.g. before an
 * agent session closes. Accepts a stack or a list of hooks.
 */
export async function drainAll(hooks: HookStack | Iterable<Hook>): Promise<void> {
  const list = hooks instanceof HookStack ? hooks.all().map((entry) => entry.hook) : [...hooks];
  await Promise.all(list.filter(isDrainable).map((hook) => hook.drain()));
}
