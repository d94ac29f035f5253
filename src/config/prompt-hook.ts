/**
 * Claude Code's `type: "prompt"` hooks: a language model judges the event and answers whether the action may go on.
 *
 * @module
 */
import {
  HookEvent,
  HookOutcome,
  type AnyHookContext,
  type HookEventName,
  type HookMatcher,
  type HookScope,
  type NextFn,
} from '../core/index.js';
import { continueChain } from '../core/internal/continue-chain.js';
import { jsonDepthProblem } from '../core/internal/json-depth.js';
import { messageOf } from '../core/internal/message-of.js';
import type { CommandHookOrigin } from '../script/command-hook.js';
import { claudeDialect } from '../dialects/claude.js';
import { claudeStopFeedback, wordsStopFeedback } from '../dialects/claude-stop-feedback.js';
import { isRecord } from '../dialects/wire-output.js';
import type { ConfigHook, JudgeFn } from './config-source.js';

/** What a {@link PromptHook} is built from. */
export interface PromptHookSpec {
  /** The hook's name. */
  readonly name: string;
  /** The prompt; `$ARGUMENTS` is replaced by the event's JSON (which is appended when the prompt has no placeholder). */
  readonly prompt: string;
  /** The one event it runs for. */
  readonly event: HookEventName;
  /** Which contexts it applies to. */
  readonly matcher: HookMatcher | undefined;
  /** Asks the model. */
  readonly judge: JudgeFn;
  /** Milliseconds before the model's answer is given up on (the action then goes on, with a warning). */
  readonly timeoutMs: number;
  /** Higher runs first (default 100). */
  readonly priority?: number | undefined;
  /** The project directory, sent as `cwd`. */
  readonly projectDir: string;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
  /**
   * Claude Code's `continueOnBlock`: whether a refusal lets the turn go on, on PreToolUse and PostToolUse. Without it
   * (the default) `{"ok": false}` there ends the run, as it ends Claude Code 2.1.332's turn; with it, PreToolUse refuses
   * the call and PostToolUse gives the reason beside the kept result, as Claude Code's blocking error.
   */
  readonly continueOnBlock?: boolean | undefined;
}

/** The events whose refusal ends the turn unless the hook says `continueOnBlock` (checked with Claude Code 2.1.332). */
const ENDS_THE_TURN: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PostToolUse']);

/**
 * The model's verdict: Claude Code's `{ "ok": false, "reason": … }`, or the older `{ "decision": "block", … }`.
 *
 * @internal
 */
export interface PromptVerdict {
  /** Whether the action may go on. */
  readonly ok: boolean;
  /** Why not, for the agent. */
  readonly reason: string | undefined;
  /** Set when the hook refused because it could not ask (a cancelled run, an input it could not send), not the model. */
  readonly failed?: boolean | undefined;
}

/**
 * The first JSON object in a model's answer (models like to wrap JSON in prose or a code fence).
 *
 * @internal
 */
export function readVerdict(text: string): PromptVerdict | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const reason = typeof value.reason === 'string' && value.reason.trim() !== '' ? value.reason : undefined;
  if (typeof value.ok === 'boolean') return { ok: value.ok, reason };
  if (value.decision === 'block' || value.decision === 'deny') return { ok: false, reason };
  if (value.decision === 'approve' || value.decision === 'allow') return { ok: true, reason };
  return undefined;
}

const ANSWER_FORMAT =
  '\n\nAnswer with JSON only: {"ok": true} to let this go on, or {"ok": false, "reason": "why, for the agent"} to refuse it.';

/**
 * A hook that asks a model (the agent's own, through a {@link JudgeFn}) to judge the event. `{ "ok": false }` blocks
 * with the model's reason — on Stop that keeps the agent working. On PreToolUse and PostToolUse it ends the run, as it
 * ends Claude Code's turn, unless the hook says `continueOnBlock` (see {@link PromptHookSpec.continueOnBlock}). A model
 * that fails, times out or answers something unreadable lets the action go on, with a warning note.
 */
export class PromptHook implements ConfigHook {
  /** The hook's name. */
  readonly name: string;
  /** The one event it runs for. */
  readonly events: readonly HookEventName[];
  /** Which contexts it applies to. */
  readonly matcher: HookMatcher | undefined;
  /** The priority to register it at. */
  readonly priority: number;
  /** Milliseconds before the answer is given up on. */
  readonly timeoutMs: number;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
  /** The prompt as written. */
  readonly prompt: string;
  private readonly spec: PromptHookSpec;

  constructor(spec: PromptHookSpec) {
    this.spec = spec;
    this.name = spec.name;
    this.events = Object.freeze([spec.event]);
    this.matcher = spec.matcher;
    this.priority = spec.priority ?? 100;
    this.timeoutMs = spec.timeoutMs;
    this.origin = spec.origin;
    this.prompt = spec.prompt;
  }

  /**
   * The prompt for `ctx`: `$ARGUMENTS` replaced by the event as Claude Code would send it to a command hook.
   *
   * @throws RangeError when the event nests objects or arrays more than 256 levels deep (or in a cycle).
   */
  promptFor(ctx: AnyHookContext): string {
    return withArguments(this.prompt, ctx, this.spec.projectDir, this.name) + ANSWER_FORMAT;
  }

  /** Asks the model and turns its verdict into the outcome. */
  async handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): Promise<HookOutcome> {
    const verdict = await this.ask(ctx, scope);
    if (verdict === undefined || verdict.ok) return continueChain(HookOutcome.proceed(), ctx, next);
    const reason = verdict.reason ?? `Refused by prompt hook '${this.name}'.`;
    // On Stop, Claude Code 2.1.332 keeps the agent working, continueOnBlock or not, and words the feedback its own way.
    if (verdict.failed !== true && wordsStopFeedback(ctx)) return continueChain(HookOutcome.block(claudeStopFeedback(`[${this.prompt}]: ${reason}`)), ctx, next);
    if (verdict.failed === true || !ENDS_THE_TURN.has(ctx.event)) return continueChain(HookOutcome.block(reason), ctx, next);
    if (this.spec.continueOnBlock !== true) return HookOutcome.stop(reason);
    if (ctx.event !== 'PostToolUse') return continueChain(HookOutcome.block(reason), ctx, next);
    // The tool has run: the result stays, and the reason goes beside it, in Claude Code 2.1.332's words.
    const feedback = `PostToolUse:${ctx.toolCall.name} hook blocking error from command: "${this.prompt}": [${this.prompt}]: ${reason}`;
    return continueChain(HookOutcome.proceed(undefined, { additionalContext: feedback }), ctx, next);
  }

  private async ask(ctx: AnyHookContext, scope: HookScope): Promise<PromptVerdict | undefined> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = scope.signal === undefined ? timeout : AbortSignal.any([scope.signal, timeout]);
    const warn = (code: string, message: string, data?: Record<string, unknown>): undefined => {
      scope.report({ level: 'warning', hookName: this.name, event: ctx.event, code, message, ...(data ? { data } : {}) });
      return undefined;
    };
    // As for script hooks: neither a cancelled run nor an input the model could not be shown lets a refusable action on.
    const info = HookEvent.info(ctx.event);
    const refuse = (code: string, cause: string): PromptVerdict => {
      const reason = `Prompt hook '${this.name}' ${cause}, so the action is refused.`;
      warn(code, reason);
      return { ok: false, reason, failed: true };
    };
    let prompt: string;
    try {
      prompt = this.promptFor(ctx);
    } catch (error) {
      if (info.canBlock && info.family !== 'stop') return refuse('invalid-input', `could not be sent the event as JSON: ${messageOf(error)}`);
      return warn('invalid-input', `Prompt hook '${this.name}' could not be sent the event as JSON: ${messageOf(error)}; failing open, so the action goes on.`);
    }
    let answer: string;
    try {
      answer = await raceAbort(this.spec.judge(prompt, signal), signal);
    } catch (error) {
      if (scope.signal?.aborted === true && info.canBlock) return refuse('aborted', 'was cancelled: the run was aborted');
      if (timeout.aborted) return warn('timeout', `Prompt hook '${this.name}' got no answer within ${this.timeoutMs} ms; failing open, so the action goes on.`);
      return warn('judge-error', `Prompt hook '${this.name}' could not ask the model (${messageOf(error)}); failing open, so the action goes on.`);
    }
    const verdict = readVerdict(answer);
    if (verdict === undefined) {
      return warn('invalid-output', `Prompt hook '${this.name}': the model's answer has no {"ok": …} JSON; failing open, so the action goes on.`, {
        answer: answer.slice(0, 500),
      });
    }
    return verdict;
  }
}

/**
 * `prompt` with `$ARGUMENTS` replaced by the event `ctx` as Claude Code sends it to a command hook (appended when the
 * prompt has no placeholder): what Claude Code's prompt and agent hooks give their model.
 *
 * @throws RangeError when the event nests objects or arrays more than 256 levels deep (or in a cycle).
 * @internal
 */
export function withArguments(prompt: string, ctx: AnyHookContext, projectDir: string, hookName: string): string {
  const eventName = claudeDialect.eventName(ctx.event);
  // The input is measured before the payload is built from it, the payload before it is serialised: no step recurses
  // as deep as the input goes.
  const args = 'toolCall' in ctx ? jsonDepthProblem(ctx.toolCall.args) : undefined;
  if (args !== undefined) throw new RangeError(args);
  const payload = claudeDialect.payload(ctx, { eventName, workDir: projectDir, hookName });
  const deep = jsonDepthProblem(payload);
  if (deep !== undefined) throw new RangeError(deep);
  const input = JSON.stringify(payload);
  return prompt.includes('$ARGUMENTS') ? prompt.replaceAll('$ARGUMENTS', input) : `${prompt}\n\n${input}`;
}

/**
 * `promise`, or a rejection as soon as `signal` aborts (a judge that ignores its signal cannot stall a dispatch).
 *
 * @internal
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
