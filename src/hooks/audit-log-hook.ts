/**
 * A hook that writes every event to a JSON Lines audit log.
 *
 * @module
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import {
  HookEvent,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type HookOutcome,
  type HookScope,
  type MaybePromise,
  type NextFn,
} from '../core/index.js';
import { isThenable } from '../core/internal/thenable.js';
import { messageOf } from '../core/internal/message-of.js';
import { checkPriority } from './internal/refuse.js';

const { createWriteStream, mkdirSync } = nodeFs;

/** Options of an {@link AuditLogHook}. */
export interface AuditLogHookOptions {
  /** The events to log (any dialect's names; default: all). */
  readonly events?: readonly string[] | undefined;
  /** Whether lines include the context's metadata (default false: it is often large, and other hooks' business). */
  readonly includeMetadata?: boolean | undefined;
  /** The clock for the `time` field (default: `new Date()`). */
  readonly now?: (() => Date) | undefined;
  /**
   * The priority to register at when the registration names none (default 10000: before every other hook, so that
   * the line records what the whole chain decided, refusals included; registered below a hook that blocks, it never
   * sees the calls that hook refuses).
   */
  readonly priority?: number | undefined;
}

/** One line of the audit log (the context's own fields are added beside these: `toolCall`, `prompt`, `stopReason`, …). */
export interface AuditLogEntry {
  /** When the event's hooks had decided, ISO 8601. */
  readonly time: string;
  /** The canonical event. */
  readonly event: HookEventName;
  /** The agent's id. */
  readonly agentId: string;
  /** What the hooks decided: `proceed`, `block`, `stop`, `ask`, or `error` when a hook threw. */
  readonly outcome: string;
  /** Why (block, stop, ask), or the error's message. */
  readonly reason?: string;
  /** How long the hooks after the audit hook took, in milliseconds. */
  readonly durationMs: number;
}

const safeJson = (value: unknown): string => {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Error) return { name: v.name, message: v.message };
    if (v !== null && typeof v === 'object') {
      if (seen.has(v)) return '[Circular]';
      seen.add(v);
    }
    return v;
  });
};

/**
 * Appends one JSON line per event to a file (or any writable stream): the time, the event, the agent, the event's own
 * fields (`toolCall`, `execution`, `prompt`, `stopReason`, …, as the hooks left them), what the hooks decided and how
 * long they took — the audit trail of a run, ready for `jq`.
 *
 * It never holds up or changes the chain: lines are written in the background, and a write that fails (a missing
 * folder, a full disk, a closed stream) becomes a `warning` note (the agent emits it as a `warning` event) instead of
 * a failure. At SessionEnd it waits for its lines to be written and closes a file it opened (a later event opens it
 * again); `flush()` and `close()` do the same by hand. A stream it was given is flushed, never ended: it is the
 * caller's.
 *
 * ```ts
 * const audit = new AuditLogHook('.agent/audit.jsonl');
 * const agent = AgentBuilder.new().withModel(model).withTools(bash).withHook(audit).build();
 * await agent.run('Clean up the build folder');
 * await audit.flush();   // every line of the run is in the file
 * ```
 */
export class AuditLogHook implements Hook {
  /** Always `'AuditLogHook'`. */
  readonly name = 'AuditLogHook';
  /** The events logged (all when undefined). */
  readonly events: readonly HookEventName[] | undefined;
  /** The priority it registers at by default. */
  readonly priority: number;
  private readonly path: string | undefined;
  private readonly given: Writable | undefined;
  private readonly includeMetadata: boolean;
  private readonly now: () => Date;
  private stream: Writable | undefined;
  /** Streams whose failure was reported: after the first, every queued line fails the same way. */
  private readonly reported = new WeakSet<Writable>();
  private readonly pending = new Set<Promise<void>>();

  /** Logs to the file at `target` (appending; created with its folder when missing), or to the writable stream `target`. */
  constructor(target: string | Writable, options: AuditLogHookOptions = {}) {
    if (typeof target === 'string') {
      if (target.trim() === '') throw new TypeError('AuditLogHook needs a file path or a writable stream, got an empty path.');
      this.path = target;
    } else if (target !== null && typeof target === 'object' && typeof (target as Writable).write === 'function') {
      this.given = target;
    } else {
      throw new TypeError(`AuditLogHook needs a file path or a writable stream, got ${target === null ? 'null' : typeof target}.`);
    }
    this.events = options.events === undefined ? undefined : Object.freeze(options.events.map((e) => HookEvent.parse(e)));
    this.includeMetadata = options.includeMetadata === true;
    this.now = options.now ?? (() => new Date());
    this.priority = checkPriority('AuditLogHook', options.priority, 10_000);
  }

  /** Where the lines go: the file path, or `'stream'`. */
  get target(): string {
    return this.path ?? 'stream';
  }

  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    const started = performance.now();
    const done = (outcome: HookOutcome): MaybePromise<HookOutcome> => {
      this.log(ctx, outcome, undefined, performance.now() - started, scope);
      if (ctx.event !== 'SessionEnd') return outcome;
      return this.close().then(() => outcome);
    };
    const failed = (error: unknown): never => {
      this.log(ctx, undefined, error, performance.now() - started, scope);
      throw error;
    };
    let result: MaybePromise<HookOutcome>;
    try {
      result = next(ctx);
    } catch (error) {
      return failed(error);
    }
    return isThenable(result) ? Promise.resolve(result).then(done, failed) : done(result);
  }

  /** Resolves once every line written so far has been handed to the file or stream (failures are reported, not thrown). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Flushes, then closes the file the hook opened (a stream it was given stays open). A later event opens the file again. */
  async close(): Promise<void> {
    await this.flush();
    const stream = this.stream;
    if (this.path === undefined || stream === undefined) return;
    this.stream = undefined;
    if (stream.destroyed) return;
    await new Promise<void>((done) => stream.end(done));
  }

  private log(ctx: AnyHookContext, outcome: HookOutcome | undefined, error: unknown, durationMs: number, scope: HookScope): void {
    let line: string;
    try {
      const final = outcome?.context ?? ctx;
      const { metadata, ...fields } = final.toJSON();
      line = safeJson({
        time: this.now().toISOString(),
        ...fields,
        ...(this.includeMetadata ? { metadata } : {}),
        outcome: outcome?.type ?? 'error',
        ...(outcome?.reason !== undefined ? { reason: outcome.reason } : error !== undefined ? { reason: messageOf(error) } : {}),
        durationMs: Math.round(durationMs * 1000) / 1000,
      });
    } catch (cause) {
      this.warn(scope, ctx.event, `could not serialise the ${ctx.event} event: ${messageOf(cause)}`);
      return;
    }
    this.write(`${line}\n`, ctx.event, scope);
  }

  private write(line: string, event: HookEventName, scope: HookScope): void {
    const stream = this.open(event, scope);
    if (stream === undefined) return;
    const written = new Promise<void>((settle) => {
      try {
        stream.write(line, (error) => {
          if (error) this.streamFailed(stream, error, event, scope);
          settle();
        });
      } catch (error) {
        this.streamFailed(stream, error, event, scope);
        settle();
      }
    });
    this.pending.add(written);
    void written.then(() => this.pending.delete(written));
  }

  private open(event: HookEventName, scope: HookScope): Writable | undefined {
    if (this.stream !== undefined && !this.stream.destroyed) return this.stream;
    if (this.path === undefined) {
      if (this.given!.destroyed || this.given!.writableEnded) {
        this.streamFailed(this.given!, new Error('the stream is closed'), event, scope);
        return undefined;
      }
      this.stream = this.given;
    } else {
      try {
        mkdirSync(dirname(this.path), { recursive: true });
      } catch {
        // createWriteStream reports the same problem through the stream, with the file's name.
      }
      this.stream = createWriteStream(this.path, { flags: 'a' });
    }
    const stream = this.stream!;
    // An error event without a listener would crash the process; the failure is reported where the write was made.
    stream.on('error', () => {});
    return stream;
  }

  private streamFailed(stream: Writable, error: unknown, event: HookEventName, scope: HookScope): void {
    if (this.reported.has(stream)) return;
    this.reported.add(stream);
    // A file is opened again at the next event: the folder may exist by then.
    if (this.path !== undefined && stream === this.stream) this.stream = undefined;
    this.warn(scope, event, `could not write to ${this.target}: ${messageOf(error)}. The line was dropped; the run goes on.`);
  }

  private warn(scope: HookScope, event: HookEventName, message: string): void {
    scope.report({ level: 'warning', hookName: this.name, event, code: 'audit-write-failed', message: `AuditLogHook ${message}` });
  }
}
