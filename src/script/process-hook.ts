/**
 * What every hook that runs a process has in common — HOOK.md scripts and the command hooks of agent config files:
 * the event goes to stdin as a dialect's JSON, and what the process answers becomes the hook's outcome.
 *
 * @module
 */
import { resolve as resolvePath } from 'node:path';
import { EventEmitter } from 'eventemitter3';
import {
  HookOutcome,
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
import { jsonDepthProblem } from '../core/internal/json-depth.js';
import { messageOf } from '../core/internal/message-of.js';
import type { Decision, WireDialect, WireHookInfo } from '../dialects/dialect.js';
import { failureDecision } from '../dialects/failure.js';
import { HookEnvironment, type EnvPattern, type EnvPolicy } from './hook-environment.js';
import { fileReads } from '../process/file-reads.js';
import { ProcessPool, type ProcessPoolLike, type ReleaseSlot } from '../process/process-pool.js';
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess, type ProcessResult } from '../process/run-process.js';

/** Whether an interpreter's failed run was its failure to open `script`, which has since been removed. */
async function scriptVanished(script: string, result: ProcessResult): Promise<boolean> {
  if (result.exitCode === 0 || result.exitCode === null || !result.stderr.includes(script)) return false;
  try {
    await fileReads.access(script);
    return false;
  } catch {
    return true;
  }
}

/** Why the tool input or result of `ctx` cannot be serialised safely; `undefined` for other events, and when it can. */
function toolDepthProblem(ctx: AnyHookContext): string | undefined {
  if (!('toolCall' in ctx)) return undefined;
  const problem = jsonDepthProblem(ctx.toolCall.args);
  if (problem !== undefined || ctx.execution === undefined) return problem;
  return jsonDepthProblem(ctx.execution.result);
}

/** What a {@link ScriptExit} reports for every process a process hook ran. */
export interface ScriptExit extends ProcessResult {
  /** The hook's name. */
  readonly hookName: string;
  /** The event dispatched. */
  readonly event: HookEventName;
  /** The event's name as sent to the process. */
  readonly eventName: string;
  /** Whether the hook ran in the background. */
  readonly async: boolean;
}

/** The events of {@link ProcessHook.emitter}. */
export interface ScriptHookEvents {
  /** A note the hook also reported to the dispatch (a failure it failed open or closed on, ignored output, …). */
  note: [note: HookNote];
  /** A process ended: every run, whatever it decided, for logs and metrics. */
  exit: [exit: ScriptExit];
}

/** How one process hook runs: what a subclass decides once, when it is built. */
export interface ProcessHookSettings {
  /** The hook's name, for listings, notes and reasons. */
  readonly name: string;
  /** The command as its config wrote it, when it has one: the messages an agent words with it quote it. */
  readonly command?: string | undefined;
  /** The one event it runs for. */
  readonly event: HookEventName;
  /** Which contexts it applies to; `undefined` for all of its event's. */
  readonly matcher: HookMatcher | undefined;
  /** Higher runs first. */
  readonly priority: number;
  /** Whether it runs in the background, deciding nothing. */
  readonly async: boolean;
  /**
   * Whether, run in the background, it may wake the model when it is done (Claude Code's `asyncRewake`; implies
   * `async`): the message its dialect makes of how it ended goes to the dispatcher's {@link HookScope.wake}. Where the
   * dispatcher has none, it runs in the foreground as a plain hook, as Claude Code runs it where no session can be
   * woken (`claude -p`).
   */
  readonly rewake?: boolean | undefined;
  /** Whether a failure blocks instead of letting the action go on (ignored for an async hook, which cannot block). */
  readonly failClosed: boolean;
  /** Milliseconds before the process is killed. */
  readonly timeoutMs: number;
  /** The wire protocol. */
  readonly dialect: WireDialect;
  /** The event's name as the process receives it. */
  readonly eventName: string;
  /** The project directory: the working directory unless {@link ProcessHookSettings.cwd} says otherwise. */
  readonly projectDir: string;
  /** The process's working directory (default: the project directory). */
  readonly cwd?: string | undefined;
  /** Variables added to the environment after the policy (`undefined` removes one). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The cap on each of stdout and stderr, in bytes (default 1 MiB). */
  readonly maxOutputBytes?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when a process is killed (default 2000). */
  readonly killGraceMs?: number | undefined;
  /**
   * The pool whose slot each run takes while its process runs (default {@link ProcessPool.shared}); options make a
   * pool for this hook alone.
   */
  readonly processPool?: ProcessPoolLike | undefined;
  /** What the process inherits from this one (default `'inherit'`); ignored when `environment` is given. */
  readonly envPolicy?: EnvPolicy | undefined;
  /** Variables of this process the process never sees (default none); ignored when `environment` is given. */
  readonly envDeny?: readonly EnvPattern[] | undefined;
  /** A policy shared with other hooks (what loaders pass); wins over `envPolicy` and `envDeny`. */
  readonly environment?: HookEnvironment | undefined;
}

/** The argv to run, or why there is none this time (a script removed since discovery, …). */
export type ResolvedCommand =
  | {
      /** There is a command to run. */
      readonly ok: true;
      /** The argv. */
      readonly command: readonly string[];
      /**
       * The script file, when the argv starts its interpreter rather than the script itself (`sh run.sh`). An
       * interpreter that cannot open its script exits with a code of its own — 2 for `sh` and `python3`, which reads
       * as a block — so a failed run whose script is gone and whose stderr names it is reported as a missing script.
       */
      readonly script?: string | undefined;
    }
  | {
      /** There is none this time. */
      readonly ok: false;
      /** The note code, e.g. `no-entry`. */
      readonly code: string;
      /** What went wrong, as the rest of a sentence starting with the hook's name ("cannot run its script: …"). */
      readonly cause: string;
    };

/**
 * A hook that runs a process per dispatch. Subclasses say which command to run ({@link ProcessHook.resolveCommand});
 * the rest is shared: the payload, the environment, the timeout and output caps, the dialect's reading of the answer,
 * failing open or closed, notes, and background runs.
 *
 * A block or stop ends the chain; ask and proceed call `next` (with the rewritten context, if any) and merge their
 * additional context and messages with what the later hooks decide. An async hook starts its process and lets the
 * chain go on at once: it can neither block nor modify, and whatever it prints to try is ignored with a note. Its
 * process is handed to the dispatch through `scope.waitUntil`, and {@link ProcessHook.drain} waits for all of them.
 */
export abstract class ProcessHook implements Hook {
  /** The hook's name. */
  readonly name: string;
  /** The one event it runs for. */
  readonly events: readonly HookEventName[];
  /** Which contexts it applies to, for the stack to apply; `undefined` when it applies to all. */
  readonly matcher: HookMatcher | undefined;
  /** Whether a failure blocks instead of letting the action go on (never for an async hook, which cannot block). */
  readonly failClosed: boolean;
  /** Whether it runs in the background. */
  readonly async: boolean;
  /** Whether, in the background, it may wake the model when it is done (see {@link ProcessHookSettings.rewake}). */
  readonly rewake: boolean;
  /** Milliseconds before its process is killed. */
  readonly timeoutMs: number;
  /** The event's name as the process receives it. */
  readonly eventName: string;
  /** The project directory, absolute. */
  readonly projectDir: string;
  /** The wire protocol it speaks. */
  readonly dialect: WireDialect;
  /** Notes and process exits, for observers that are not part of a dispatch. Listener errors are ignored. */
  readonly emitter = new EventEmitter<ScriptHookEvents>();
  /** The pool that bounds how many processes run at once; its `stats()` tell how busy it is. */
  readonly processPool: ProcessPool;
  /** What the process inherits from this one's environment. */
  readonly environment: HookEnvironment;
  private readonly settings: ProcessHookSettings;
  private readonly wire: WireHookInfo;
  /** The hook as a foreground run reads it: a background hook with nothing to wake runs as a plain one. */
  private readonly foregroundWire: WireHookInfo;
  private readonly pending = new Set<Promise<void>>();
  private readonly basePriority: number;

  constructor(settings: ProcessHookSettings) {
    this.settings = settings;
    this.name = settings.name;
    this.events = Object.freeze([settings.event]);
    this.matcher = settings.matcher;
    this.async = settings.async || settings.rewake === true;
    this.rewake = settings.rewake === true;
    this.failClosed = !this.async && settings.failClosed;
    this.timeoutMs = settings.timeoutMs;
    this.eventName = settings.eventName;
    this.dialect = settings.dialect;
    this.projectDir = resolvePath(settings.projectDir);
    this.basePriority = settings.priority;
    this.processPool = ProcessPool.from(settings.processPool);
    this.environment = HookEnvironment.from(settings);
    this.wire = {
      name: this.name,
      failClosed: this.failClosed,
      timeoutMs: settings.timeoutMs,
      maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      async: this.async,
      command: settings.command,
    };
    this.foregroundWire = { ...this.wire, async: false };
  }

  /** The priority to register the hook at (higher runs first). */
  get priority(): number {
    return this.basePriority;
  }

  /** How many async runs of this hook are still going. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** The argv for this run; called on every run, after the matcher matched. */
  protected abstract resolveCommand(): Promise<ResolvedCommand>;

  /** Variables this kind of hook adds to the environment of every run (e.g. `CLAUDE_PROJECT_DIR`). */
  protected abstract runEnv(): Readonly<Record<string, string>>;

  /** Called before each run; a HOOK.md hook reads its body here on the first run. */
  protected beforeRun(): void {}

  /** Runs the process for `ctx` and turns its answer into the outcome (see the class description). */
  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    // A hook that would wake the model, dispatched where there is none to wake, runs as a plain hook.
    if (this.async && !(this.rewake && scope.wake === undefined)) {
      this.startAsync(ctx, scope);
      return next(ctx);
    }
    return this.decide(ctx, scope, false).then((decision) => continueChain(this.outcomeOf(decision), ctx, next));
  }

  /** Resolves once every async run of this hook has finished, including runs started while waiting. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
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
        return HookOutcome.ask(reason ?? `Hook '${this.name}' asks for approval.`, { ...extras, context: decision.ctx, defer: decision.deferred === true });
      default:
        return decision.granted
          ? HookOutcome.allow(decision.ctx, { ...extras, ...(reason !== undefined ? { reason } : {}) })
          : HookOutcome.proceed(decision.ctx, extras);
    }
  }

  /** One run, start to decision, with its notes reported. */
  private async decide(ctx: AnyHookContext, scope: HookScope, isAsync: boolean): Promise<Decision> {
    this.beforeRun();
    const decision = await this.run(ctx, scope, isAsync);
    for (const note of decision.notes) this.report(note, scope);
    return decision;
  }

  /** Expected failures (no command, an event that is not JSON, a crash) are decisions here, never errors. */
  private async run(ctx: AnyHookContext, scope: HookScope, isAsync: boolean): Promise<Decision> {
    const hook = isAsync ? this.wire : this.foregroundWire;
    // The command lookup may wait on the file system; building the input meanwhile takes it off the critical path.
    const lookup = this.resolveCommand().catch(
      (error: unknown): ResolvedCommand => ({ ok: false, code: 'no-entry', cause: `cannot run: ${messageOf(error)}` }),
    );
    // An async run must not hold up the dispatch that starts it: its input (the payload, the environment's first copy)
    // is built once the lookup is back, after the dispatch has returned.
    if (isAsync) await lookup;
    let stdin: string | undefined;
    let unsendable: string | undefined;
    try {
      const info = { eventName: this.eventName, workDir: this.projectDir, hookName: this.name };
      // Checked before a dialect walks the input (some stringify it on their own) and again on the whole payload, so
      // no serialiser here recurses as deep as the input goes.
      unsendable = toolDepthProblem(ctx);
      if (unsendable === undefined) {
        const payload = this.dialect.payload(ctx, info);
        unsendable = jsonDepthProblem(payload);
        if (unsendable === undefined) stdin = this.dialect.stringify?.(payload) ?? JSON.stringify(payload);
      }
    } catch (error) {
      unsendable = messageOf(error);
    }
    const dialectEnv = this.dialect.runEnv?.(ctx, { eventName: this.eventName, workDir: this.projectDir, hookName: this.name });
    const env = this.environment.compose(this.settings.env, dialectEnv === undefined ? this.runEnv() : { ...this.runEnv(), ...dialectEnv });
    const command = await lookup;
    if (!command.ok) {
      return failureDecision({ code: command.code, cause: command.cause }, undefined, ctx, hook);
    }
    if (stdin === undefined) {
      // Tool arguments nested too deep, holding a BigInt or a cycle cannot be sent; that is this run's failure, not the
      // dispatch's, and failureDecision refuses the call: the guard never saw it.
      const cause = `could not be sent the event as JSON: ${unsendable ?? 'it is not serialisable'}`;
      return failureDecision({ code: 'invalid-input', cause }, undefined, ctx, hook);
    }
    // The slot is taken right before the spawn, so the timeout (which starts at the spawn) never counts the wait. A
    // run cancelled while queued holds no slot; runProcess then sees the aborted signal and spawns nothing.
    const release: ReleaseSlot | undefined = await this.processPool.acquire(scope.signal).catch(() => undefined);
    let result: ProcessResult;
    try {
      result = await runProcess({
        command: command.command,
        cwd: this.settings.cwd ?? this.projectDir,
        env,
        stdin,
        timeoutMs: this.timeoutMs,
        maxOutputBytes: hook.maxOutputBytes,
        killGraceMs: this.settings.killGraceMs,
        signal: scope.signal,
      });
    } finally {
      release?.();
    }
    this.emit('exit', { ...result, hookName: this.name, event: ctx.event, eventName: this.eventName, async: isAsync });
    if (command.script !== undefined && (await scriptVanished(command.script, result))) {
      const cause = `cannot run its script: ${command.script} was removed before ${command.command[0]} could read it`;
      return failureDecision({ code: 'no-entry', cause }, result, ctx, hook);
    }
    const decision = this.dialect.interpret(result, ctx, hook);
    if (!isAsync || !this.rewake || scope.wake === undefined || scope.signal?.aborted === true) return decision;
    const message = this.dialect.wakeMessage?.(result, ctx, { eventName: this.eventName, workDir: this.projectDir, hookName: this.name });
    if (message === undefined) return decision;
    scope.wake(message, { hookName: this.name, event: ctx.event });
    // What woke the model was delivered: it is no decision ignored.
    return { kind: 'proceed', additionalContext: [], notes: decision.notes };
  }

  private startAsync(ctx: AnyHookContext, scope: HookScope): void {
    const run = this.decide(ctx, scope, true).then(
      (decision) => {
        // A run cancelled under it answered nothing worth saying it ignored: the 'aborted' note said what happened.
        if (scope.signal?.aborted === true) return;
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
