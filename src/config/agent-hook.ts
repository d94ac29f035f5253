/**
 * Claude Code's `type: "agent"` hooks: a bounded verification by a language model, which answers whether a condition
 * holds.
 *
 * @module
 */
import { HookEvent, HookOutcome, type AnyHookContext, type HookEventName, type HookMatcher, type HookScope, type NextFn } from '../core/index.js';
import { continueChain } from '../core/internal/continue-chain.js';
import { messageOf } from '../core/internal/message-of.js';
import type { CommandHookOrigin } from '../script/command-hook.js';
import { claudeDialect } from '../dialects/claude.js';
import type { ConfigHook, VerifyFn, VerifyVerdict } from './config-source.js';
import { raceAbort, withArguments } from './prompt-hook.js';

/**
 * Claude Code 2.1.330's bound on an agent hook's turns: a verifier that has given no verdict after this many model
 * answers decides nothing.
 *
 * @internal
 */
export const CLAUDE_AGENT_HOOK_MAX_TURNS = 50;

/**
 * Claude Code's default timeout for agent hooks, in milliseconds.
 *
 * @internal
 */
export const CLAUDE_AGENT_HOOK_TIMEOUT_MS = 60_000;

/** What an {@link AgentHook} is built from. */
export interface AgentHookSpec {
  /** The hook's name. */
  readonly name: string;
  /** What to verify; `$ARGUMENTS` is replaced by the event's JSON (which is appended when the prompt has no placeholder). */
  readonly prompt: string;
  /** The one event it runs for. */
  readonly event: HookEventName;
  /** Which contexts it applies to. */
  readonly matcher: HookMatcher | undefined;
  /** Runs the verification. */
  readonly verify: VerifyFn;
  /** Milliseconds before the verification is given up on (the action then goes on, with a warning). */
  readonly timeoutMs: number;
  /** At most this many model calls (default 50, Claude Code's bound). */
  readonly maxTurns?: number | undefined;
  /** Higher runs first (default 100). */
  readonly priority?: number | undefined;
  /** The project directory, sent as `cwd`. */
  readonly projectDir: string;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
}

/**
 * The verifier's instructions: Claude Code's own, less what an agent here cannot give it (a transcript to read, tools
 * to inspect the codebase with).
 */
function instructions(event: HookEventName): string {
  const task =
    event === 'Stop' || event === 'SubagentStop'
      ? 'You are verifying a stop condition of an AI agent. Your task is to verify that the agent completed the given plan.'
      : `You are evaluating a ${claudeDialect.eventName(event)} hook of an AI agent. Your task is to evaluate the condition described in the user message.`;
  return [
    task,
    'The event you are judging is in the user message, as JSON; you have no tools to inspect anything else.',
    'Use as few steps as possible - be efficient and direct.',
    'When done, return your result using the StructuredOutput tool, always with a reason: {"ok": true} when the condition is met, {"ok": false, "reason": "…"} when it is not.',
  ].join('\n');
}

/**
 * A hook that has a language model (the agent's own, through a {@link VerifyFn}) verify a condition of the event, in a
 * few turns bounded in number (50) and time, as Claude Code's agent hooks do. The
 * model gets the event (the hook's prompt with `$ARGUMENTS` filled) and no tools but the one it answers with:
 * `{ "ok": false, "reason": … }` blocks with `Agent hook condition was not met: <reason>` — on Stop that keeps the agent
 * working, on PreToolUse it refuses the call. `{ "ok": true }` lets the action go on; so does a verifier that gives no
 * verdict, fails or times out, with a warning.
 */
export class AgentHook implements ConfigHook {
  /** The hook's name. */
  readonly name: string;
  /** The one event it runs for. */
  readonly events: readonly HookEventName[];
  /** Which contexts it applies to. */
  readonly matcher: HookMatcher | undefined;
  /** The priority to register it at. */
  readonly priority: number;
  /** Milliseconds before the verification is given up on. */
  readonly timeoutMs: number;
  /** At most this many model calls. */
  readonly maxTurns: number;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
  /** The prompt as written. */
  readonly prompt: string;
  private readonly spec: AgentHookSpec;

  constructor(spec: AgentHookSpec) {
    this.spec = spec;
    this.name = spec.name;
    this.events = Object.freeze([spec.event]);
    this.matcher = spec.matcher;
    this.priority = spec.priority ?? 100;
    this.timeoutMs = spec.timeoutMs;
    this.maxTurns = spec.maxTurns ?? CLAUDE_AGENT_HOOK_MAX_TURNS;
    this.origin = spec.origin;
    this.prompt = spec.prompt;
  }

  /** Runs the verification and turns its verdict into the outcome. */
  async handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): Promise<HookOutcome> {
    const verdict = await this.verify(ctx, scope);
    const outcome =
      verdict !== undefined && !verdict.ok
        ? HookOutcome.block(`Agent hook condition was not met: ${verdict.reason ?? `refused by agent hook '${this.name}'`}`)
        : HookOutcome.proceed();
    return continueChain(outcome, ctx, next);
  }

  private async verify(ctx: AnyHookContext, scope: HookScope): Promise<VerifyVerdict | undefined> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = scope.signal === undefined ? timeout : AbortSignal.any([scope.signal, timeout]);
    const warn = (code: string, message: string): undefined => {
      scope.report({ level: 'warning', hookName: this.name, event: ctx.event, code, message });
      return undefined;
    };
    const info = HookEvent.info(ctx.event);
    // As for prompt hooks: neither a cancelled run nor an input the model could not be shown lets a refusable action on.
    const refuse = (code: string, cause: string): VerifyVerdict => {
      const reason = `agent hook '${this.name}' ${cause}, so the action is refused`;
      warn(code, `Agent hook '${this.name}' ${cause}, so the action is refused.`);
      return { ok: false, reason };
    };
    let prompt: string;
    try {
      prompt = withArguments(this.prompt, ctx, this.spec.projectDir, this.name);
    } catch (error) {
      if (info.canBlock && info.family !== 'stop') return refuse('invalid-input', `could not be sent the event as JSON: ${messageOf(error)}`);
      return warn('invalid-input', `Agent hook '${this.name}' could not be sent the event as JSON: ${messageOf(error)}; failing open, so the action goes on.`);
    }
    let verdict: VerifyVerdict | undefined;
    try {
      verdict = await raceAbort(this.spec.verify({ system: instructions(ctx.event), prompt, maxTurns: this.maxTurns }, signal), signal);
    } catch (error) {
      if (scope.signal?.aborted === true && info.canBlock) return refuse('aborted', 'was cancelled: the run was aborted');
      if (timeout.aborted) return warn('timeout', `Agent hook '${this.name}' gave no verdict within ${this.timeoutMs} ms; failing open, so the action goes on.`);
      return warn('judge-error', `Agent hook '${this.name}' could not run its verification (${messageOf(error)}); failing open, so the action goes on.`);
    }
    if (verdict === undefined) {
      return warn('no-verdict', `Agent hook '${this.name}' gave no verdict within ${this.maxTurns} turns; the action goes on, as in Claude Code.`);
    }
    return verdict;
  }
}
