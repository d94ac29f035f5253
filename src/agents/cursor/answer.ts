/**
 * Cursor's answer to a hook call.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { rewrittenArgs, type BridgeAnswer } from '../../dialects/outcome-changes.js';
import { compact, json, nothing } from '../answer-json.js';

/**
 * Cursor's answer: `permission`, `user_message`, `agent_message`, `updated_input`; a stop gate's block is a
 * `followup_message`.
 *
 * @internal
 */
export function cursorAnswer(outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer {
  const userMessage = outcome.systemMessage;
  if (ctx.event === 'Stop' || ctx.event === 'SubagentStop') {
    return outcome.type === 'block' ? json({ followup_message: outcome.reason }) : nothing;
  }
  if (outcome.type === 'stop' || (outcome.type === 'block' && ctx.event === 'UserPromptSubmit')) {
    return json(compact({ continue: false, user_message: userMessage ?? outcome.reason, agent_message: outcome.reason }));
  }
  const tool = ctx.event === 'PreToolUse' || ctx.event === 'PermissionRequest';
  // Only a tool call can wait for approval; elsewhere an ask has nothing to say.
  const permission =
    outcome.type === 'block' ? 'deny' : outcome.type === 'ask' ? (tool ? 'ask' : undefined) : outcome.granted && tool ? 'allow' : undefined;
  const body = compact({
    permission: permission ?? (rewrittenArgs(outcome, ctx) !== undefined ? 'allow' : undefined),
    user_message: userMessage,
    agent_message: permission === 'deny' || permission === 'ask' ? outcome.reason : undefined,
    updated_input: rewrittenArgs(outcome, ctx),
  });
  return Object.keys(body).length === 0 ? nothing : json(body);
}
