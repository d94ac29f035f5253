/**
 * A PostToolUse `{"decision": "block", "reason": …}` from a Claude-dialect hook, kept apart from plain context while
 * the event came from Claude Code itself (through the bridge): the bridge then answers Claude Code with the same
 * block, so Claude Code gives the model the reason as that hook's blocking error, in its own words, and not as
 * "additional context" wrapped around ours.
 *
 * @module
 * @internal
 */
import type { AnyHookContext } from '../core/index.js';

/** The metadata key the blocking feedback of a bridged PostToolUse travels under, to the bridge's answer. */
const KEY = 'agent-hooks.claude.blockingFeedback';

/** One hook's blocking feedback: its reason, and the text the dialect put in the model's context for it. */
export interface ClaudeBlockingFeedback {
  readonly reason: string;
  readonly text: string;
}

/**
 * Whether `ctx` is an event Claude Code sent through the bridge, whose answer can carry the block back.
 *
 * @internal
 */
export const fromClaudeCode = (ctx: AnyHookContext): boolean => ctx.origin?.agent === 'claude';

/**
 * A copy of `ctx` that also carries `feedback`, after what the hooks before it gave.
 *
 * @internal
 */
export function withClaudeBlockingFeedback<C extends AnyHookContext>(ctx: C, feedback: ClaudeBlockingFeedback): C {
  return ctx.withMetadata(KEY, Object.freeze([...claudeBlockingFeedbackOf(ctx), Object.freeze({ ...feedback })])) as C;
}

/**
 * The blocking feedback the hooks gave on `ctx`, in order; none when there is no context or it carries none.
 *
 * @internal
 */
export function claudeBlockingFeedbackOf(ctx: AnyHookContext | undefined): readonly ClaudeBlockingFeedback[] {
  const value = ctx?.metadata[KEY];
  return Array.isArray(value) ? (value as ClaudeBlockingFeedback[]) : [];
}
