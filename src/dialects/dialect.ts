/**
 * The contract between a script hook and one agent's command-hook protocol: what goes to stdin, and what the exit
 * code and output mean.
 *
 * @module
 */
import type { AnyHookContext, HookEventName, HookNote } from '../core/index.js';
import type { ProcessResult } from './process-result.js';

/** What a dialect needs besides the context to build the stdin payload. */
export interface PayloadInfo {
  /** The event's name as this hook's author wrote it (see {@link WireDialect.eventName}). */
  readonly eventName: string;
  /** The project directory, which is also the process's working directory. */
  readonly workDir: string;
  /** The hook's name. */
  readonly hookName: string;
}

/** What a dialect needs to know about the hook whose output it reads. */
export interface WireHookInfo {
  /** The hook's name, for reasons and notes. */
  readonly name: string;
  /** Whether a hook that fails (crashes, times out, answers nonsense) blocks instead of letting the action go on. */
  readonly failClosed: boolean;
  /** The timeout the process ran under, in milliseconds, for messages. */
  readonly timeoutMs?: number | undefined;
  /** The output cap the process ran under, in bytes, for messages. */
  readonly maxOutputBytes?: number | undefined;
  /** Whether the hook runs in the background, where nothing it decides counts: a failure is then only reported. */
  readonly async?: boolean | undefined;
  /** The command as its config wrote it, for the messages an agent words with it (Claude Code's blocking errors). */
  readonly command?: string | undefined;
}

/** The kinds of decision a script can come to; the same as an outcome's. */
export type DecisionKind = 'proceed' | 'block' | 'stop' | 'ask';

/**
 * What one process run decided, in the kernel's terms but not yet an outcome: the script hook turns it into one,
 * calling `next` where the decision lets the chain go on.
 */
export interface Decision {
  /** The decision. */
  readonly kind: DecisionKind;
  /** Why: always set for block, stop and ask. */
  readonly reason?: string | undefined;
  /** Whether the script explicitly allowed the action (a grant), rather than just letting it go on. */
  readonly granted?: boolean | undefined;
  /** For an ask: the decision is left to later (Claude Code's `defer`; see `HookOutcome.deferred`). */
  readonly deferred?: boolean | undefined;
  /** The context to go on with, when the script modified it (a rewritten tool input). */
  readonly ctx?: AnyHookContext | undefined;
  /** Text for the model's next call, in order. */
  readonly additionalContext: readonly string[];
  /** A message for the user. */
  readonly systemMessage?: string | undefined;
  /** What went wrong on the way: a failure the hook failed open (or closed) on, or output that was ignored. */
  readonly notes: readonly HookNote[];
}

/**
 * One agent's command-hook protocol. Dialects are stateless: the HOOK.md one is `hookMdDialect`; Claude Code,
 * Copilot, Gemini, Cursor and Codex dialects are siblings of it.
 */
export interface WireDialect {
  /** A short name for listings, e.g. `hookmd`. */
  readonly name: string;
  /**
   * The name to send for `event`, given how the hook's author wrote its trigger (`written`): a script written
   * against one naming scheme should never see another's names.
   */
  eventName(event: HookEventName, written?: string): string;
  /** The JSON object written to the process's stdin. */
  payload(ctx: AnyHookContext, info: PayloadInfo): object;
  /**
   * The payload's bytes, for a protocol whose hooks read them as text (the HOOK.md reference runtime writes Python's
   * `json.dumps` spacing, and its hooks grep for it). Default: `JSON.stringify`.
   */
  stringify?(payload: object): string;
  /** What the process's exit code and output mean for `ctx`. Never throws: bad output is a failure with a note. */
  interpret(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision;
  /**
   * For a hook that runs in the background and may wake the model when it is done (Claude Code's `asyncRewake`): the
   * message the model is given for how its process ended, or `undefined` when that ending wakes nothing. Absent: the
   * protocol has no such hooks.
   */
  wakeMessage?(result: ProcessResult, ctx: AnyHookContext, info: PayloadInfo): string | undefined;
  /**
   * Variables the agent gives the process of this one run beside its usual ones (Claude Code's `CLAUDE_ENV_FILE` on
   * SessionStart), or `undefined` for none. Absent: the protocol has none.
   */
  runEnv?(ctx: AnyHookContext, info: PayloadInfo): Readonly<Record<string, string>> | undefined;
}
