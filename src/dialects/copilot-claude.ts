/**
 * What GitHub Copilot CLI sends a hook configured under a PascalCase event name in its own hook files: its
 * "Claude-compatible" payload, which is neither VS Code's nor Claude Code's.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName } from '../core/index.js';
import { TOOL_VOCABULARY } from '../core/tool-vocabulary.js';
import type { ProcessResult } from './process-result.js';
import { claudeEventFields, interpretClaudeFamily } from './claude.js';
import { copilotErrorOf, copilotPayload } from './copilot.js';
import { interpretCopilotPermission } from './copilot-permission.js';
import { withoutProgressLines } from './copilot-progress.js';
import { writeCopilotTranscript } from './copilot-transcript.js';
import type { PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';

/** Claude Code's name for a tool of Copilot's (`bash` is `Bash`), as Copilot writes it here; else the name as it is. */
function claudeToolName(name: string): string {
  const entry = TOOL_VOCABULARY.find((e) => e.names.copilot?.includes(name));
  return entry?.names.claude?.[0] ?? name;
}

/** The arguments as JSON sends them (what cannot be serialized, as `{}`). */
const argsOf = (args: unknown): unknown => JSON.parse(JSON.stringify(args) ?? '{}') as unknown;

/** The text Copilot hands the model for a tool's result. */
const resultText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** The fields of each event, as Copilot CLI 1.0.102 sends them; `undefined` for an event it was not seen sending. */
function eventFields(ctx: AnyHookContext): Record<string, unknown> | undefined {
  switch (ctx.event) {
    case 'PreToolUse':
      return { tool_name: claudeToolName(ctx.toolCall.name), tool_input: argsOf(ctx.toolCall.args) };
    case 'PostToolUse':
      return {
        tool_name: claudeToolName(ctx.toolCall.name),
        tool_input: argsOf(ctx.toolCall.args),
        tool_result: { result_type: 'success', text_result_for_llm: resultText(ctx.execution?.result) },
      };
    case 'PostToolUseFailure':
      return {
        tool_name: claudeToolName(ctx.toolCall.name),
        tool_input: argsOf(ctx.toolCall.args),
        tool_result: { result_type: 'failure', text_result_for_llm: ctx.errorMessage ?? '' },
      };
    case 'SessionStart':
      return { source: ctx.source === 'startup' ? 'new' : ctx.source, ...(ctx.initialPrompt !== undefined ? { initial_prompt: ctx.initialPrompt } : {}) };
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'Stop':
      // Copilot's name for a turn the model ended is end_turn, our no_tool_calls.
      return {
        transcript_path: writeCopilotTranscript(ctx.state, process.cwd()),
        stop_reason: ctx.stopReason === 'no_tool_calls' ? 'end_turn' : ctx.stopReason,
        stop_hook_active: ctx.stopHookActive,
      };
    case 'SessionEnd':
      return { reason: ctx.reason === undefined || ctx.reason === 'close' ? 'complete' : ctx.reason };
    case 'AgentFailed':
      return { error: copilotErrorOf(ctx), error_context: ctx.duringModelCall ? 'model_call' : 'agent', recoverable: ctx.duringModelCall };
    default:
      return undefined;
  }
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  // Copilot sends permissionRequest's camelCase payload under either name.
  if (ctx.event === 'PermissionRequest') return copilotPayload(ctx, info);
  const sessionId = ctx.state.sessionId ?? ctx.state.agentId;
  const base = { hook_event_name: info.eventName, session_id: sessionId, timestamp: new Date().toISOString(), cwd: info.workDir };
  // An event Copilot was not seen sending here gets Claude Code's fields, as VS Code's format has them.
  return { ...base, ...(eventFields(ctx) ?? claudeEventFields(ctx)) };
}

/**
 * Copilot CLI's dialect for a hook configured under a PascalCase event name in its hook files.
 *
 * - stdin, as Copilot CLI 1.0.102 sends it: `hook_event_name`, `session_id`, `timestamp` (ISO 8601), `cwd`, and the
 *   event's fields in snake_case: `tool_name` in Claude Code's words (`Bash`), `tool_input`, `tool_result`
 *   (`result_type`, `text_result_for_llm`), `source` (`new`) and `initial_prompt`, `prompt`, `stop_reason`
 *   (`end_turn`) and `stop_hook_active` with `transcript_path` (the conversation so far, as Copilot's session events),
 *   `reason` — and nothing else (no `permission_mode`, no `tool_use_id`). PermissionRequest gets Copilot's camelCase payload (`hookName`,
 *   `toolName`, `toolInput`).
 * - output: as VS Code's (Claude Code's answers), once the progress lines are out of stdout (each line that is one JSON
 *   object with `"type": "progress"`), as Copilot CLI 1.0.102 takes them out under either name.
 */
export const copilotClaudeDialect: WireDialect = Object.freeze({
  name: 'copilot-claude',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'claude') ?? event,
  payload,
  // Copilot reads permissionRequest's answer in its own words under either name (`behavior`, `message`, `interrupt`).
  interpret: (raw: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo) => {
    const result = withoutProgressLines(raw);
    return ctx.event === 'PermissionRequest' ? interpretCopilotPermission(result, ctx, hook) : interpretClaudeFamily(result, ctx, hook);
  },
});
