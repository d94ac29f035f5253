/**
 * Gemini CLI's answer to a hook call.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { geminiModelAnswer } from '../../dialects/gemini-model-answer.js';
import { rewrittenArgs, type BridgeAnswer } from '../../dialects/outcome-changes.js';
import { compact, joined, json, nothing } from '../answer-json.js';

/**
 * Gemini CLI's answer: a block (or an ask, which it cannot hold) is `decision: "deny"`; its model events are answered
 * by `geminiModelAnswer`.
 *
 * @internal
 */
export function geminiAnswer(outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer {
  const systemMessage = outcome.systemMessage;
  if (ctx.event === 'BeforeModel' || ctx.event === 'BeforeToolSelection' || ctx.event === 'AfterModel') {
    const body = geminiModelAnswer(outcome, ctx, eventName);
    return body === undefined ? nothing : json(body);
  }
  if (outcome.type === 'stop') return json(compact({ continue: false, stopReason: outcome.reason, systemMessage }));
  const args = rewrittenArgs(outcome, ctx);
  const decision = outcome.type === 'block' || outcome.type === 'ask' ? 'deny' : outcome.granted ? 'allow' : undefined;
  const specific = compact({ hookEventName: eventName, additionalContext: joined(outcome.additionalContext), tool_input: args });
  const body = compact({
    decision,
    reason: decision === 'deny' ? outcome.reason : undefined,
    systemMessage,
    hookSpecificOutput: Object.keys(specific).length > 1 ? specific : undefined,
  });
  return Object.keys(body).length === 0 ? nothing : json(body);
}
