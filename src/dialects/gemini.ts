/**
 * Gemini CLI's command-hook protocol.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import { claudeEventFields, interpretClaudeFamily } from './claude.js';
import type { PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';

/** Events whose plain stdout Gemini CLI adds to the model's context. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

function eventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'Stop':
      // Gemini's AfterAgent gate: the turn's prompt and answer, and whether a retry is already under way.
      return {
        prompt: ctx.state.messages.findLast((m) => m.role === 'user')?.content ?? '',
        prompt_response: ctx.finalMessage ?? '',
        stop_hook_active: ctx.stopHookActive,
      };
    case 'Notification':
      return { notification_type: ctx.notificationType, message: ctx.message, details: {} };
    default:
      return claudeEventFields(ctx);
  }
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  return {
    session_id: ctx.state.sessionId ?? ctx.state.agentId,
    transcript_path: null,
    cwd: info.workDir,
    hook_event_name: info.eventName,
    timestamp: new Date().toISOString(),
    ...eventFields(ctx),
  };
}

/**
 * Gemini CLI's dialect.
 *
 * - stdin: `session_id`, `transcript_path` (null), `cwd`, `hook_event_name` (BeforeTool, AfterTool, BeforeAgent,
 *   AfterAgent, …), `timestamp` (ISO 8601), and the event's fields (`tool_name`, `tool_input`, `tool_response`,
 *   `prompt`, `prompt_response`, `stop_hook_active`, `source`, `reason`, `trigger`, …).
 * - output: `decision` allow | deny (`block` is an alias), `reason`, `continue: false` + `stopReason`,
 *   `systemMessage`, `hookSpecificOutput.additionalContext`, and `hookSpecificOutput.tool_input`, which is MERGED
 *   into the tool's arguments (fields it leaves out keep their values). A deny on AfterAgent (Stop) keeps the agent
 *   working with the reason as feedback.
 * - exit 2: block with stderr; other exits: a warning, the action goes on.
 */
export const geminiDialect: WireDialect = Object.freeze({
  name: 'gemini',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'gemini') ?? event,
  payload,
  interpret: (result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo) =>
    interpretClaudeFamily(result, ctx, hook, { mergeToolInput: true, plainStdoutIsContext: PLAIN_STDOUT_IS_CONTEXT }),
});
