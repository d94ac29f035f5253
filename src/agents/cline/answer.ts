/**
 * Cline's CLI's answer to a hook call.
 *
 * Cline reads a hook's stdout only, as `{cancel, errorMessage, contextModification, overrideInput}`, and ignores its
 * exit code: every answer here exits 0, a refusal included. Cline has no per-call refusal: `cancel` is the only answer
 * that keeps a tool call from running, and it ends the whole task with `errorMessage` as the task's error. An
 * `errorMessage` without `cancel` is only added to the model's context, so a refusal never takes that softer form.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { replacedResult, rewrittenArgs, type BridgeAnswer } from '../../dialects/outcome-changes.js';
import { compact, joined, json, nothing } from '../answer-json.js';

/** Ends the task: what Cline does with `cancel`. */
const cancel = (reason: string): BridgeAnswer => json({ cancel: true, errorMessage: reason });

/**
 * A rewritten input in Cline's own shape: for `run_commands`, the shared `command` back into its `commands` list (one
 * command, the lines of which the shell runs in turn) when a hook changed it, and dropped when not.
 */
function clineInput(ctx: AnyHookContext, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!('toolCall' in ctx) || ctx.toolCall.name !== 'run_commands') return { ...args };
  const { command, ...rest } = args;
  const before = ctx.toolCall.args['command'];
  return typeof command === 'string' && command !== before ? { ...rest, commands: [command] } : rest;
}

/**
 * Cline's answer for `outcome` on `ctx`.
 *
 * - A block, a stop or an ask (which a hook cannot hold for the user in Cline) is `cancel` with the reason: the call
 *   does not run, and the task ends.
 * - A PostToolUse hook that replaced the tool's result is `cancel` too: Cline cannot take a replaced result, and the
 *   result the hook withheld must not reach the model.
 * - Added context is `contextModification`; a rewritten tool input `overrideInput`, in Cline's own shape.
 * - Stop (`agent_end`) and the events after it: Cline runs those hooks detached and reads nothing.
 *
 * @internal
 */
export function clineAnswer(outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer {
  if (outcome.type !== 'proceed') return cancel(outcome.reason ?? `${ctx.event} was refused by a hook`);
  if (replacedResult(outcome, ctx) !== undefined) {
    return cancel('A hook replaced the tool’s result, which Cline cannot take: the task is ended so that the original result does not reach the model.');
  }
  const args = ctx.event === 'PreToolUse' ? rewrittenArgs(outcome, ctx) : undefined;
  const body = compact({
    contextModification: joined(outcome.additionalContext),
    overrideInput: args === undefined ? undefined : clineInput(ctx, args),
  });
  return Object.keys(body).length === 0 ? nothing : json(body);
}
