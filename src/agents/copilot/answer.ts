/**
 * GitHub Copilot CLI's answer to a hook call.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { replacedResult, rewrittenArgs, type BridgeAnswer } from '../../dialects/outcome-changes.js';
import { compact, joined, json, nothing } from '../answer-json.js';

/** A replaced tool result as Copilot CLI reads `modifiedResult`: its `ToolResultObject`, the text for the model. */
function copilotResult(value: unknown): { textResultForLlm: string; resultType: 'success' } {
  return { textResultForLlm: typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), resultType: 'success' };
}

/**
 * Copilot's camelCase answer; exit 2 with the reason on stderr where it reads nothing else (Copilot CLI 1.0.102 only
 * logs it outside preToolUse: a userPromptSubmitted block refuses nothing there).
 *
 * @internal
 */
export function copilotAnswer(outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer {
  const additionalContext = joined(outcome.additionalContext);
  // Copilot has no "stop everything" answer but permissionRequest's interrupt; elsewhere a deny (or a block of the stop
  // gate) is the nearest it honours, written as it reads one on each event (it only logs an exit 2 outside preToolUse).
  const blocked = outcome.type === 'block' || outcome.type === 'stop';
  const reason = outcome.type === 'stop' ? (outcome.reason ?? 'stopped by a hook') : outcome.reason;
  switch (ctx.event) {
    case 'PermissionRequest':
      // Copilot CLI 1.0.102 reads `behavior`, `message` and `interrupt` here, and nothing else: no ask, no new arguments
      // (an ask falls through to Copilot's own permission rules, as an answer without `behavior` does).
      if (blocked) return json(compact({ behavior: 'deny', message: reason, interrupt: outcome.type === 'stop' ? true : undefined }));
      return outcome.type !== 'ask' && outcome.granted ? json({ behavior: 'allow' }) : nothing;
    case 'PreToolUse': {
      const decision = blocked ? 'deny' : outcome.type === 'ask' ? 'ask' : outcome.granted ? 'allow' : undefined;
      const body = compact({
        permissionDecision: decision,
        permissionDecisionReason: decision === 'deny' || decision === 'ask' ? reason : undefined,
        modifiedArgs: rewrittenArgs(outcome, ctx),
        additionalContext,
      });
      return Object.keys(body).length === 0 ? nothing : json(body);
    }
    case 'Stop':
    case 'SubagentStop':
      return blocked ? json({ decision: 'block', reason }) : nothing;
    case 'PostToolUse': {
      const result = replacedResult(outcome, ctx);
      // Copilot CLI only logs an exit 2 here: a block's reason takes the output's place for the model instead.
      if (blocked) return json(compact({ modifiedResult: copilotResult(reason ?? 'rejected by a hook'), additionalContext }));
      // Copilot CLI applies a result object only (a bare string leaves the output as it was).
      const body = compact({ ...(result !== undefined ? { modifiedResult: copilotResult(result.value) } : {}), additionalContext });
      return Object.keys(body).length === 0 ? nothing : json(body);
    }
    default:
      if (blocked) return { exitCode: 2, stdout: '', stderr: `${reason ?? 'blocked by a hook'}\n` };
      return additionalContext === undefined ? nothing : json({ additionalContext });
  }
}
