/**
 * VS Code's agent-hook protocol, which GitHub Copilot also speaks for hooks configured under PascalCase event names.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import { claudeEventFields, interpretClaudeFamily } from './claude.js';
import type { PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  const sessionId = ctx.state.sessionId ?? ctx.state.agentId;
  return {
    timestamp: new Date().toISOString(),
    cwd: info.workDir,
    sessionId,
    hookEventName: info.eventName,
    transcript_path: null,
    // VS Code reads Claude Code's settings files and calls its format compatible: scripts written for Claude Code
    // read these two names.
    session_id: sessionId,
    hook_event_name: info.eventName,
    ...claudeEventFields(ctx),
  };
}

/**
 * VS Code's dialect (and Copilot's for PascalCase events).
 *
 * - stdin: `timestamp` (ISO 8601), `cwd`, `sessionId`, `hookEventName`, `transcript_path` (null), Claude Code's
 *   `session_id` and `hook_event_name`, and the event's fields as Claude Code names them (`tool_name`, `tool_input`,
 *   `tool_use_id`, `tool_response`, `source`, `trigger`, `stop_hook_active`, `agent_id`, `agent_type`, …).
 * - output: as Claude Code's, including `decision` and `reason` inside `hookSpecificOutput` for Stop; several
 *   permission decisions merge most restrictive first (deny > ask > allow), as the stack merges them.
 */
export const vscodeDialect: WireDialect = Object.freeze({
  name: 'vscode',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'claude') ?? event,
  payload,
  interpret: (result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo) => interpretClaudeFamily(result, ctx, hook),
});
