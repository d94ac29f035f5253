/**
 * GitHub Copilot's command-hook protocol (CLI and coding agent), for hooks configured under its lowerCamelCase event
 * names. PascalCase names switch Copilot to VS Code's format: see `vscodeDialect`.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { exitCodeDecision } from './failure.js';
import { OutputReader, PROCEED, parseJsonObject } from './wire-output.js';

/**
 * The tool arguments as Copilot CLI 1.0 sends them: an object (its hooks reference once said a JSON string, and the
 * bridge still reads either). Arguments that cannot be serialized are sent as `{}`.
 */
function argsOf(args: unknown): unknown {
  return JSON.parse(JSON.stringify(args) ?? '{}') as unknown;
}

function eventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
      return { toolName: ctx.toolCall.name, toolArgs: argsOf(ctx.toolCall.args) };
    case 'PostToolUse': {
      const result = ctx.execution?.result;
      return {
        toolName: ctx.toolCall.name,
        toolArgs: argsOf(ctx.toolCall.args),
        toolResult: { resultType: 'success', textResultForLlm: typeof result === 'string' ? result : (JSON.stringify(result) ?? '') },
      };
    }
    case 'PostToolUseFailure':
      return {
        toolName: ctx.toolCall.name,
        toolArgs: argsOf(ctx.toolCall.args),
        toolResult: { resultType: 'failure', textResultForLlm: ctx.errorMessage ?? '' },
      };
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'SessionStart':
      return { source: ctx.source === 'startup' ? 'new' : ctx.source };
    case 'SessionEnd':
      // Copilot CLI ends a session that closed normally with `complete` (one that failed, with `error`).
      return { reason: ctx.reason === undefined || ctx.reason === 'close' ? 'complete' : ctx.reason };
    case 'Stop':
    case 'SubagentStop':
      return {
        // Copilot's name for a turn the model ended, which is our no_tool_calls; any other reason as we name it.
        stopReason: ctx.event !== 'Stop' ? undefined : ctx.stopReason === 'no_tool_calls' ? 'end_turn' : ctx.stopReason,
        // Copilot CLI 1.0 sends the snake_case name; the camelCase one is what its earlier hooks read.
        stop_hook_active: ctx.stopHookActive,
        stopHookActive: ctx.stopHookActive,
        ...(ctx.subagentName !== undefined ? { agentName: ctx.subagentName } : {}),
        ...(ctx.subagentType !== undefined ? { agentType: ctx.subagentType } : {}),
      };
    case 'SubagentStart':
      return { agentName: ctx.name, agentType: ctx.type };
    case 'PreCompact':
      return { trigger: ctx.trigger };
    case 'AgentFailed':
      return { error: { message: ctx.errorMessage, name: ctx.errorClass } };
    case 'Notification':
      return { message: ctx.message, notificationType: ctx.notificationType };
    default:
      return {};
  }
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  return {
    sessionId: ctx.state.sessionId ?? ctx.state.agentId,
    timestamp: Date.now(),
    cwd: info.workDir,
    ...eventFields(ctx),
  };
}

const PERMISSION = ['allow', 'deny', 'ask'] as const;
const STOP_DECISIONS = ['block', 'allow'] as const;

function interpret(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  // Copilot denies a tool call whose preToolUse hook errored: it fails closed there, and open elsewhere.
  const exit = exitCodeDecision(result, ctx, hook, { failsClosed: (c) => c.event === 'PreToolUse' });
  if (exit !== undefined) return exit;
  const text = result.stdout.trim();
  if (text.length === 0) return PROCEED;
  const parsed = parseJsonObject(text, result, ctx, hook);
  if (!parsed.ok) return parsed.decision;
  const output = parsed.output;
  const r = new OutputReader(hook, ctx);
  const extras = { additionalContext: r.texts(output, 'additionalContext'), notes: r.notes };
  const reason = r.text(output, 'permissionDecisionReason') ?? r.text(output, 'reason');
  let modified: AnyHookContext | undefined;
  if (output.modifiedArgs !== undefined) modified = r.toolInput(output.modifiedArgs, 'modifiedArgs');
  if (output.modifiedResult !== undefined) modified = r.toolResult(output.modifiedResult, 'modifiedResult');
  const verdict = r.choice(output, 'permissionDecision', PERMISSION) ?? r.choice(output, 'decision', STOP_DECISIONS);
  if (verdict === 'deny' || verdict === 'block') return { kind: 'block', reason: reason ?? `denied by hook '${hook.name}'`, ...extras };
  if (verdict === 'ask') return { kind: 'ask', reason: reason ?? `Hook '${hook.name}' asks for approval.`, ctx: modified, ...extras };
  return { kind: 'proceed', reason, granted: verdict === 'allow', ctx: modified, ...extras };
}

/**
 * GitHub Copilot's dialect for lowerCamelCase events (`preToolUse`, `agentStop`, …).
 *
 * - stdin: `sessionId`, `timestamp` (epoch milliseconds), `cwd`, and the event's fields in camelCase: `toolName`,
 *   `toolArgs` (the arguments as an object, as Copilot CLI 1.0 sends them), `toolResult` (`resultType`,
 *   `textResultForLlm`), `prompt`, `source`, `reason`, `stopReason` and `stop_hook_active` (with the older
 *   `stopHookActive` beside it), `error`, …
 * - output: `permissionDecision` allow | deny | ask + `permissionDecisionReason` and `modifiedArgs` (preToolUse);
 *   `decision` block | allow + `reason` (agentStop, subagentStop); `modifiedResult` and `additionalContext`
 *   (postToolUse).
 * - exit 2: block with stderr. Any other failing exit of a preToolUse hook DENIES the call (Copilot fails closed
 *   there); elsewhere it is a warning. Timeouts fail open.
 */
export const copilotDialect: WireDialect = Object.freeze({
  name: 'copilot',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'copilot') ?? event,
  payload,
  interpret,
});
