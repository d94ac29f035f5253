/**
 * GitHub Copilot CLI's answer to a hook call.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { replacedResult, rewrittenArgs, type BridgeAnswer } from '../../dialects/outcome-changes.js';
import { compact, joined, json, nothing } from '../answer-json.js';

/**
 * Copilot's camelCase answer; exit 2 with the reason on stderr where it reads nothing else.
 *
 * @internal
 */
export function copilotAnswer(outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer {
  const additionalContext = joined(outcome.additionalContext);
  if (outcome.type === 'stop') {
    // Copilot has no "stop everything" answer; a deny (or a block of the stop gate) is the nearest it honours.
    return { exitCode: 2, stdout: '', stderr: `${outcome.reason ?? 'stopped by a hook'}\n` };
  }
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest': {
      const decision = outcome.type === 'block' ? 'deny' : outcome.type === 'ask' ? 'ask' : outcome.granted ? 'allow' : undefined;
      const body = compact({
        permissionDecision: decision,
        permissionDecisionReason: decision === 'deny' || decision === 'ask' ? outcome.reason : undefined,
        modifiedArgs: rewrittenArgs(outcome, ctx),
        additionalContext,
      });
      return Object.keys(body).length === 0 ? nothing : json(body);
    }
    case 'Stop':
    case 'SubagentStop':
      return outcome.type === 'block' ? json({ decision: 'block', reason: outcome.reason }) : nothing;
    case 'PostToolUse': {
      const result = replacedResult(outcome, ctx);
      if (outcome.type === 'block') return { exitCode: 2, stdout: '', stderr: `${outcome.reason ?? 'rejected by a hook'}\n` };
      const body = compact({ ...(result !== undefined ? { modifiedResult: result.value } : {}), additionalContext });
      return Object.keys(body).length === 0 ? nothing : json(body);
    }
    default:
      if (outcome.type === 'block') return { exitCode: 2, stdout: '', stderr: `${outcome.reason ?? 'blocked by a hook'}\n` };
      return additionalContext === undefined ? nothing : json({ additionalContext });
  }
}
