/**
 * A Copilot CLI permissionRequest hook's answer, as Copilot CLI 1.0.102 reads it under either event name.
 *
 * @module
 */
import type { AnyHookContext } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, WireHookInfo } from './dialect.js';
import { exitCodeDecision, processFailure } from './failure.js';
import { OutputReader, PROCEED, parseJsonObject } from './wire-output.js';

/** What Copilot tells the model after `Permission denied by a PermissionRequest hook: ` when the hook gave no message. */
const DENIED = 'Permission denied by hook.';
/** What it tells the model when the hook failed (exit 1, a command not found). */
const FAILED = 'Permission request hook failed';

/** The fields Copilot reads on preToolUse or from Claude Code, which it does not read on permissionRequest. */
const NOT_READ = ['permissionDecision', 'permissionDecisionReason', 'modifiedArgs', 'updatedInput', 'hookSpecificOutput', 'decision'];

/**
 * A denial by a failing exit, as Copilot CLI words it: `reason` is what the model is told; the hook's stderr, which
 * Copilot only logs, is kept for the user in an information note. Both of its dialects use it, on preToolUse and on
 * permissionRequest.
 *
 * @internal
 */
export function copilotDenialByExit(decision: Decision, result: ProcessResult, hook: WireHookInfo, event: 'PreToolUse' | 'PermissionRequest', reason: string): Decision {
  const stderr = result.stderr.trim();
  const denied = event === 'PreToolUse' ? 'the call' : 'the permission';
  const note = {
    level: 'info' as const,
    hookName: hook.name,
    event,
    code: 'stderr-not-for-model',
    message: `Hook '${hook.name}' denied ${denied}; as in Copilot CLI, the model is told "${reason}", not the hook's stderr (${stderr.slice(0, 200)}).`,
    data: { exitCode: result.exitCode },
  };
  return { ...decision, reason, notes: [...(decision.notes ?? []), ...(stderr === '' ? [] : [note])] };
}

/**
 * Copilot CLI 1.0.102's permissionRequest answer: flat `behavior` (`allow` | `deny`), `message` (the reason the model
 * is told) and `interrupt` (`true` with a deny ends the run). Copilot reads nothing else there — not
 * `permissionDecision`, not Claude Code's `hookSpecificOutput.decision`, and no new arguments — so each is ignored
 * with a warning, and the call goes on as in Copilot. Exit 2 denies, and so does any other failing exit or a command
 * that cannot start (Copilot fails closed there); the model is told Copilot's words, not the hook's stderr.
 *
 * @internal
 */
export function interpretCopilotPermission(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const exit = exitCodeDecision(result, ctx, hook, { failsClosed: () => true });
  if (exit !== undefined) {
    if (exit.kind !== 'block') return exit;
    const exit2 = result.exitCode === 2 && processFailure(result, hook) === undefined;
    return copilotDenialByExit(exit, result, hook, 'PermissionRequest', exit2 ? DENIED : FAILED);
  }
  const text = result.stdout.trim();
  if (text.length === 0) return PROCEED;
  const parsed = parseJsonObject(text, result, ctx, hook);
  if (!parsed.ok) return parsed.decision;
  const output = parsed.output;
  const r = new OutputReader(hook, ctx);
  for (const field of NOT_READ) {
    if (output[field] !== undefined) r.ignored(field, 'on permissionRequest, where Copilot CLI reads only behavior, message and interrupt (the call goes on as if it were not there)');
  }
  const behavior = r.choice(output, 'behavior', ['allow', 'deny'] as const);
  const message = r.text(output, 'message');
  const extras = { additionalContext: [], notes: r.notes };
  if (behavior === 'deny') {
    const reason = message ?? DENIED;
    return r.bool(output, 'interrupt') === true ? { kind: 'stop', reason, ...extras } : { kind: 'block', reason, ...extras };
  }
  return { kind: 'proceed', granted: behavior === 'allow', ...extras };
}
