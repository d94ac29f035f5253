/**
 * How a hook process that gave no answer is told apart from one that answered, and what failing open or closed
 * decides. Shared by every dialect: only what an exit code means differs between agents, not what a crash is.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookNote } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, WireHookInfo } from './dialect.js';

/** Why a process gave no usable answer. */
export interface ProcessFailure {
  /** The note code: `spawn-error`, `timeout`, `output-overflow`, `signal`, `aborted`, `exit-code`, `invalid-output`, … */
  readonly code: string;
  /** What happened, as the rest of a sentence that starts with the hook's name ("timed out after 5000 ms"). */
  readonly cause: string;
  /** Details for the note beside the exit code, signal, duration and stderr tail that are always added. */
  readonly data?: Readonly<Record<string, unknown>> | undefined;
}

// Enough of stderr to see the error, little enough for a log line.
const STDERR_TAIL = 2000;

/** The last `max` characters of `text`, marked as cut when they are. */
export function tail(text: string, max = STDERR_TAIL): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

/**
 * The line of `text` that best says what went wrong, shortened for a one-line message: the last line naming an error
 * (`ReferenceError: …`, Python's final `ValueError: …`), else the last non-empty line. Node ends a crash with its
 * version, and Python starts one with `Traceback`: neither says anything.
 */
function lastLine(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^Node\.js v\d/.test(l));
  const line = lines.findLast((l) => /^[\w.]*(Error|Exception)\b/.test(l)) ?? lines[lines.length - 1];
  if (!line) return undefined;
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** `cause`, followed by the last line of stderr when there is one. */
export function withStderr(cause: string, result: ProcessResult): string {
  const line = lastLine(result.stderr);
  return line === undefined ? cause : `${cause}: ${line}`;
}

/**
 * The failure of a run that never reached an exit code of its own choosing: it could not start, timed out, flooded
 * its output, was cancelled or killed — or it exited 127 or 126, which shells and `env` use for "command not found"
 * and "not executable", never to be mistaken for a decision — or it exited 0 with stdout that is not UTF-8
 * (`invalid-output`: what it printed cannot be read as it was written). `undefined` when the process exited with a
 * code the dialect should read.
 */
export function processFailure(result: ProcessResult, hook: WireHookInfo): ProcessFailure | undefined {
  if (result.spawnError !== undefined) {
    const { code, message } = result.spawnError;
    return { code: 'spawn-error', cause: `could not start: ${message}`, data: { spawnError: code } };
  }
  if (result.aborted) return { code: 'aborted', cause: 'was cancelled: the run was aborted' };
  if (result.timedOut) {
    const limit = hook.timeoutMs ?? Math.round(result.durationMs);
    return { code: 'timeout', cause: `timed out after ${limit} ms and was killed` };
  }
  if (result.overflow !== undefined) {
    const limit = hook.maxOutputBytes === undefined ? 'the limit' : `${hook.maxOutputBytes} bytes`;
    const cause = `wrote more than ${limit} to ${result.overflow} and was killed`;
    return { code: 'output-overflow', cause, data: { stream: result.overflow } };
  }
  if (result.signal !== null) return { code: 'signal', cause: withStderr(`was killed by ${result.signal}`, result) };
  if (result.exitCode === null) return { code: 'signal', cause: 'did not exit after it was killed' };
  if (result.exitCode === 127) {
    return { code: 'spawn-error', cause: withStderr('exited with 127: interpreter or command not found', result) };
  }
  if (result.exitCode === 126) {
    return { code: 'spawn-error', cause: withStderr('exited with 126: a command was found but is not executable', result) };
  }
  // An answer whose bytes are not UTF-8 was not written as meant: its text holds U+FFFD where they were. Read as it
  // was decoded, a reason or a rewritten input would silently differ from what the hook printed, valid JSON or not.
  if (result.exitCode === 0 && result.notUtf8?.includes('stdout') === true) {
    return { code: 'invalid-output', cause: 'printed output that is not UTF-8 (bytes that are not UTF-8, even inside valid JSON, are not read as an answer)' };
  }
  return undefined;
}

/**
 * Why a failure refuses the action whatever the hook's fail mode, or `undefined` when the fail mode decides. Failing
 * open means "a broken guard does not stop the work"; it never means "do what the guard was not asked about":
 * - `aborted`: the run was cancelled while the hook ran or waited for a slot. A cancelled run must act on nothing, so
 *   wherever a block means something the action is refused.
 * - `invalid-input`: the event could not be serialised for the hook (nested too deep, a cycle, a BigInt), so the hook
 *   never saw what it guards. Where a block refuses something (a tool call, a permission, a prompt, a result, a
 *   subagent) it is refused; on a Stop gate a block would keep the agent working instead, so the fail mode decides.
 */
function refusal(failure: ProcessFailure, ctx: AnyHookContext, hook: WireHookInfo): string | undefined {
  if (hook.async === true) return undefined;
  const info = HookEvent.info(ctx.event);
  if (!info.canBlock) return undefined;
  if (failure.code === 'aborted') return 'a cancelled run acts on nothing';
  if (failure.code === 'invalid-input' && info.family !== 'stop') return 'what the hook cannot see is refused';
  return undefined;
}

/**
 * What a failure decides: the action goes on, with a warning (fail open, the HOOK.md and Claude Code default), or
 * it is blocked with a reason naming the hook and the cause (fail closed). A cancelled run, and an event the hook
 * could not be sent, are refused whatever the fail mode (see the failure table in docs/failures.md).
 */
export function failureDecision(
  failure: ProcessFailure,
  result: ProcessResult | undefined,
  ctx: AnyHookContext,
  hook: WireHookInfo,
): Decision {
  const refused = hook.failClosed ? undefined : refusal(failure, ctx, hook);
  const verdict = hook.failClosed
    ? 'failing closed, so the action is blocked'
    : refused !== undefined
      ? `${refused}, so the action is blocked`
      : 'failing open, so the action goes on';
  // Causes may end in a sentence of their own (stderr, a loader's message); one full stop is enough.
  const cause = failure.cause.replace(/[.\s]+$/, '');
  const note = {
    level: 'warning' as const,
    hookName: hook.name,
    event: ctx.event,
    code: failure.code,
    message: `Hook '${hook.name}' ${cause}; ${verdict}.`,
    data: {
      ...(result === undefined
        ? {}
        : {
            exitCode: result.exitCode,
            signal: result.signal,
            durationMs: Math.round(result.durationMs),
            ...(result.stderr.length > 0 ? { stderr: tail(result.stderr) } : {}),
          }),
      ...failure.data,
    },
  };
  if (hook.failClosed) {
    return { kind: 'block', reason: `Hook '${hook.name}' ${cause} (it fails closed).`, additionalContext: [], notes: [note] };
  }
  if (refused !== undefined) return { kind: 'block', reason: `Hook '${hook.name}' ${cause} (${refused}).`, additionalContext: [], notes: [note] };
  return { kind: 'proceed', additionalContext: [], notes: [note] };
}

/**
 * What a shell or `grep` writes to stderr when it fails — a syntax error, an unexpected token, `grep: …` — rather than
 * what a script writes when it blocks on purpose. Both exit 2.
 */
const SHELL_OR_GREP_ERROR = /syntax error|unexpected (?:token|end of file|EOF|operator|word|newline)|(?:^|\s|:)grep: |bad substitution/i;

/**
 * The note of an exit 2 whose stderr looks like a shell or `grep` error (`sh: 3: Syntax error: "fi" unexpected`,
 * `grep: Unmatched [`): the exit still blocks — 2 is the protocol's block, whoever chose it — but the user hears that
 * the guard may have crashed instead of deciding (on a Stop gate, such a block keeps the agent working). Empty when
 * stderr reads like a reason.
 */
export function exit2Notes(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): HookNote[] {
  const line = result.stderr.split(/\r?\n/).find((l) => SHELL_OR_GREP_ERROR.test(l));
  if (line === undefined) return [];
  const shown = line.trim().length > 200 ? `${line.trim().slice(0, 200)}…` : line.trim();
  return [
    {
      level: 'warning',
      hookName: hook.name,
      event: ctx.event,
      code: 'exit-2-looks-like-error',
      message:
        `Hook '${hook.name}' exited with code 2, which blocks, but its stderr looks like a shell or grep error rather than a reason (${shown}); ` +
        'if the script failed instead of deciding, fix it: exit 2 always blocks.',
      data: { exitCode: 2, stderr: tail(result.stderr) },
    },
  ];
}

/** How an agent reads exit codes besides "0 answers, 2 blocks". */
export interface ExitCodeRules {
  /** What exit 2 does where the event cannot block: shows stderr to the user (`message`, Claude Code) or nothing. */
  readonly exit2Elsewhere?: 'message' | 'ignore' | undefined;
  /**
   * Whether another failing exit — or a command that cannot start (exit 127 or 126, or no interpreter) — blocks `ctx`
   * even when the hook fails open (Copilot's preToolUse).
   */
  readonly failsClosed?: ((ctx: AnyHookContext) => boolean) | undefined;
}

/**
 * The decision of a run that did not exit 0: a process failure, exit 2 (a block with stderr as the reason, where the
 * event can block), or another exit code (a failure, open or closed). `undefined` for exit 0, whose output the
 * dialect reads.
 */
export function exitCodeDecision(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo, rules: ExitCodeRules = {}): Decision | undefined {
  const failure = processFailure(result, hook);
  if (failure !== undefined) {
    // A guard that could not start (its command or interpreter not found, not executable) failed like any other exit:
    // where the agent fails closed, it denies. A timeout or a kill is not an exit the agent reads.
    const closed = hook.failClosed || (failure.code === 'spawn-error' && rules.failsClosed?.(ctx) === true);
    return failureDecision(failure, result, ctx, { ...hook, failClosed: closed });
  }
  if (result.exitCode === 2) {
    const stderr = result.stderr.trim();
    if (HookEvent.info(ctx.event).canBlock) {
      return { kind: 'block', reason: stderr.length > 0 ? stderr : `blocked by hook '${hook.name}' (exit 2)`, additionalContext: [], notes: exit2Notes(result, ctx, hook) };
    }
    const message = rules.exit2Elsewhere === 'message' && stderr.length > 0 ? stderr : undefined;
    return { kind: 'proceed', additionalContext: [], systemMessage: message, notes: [] };
  }
  if (result.exitCode !== 0) {
    const closed = hook.failClosed || rules.failsClosed?.(ctx) === true;
    const cause = withStderr(`exited with code ${result.exitCode}`, result);
    return failureDecision({ code: 'exit-code', cause }, result, ctx, { ...hook, failClosed: closed });
  }
  return undefined;
}
