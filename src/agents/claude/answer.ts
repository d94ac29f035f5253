/**
 * Claude Code's answer to a hook call — and VS Code's, which reads the same fields.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { claudeBlockingFeedbackOf } from '../../dialects/claude-blocking-feedback.js';
import { CLAUDE_SPECIFIC_FIELDS } from '../../dialects/claude.js';
import { claudeOwnOutput } from '../../dialects/claude-tool-output.js';
import { replacedResult, rewrittenArgs, type BridgeAnswer } from '../../dialects/outcome-changes.js';
import { compact, joined, json, nothing } from '../answer-json.js';

/**
 * A replaced result as Claude Code 2.1.332 takes it in `updatedToolOutput`: for Bash and Read, only the tool's own
 * output object (a string it ignores), so text goes into that object, its other fields kept from the output Claude Code
 * sent; any other tool's as it is.
 */
function claudeToolOutput(ctx: AnyHookContext, value: unknown): unknown {
  if (ctx.event !== 'PostToolUse' || typeof value !== 'string') return value;
  const own = claudeOwnOutput(ctx.toolCall.name);
  return own === undefined ? value : own.object(value, ctx.execution?.result);
}

/**
 * Claude Code's answer for `outcome` (VS Code's, with `vscode`).
 *
 * @internal
 */
export function claudeShapedAnswer(outcome: HookOutcome, ctx: AnyHookContext, eventName: string, vscode: boolean): BridgeAnswer {
  const systemMessage = outcome.systemMessage;
  const additionalContext = joined(outcome.additionalContext);
  if (outcome.type === 'stop') {
    // On a permission request Claude Code's own way to stop is a deny that interrupts: the call is refused too.
    const interrupt = ctx.event === 'PermissionRequest' && !vscode ? { hookEventName: eventName, decision: { behavior: 'deny', message: outcome.reason, interrupt: true } } : undefined;
    return json(compact({ continue: false, stopReason: outcome.reason, systemMessage, hookSpecificOutput: interrupt }));
  }
  const tool = ctx.event === 'PreToolUse' || ctx.event === 'PermissionRequest';
  if (tool) {
    const args = rewrittenArgs(outcome, ctx);
    // A deferred ask goes back as Claude Code's defer (headless, it ends the session with the tool not run).
    const decision =
      outcome.type === 'block' ? 'deny' : outcome.type === 'ask' ? (outcome.deferred && !vscode && ctx.event === 'PreToolUse' ? 'defer' : 'ask') : outcome.granted ? 'allow' : undefined;
    if (ctx.event === 'PermissionRequest' && !vscode) {
      const behavior = decision === 'deny' ? 'deny' : decision === 'allow' ? 'allow' : undefined;
      const specific = compact({
        hookEventName: eventName,
        decision:
          behavior === undefined
            ? undefined
            : compact({
                behavior,
                message: behavior === 'deny' ? outcome.reason : undefined,
                updatedInput: args,
                // Permission updates a Claude Code hook granted with the call go back for Claude Code to apply.
                updatedPermissions: behavior === 'allow' && outcome.context?.event === 'PermissionRequest' ? outcome.context.updatedPermissions : undefined,
              }),
        additionalContext,
      });
      return Object.keys(specific).length > 1 || systemMessage ? json(compact({ systemMessage, hookSpecificOutput: specific })) : nothing;
    }
    const specific = compact({
      hookEventName: eventName,
      permissionDecision: decision,
      permissionDecisionReason: decision === 'deny' || decision === 'ask' || decision === 'defer' ? outcome.reason : undefined,
      updatedInput: args,
      additionalContext,
    });
    return Object.keys(specific).length > 1 || systemMessage ? json(compact({ systemMessage, hookSpecificOutput: specific })) : nothing;
  }
  const result = replacedResult(outcome, ctx);
  // Claude Code reads each field on its own events only, and refuses a whole answer whose event takes no
  // hookSpecificOutput; on Stop its additionalContext would keep the agent working, which a proceed here does not.
  const reads = (field: string): boolean =>
    vscode || ((CLAUDE_SPECIFIC_FIELDS[ctx.event] ?? []).includes(field) && !(field === 'additionalContext' && (ctx.event === 'Stop' || ctx.event === 'SubagentStop')));
  const retry = outcome.context?.event === 'PermissionDenied' && outcome.context.retry;
  // A Claude-dialect hook's PostToolUse block goes back to Claude Code as a block: it then gives the model the reason
  // as that hook's blocking error, as it does for its own hooks, and not as additional context around our wording.
  const feedback = vscode || outcome.type !== 'proceed' ? [] : claudeBlockingFeedbackOf(outcome.context);
  const worded = new Set(feedback.map((f) => f.text));
  const context = feedback.length === 0 ? additionalContext : joined(outcome.additionalContext.filter((text) => !worded.has(text)));
  const specific = compact({
    hookEventName: eventName,
    additionalContext: reads('additionalContext') ? context : undefined,
    // Claude Code reads updatedToolOutput for every tool (updatedMCPToolOutput for MCP tools only); VS Code the latter.
    ...(result !== undefined ? { [vscode ? 'updatedMCPToolOutput' : 'updatedToolOutput']: vscode ? result.value : claudeToolOutput(ctx, result.value) } : {}),
    retry: retry && reads('retry') ? true : undefined,
  });
  const block =
    outcome.type === 'block' ? { decision: 'block', reason: outcome.reason } : feedback.length > 0 ? { decision: 'block', reason: feedback.map((f) => f.reason).join('\n') } : {};
  const body = compact({ ...block, systemMessage, hookSpecificOutput: Object.keys(specific).length > 1 ? specific : undefined });
  return Object.keys(body).length === 0 ? nothing : json(body);
}

/**
 * Claude Code's answer.
 *
 * @internal
 */
export const claudeAnswer = (outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer => claudeShapedAnswer(outcome, ctx, eventName, false);
