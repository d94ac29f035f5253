/**
 * What a merged outcome changed in the context it was dispatched with — the parts an agent's answer must carry back:
 * a rewritten tool input, a replaced tool result. Every answer writer (the bridge's, each agent's) reads them here.
 *
 * @module
 */
import type { AnyHookContext, HookOutcome } from '../core/index.js';

/** What a hook process answers: its exit code, stdout and stderr. */
export interface BridgeAnswer {
  /** The exit code (0, or 2 where only exit 2 blocks). */
  readonly exitCode: number;
  /** The JSON answer, or empty. */
  readonly stdout: string;
  /** A reason for a block by exit code, or empty. */
  readonly stderr: string;
}

/** The tool arguments the outcome's context carries, when a hook rewrote them. */
export function rewrittenArgs(outcome: HookOutcome, ctx: AnyHookContext): Readonly<Record<string, unknown>> | undefined {
  const next = outcome.context;
  if (next === undefined || !('toolCall' in next) || !('toolCall' in ctx)) return undefined;
  return next.toolCall.args === ctx.toolCall.args ? undefined : next.toolCall.args;
}

/** The tool result the outcome's context carries, when a PostToolUse hook replaced it. */
export function replacedResult(outcome: HookOutcome, ctx: AnyHookContext): { readonly value: unknown } | undefined {
  const next = outcome.context;
  if (next === undefined || ctx.event !== 'PostToolUse' || next.event !== 'PostToolUse') return undefined;
  const after = next.execution?.result;
  return after === ctx.execution?.result ? undefined : { value: after };
}
