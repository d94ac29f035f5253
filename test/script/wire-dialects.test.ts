import { describe, expect, it } from 'vitest';
import {
  AgentState,
  claudeDialect,
  CompactHookContext,
  copilotDialect,
  createCursorDialect,
  cursorDialect,
  geminiDialect,
  NotificationHookContext,
  PromptHookContext,
  SessionHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  vscodeDialect,
  type AnyHookContext,
  type WireDialect,
} from 'agent-hooks';
import { exited } from '../support/script-fixture.js';
import type { ProcessResult } from '../../src/process/run-process.js';
import { claudeStopFeedback } from '../../src/dialects/claude-stop-feedback.js';
import { copilotClaudeDialect } from '../../src/dialects/copilot-claude.js';

const state = AgentState.create({ sessionId: 'sess-1' });
const call = ToolCall.create('Bash', { command: 'rm -rf /tmp/x', description: 'clean' }, 'call_1');
const pre = (): AnyHookContext => ToolHookContext.beforeToolUse(call, { state });
const post = (): AnyHookContext => ToolHookContext.afterToolUse(ToolExecution.success(call, 'removed'), { state });
const stop = (continuationCount = 0): AnyHookContext =>
  StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 2, finalMessage: 'Done.', stopHookActive: continuationCount > 0, continuationCount, state });
const prompt = (): AnyHookContext => PromptHookContext.onSubmit('fix the bug', { state });
const sessionStart = (): AnyHookContext => SessionHookContext.onStart({ source: 'startup', state });
const permission = (): AnyHookContext => ToolHookContext.permissionRequest(call, { state });

const hook = { name: 'guard', failClosed: false, timeoutMs: 5000, maxOutputBytes: 1024 };

const payloadOf = (dialect: WireDialect, ctx: AnyHookContext, written?: string) =>
  dialect.payload(ctx, { eventName: dialect.eventName(ctx.event, written), workDir: '/project', hookName: 'guard' }) as Record<string, unknown>;
const keys = (dialect: WireDialect, ctx: AnyHookContext, written?: string) => Object.keys(payloadOf(dialect, ctx, written)).sort();

/** For each dialect and event, the stdin payload's exact keys. */
const PAYLOAD_KEYS: [string, WireDialect, () => AnyHookContext, string[], string?][] = [
  ['claude PreToolUse', claudeDialect, pre, ['cwd', 'hook_event_name', 'permission_mode', 'session_id', 'tool_input', 'tool_name', 'tool_use_id', 'transcript_path']],
  ['claude PostToolUse', claudeDialect, post, ['cwd', 'hook_event_name', 'permission_mode', 'session_id', 'tool_input', 'tool_name', 'tool_response', 'tool_use_id', 'transcript_path']],
  ['claude Stop', claudeDialect, stop, ['cwd', 'hook_event_name', 'last_assistant_message', 'permission_mode', 'session_id', 'stop_hook_active', 'transcript_path']],
  ['claude UserPromptSubmit', claudeDialect, prompt, ['cwd', 'hook_event_name', 'permission_mode', 'prompt', 'session_id', 'transcript_path']],
  // Claude Code 2.1.332 sends no permission_mode (nor model) on SessionStart.
  ['claude SessionStart', claudeDialect, sessionStart, ['cwd', 'hook_event_name', 'session_id', 'source', 'transcript_path']],
  ['claude PreCompact', claudeDialect, () => CompactHookContext.before({ trigger: 'auto', messagesBefore: [], state }), ['custom_instructions', 'cwd', 'hook_event_name', 'session_id', 'transcript_path', 'trigger']],
  ['claude SubagentStart', claudeDialect, () => SubagentHookContext.onStart({ name: 'r', type: 'Plan', task: 't', state }), ['agent_id', 'agent_type', 'cwd', 'hook_event_name', 'session_id', 'transcript_path']],
  ['claude Notification', claudeDialect, () => NotificationHookContext.notify('idle', { notificationType: 'idle_prompt', state }), ['cwd', 'hook_event_name', 'message', 'notification_type', 'permission_mode', 'session_id', 'transcript_path']],
  ['vscode PreToolUse', vscodeDialect, pre, ['cwd', 'hookEventName', 'hook_event_name', 'sessionId', 'session_id', 'timestamp', 'tool_input', 'tool_name', 'tool_use_id', 'transcript_path']],
  ['vscode Stop', vscodeDialect, stop, ['cwd', 'hookEventName', 'hook_event_name', 'sessionId', 'session_id', 'stop_hook_active', 'timestamp', 'transcript_path']],
  ['copilot preToolUse', copilotDialect, pre, ['cwd', 'sessionId', 'timestamp', 'toolArgs', 'toolName']],
  ['copilot postToolUse', copilotDialect, post, ['cwd', 'sessionId', 'timestamp', 'toolArgs', 'toolName', 'toolResult']],
  ['copilot agentStop', copilotDialect, stop, ['cwd', 'sessionId', 'stopHookActive', 'stopReason', 'stop_hook_active', 'timestamp', 'transcriptPath']],
  ['copilot userPromptSubmitted', copilotDialect, prompt, ['cwd', 'prompt', 'sessionId', 'timestamp']],
  ['copilot sessionStart', copilotDialect, sessionStart, ['cwd', 'sessionId', 'source', 'timestamp']],
  ['gemini BeforeTool', geminiDialect, pre, ['cwd', 'hook_event_name', 'session_id', 'timestamp', 'tool_input', 'tool_name', 'transcript_path']],
  ['gemini AfterTool', geminiDialect, post, ['cwd', 'hook_event_name', 'session_id', 'timestamp', 'tool_input', 'tool_name', 'tool_response', 'transcript_path']],
  ['gemini AfterAgent', geminiDialect, stop, ['cwd', 'hook_event_name', 'prompt', 'prompt_response', 'session_id', 'stop_hook_active', 'timestamp', 'transcript_path']],
  ['gemini BeforeAgent', geminiDialect, prompt, ['cwd', 'hook_event_name', 'prompt', 'session_id', 'timestamp', 'transcript_path']],
  ['cursor preToolUse', cursorDialect, pre, ['conversation_id', 'generation_id', 'hook_event_name', 'tool_input', 'tool_name', 'tool_use_id', 'workspace_roots']],
  ['cursor beforeShellExecution', cursorDialect, pre, ['command', 'conversation_id', 'cwd', 'generation_id', 'hook_event_name', 'workspace_roots'], 'beforeShellExecution'],
  ['cursor beforeSubmitPrompt', cursorDialect, prompt, ['attachments', 'conversation_id', 'generation_id', 'hook_event_name', 'prompt', 'workspace_roots']],
  ['cursor stop', cursorDialect, stop, ['conversation_id', 'generation_id', 'hook_event_name', 'loop_count', 'status', 'workspace_roots']],
];

describe('stdin payloads', () => {
  it.each(PAYLOAD_KEYS)('%s has exactly the documented keys', (_, dialect, ctx, expected, written) => {
    expect(keys(dialect, ctx(), written)).toEqual(expected);
  });

  it('name events as each agent does', () => {
    expect(payloadOf(claudeDialect, pre()).hook_event_name).toBe('PreToolUse');
    expect(payloadOf(vscodeDialect, stop()).hookEventName).toBe('Stop');
    expect(payloadOf(geminiDialect, pre()).hook_event_name).toBe('BeforeTool');
    expect(payloadOf(geminiDialect, stop()).hook_event_name).toBe('AfterAgent');
    expect(payloadOf(cursorDialect, prompt()).hook_event_name).toBe('beforeSubmitPrompt');
    expect(payloadOf(cursorDialect, pre(), 'beforeShellExecution').hook_event_name).toBe('beforeShellExecution');
  });

  it('use each agent’s value formats', () => {
    const copilot = payloadOf(copilotDialect, pre());
    expect(typeof copilot.timestamp).toBe('number');
    // An object, as Copilot CLI 1.0 sends it.
    expect(copilot.toolArgs).toEqual({ command: 'rm -rf /tmp/x', description: 'clean' });
    expect(payloadOf(copilotDialect, post()).toolResult).toEqual({ resultType: 'success', textResultForLlm: 'removed' });
    expect(payloadOf(vscodeDialect, pre()).timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(payloadOf(claudeDialect, pre())).toMatchObject({ session_id: 'sess-1', cwd: process.cwd(), tool_input: { command: 'rm -rf /tmp/x' } });
    expect(payloadOf(cursorDialect, pre(), 'beforeShellExecution')).toMatchObject({ command: 'rm -rf /tmp/x', cwd: '/project', workspace_roots: ['/project'] });
    expect(payloadOf(cursorDialect, stop(3))).toMatchObject({ loop_count: 3, status: 'completed' });
  });

  it('end a closed session with each agent’s own reason: Gemini CLI’s exit, Copilot CLI’s complete (test/agents/own-payloads)', () => {
    const closed = () => SessionHookContext.onEnd({ reason: 'close', state });
    expect(payloadOf(geminiDialect, closed()).reason).toBe('exit');
    expect(payloadOf(copilotDialect, closed()).reason).toBe('complete');
    expect(payloadOf(copilotDialect, SessionHookContext.onEnd({ reason: 'error', state })).reason).toBe('error');
  });

  it('end a session whose last turn failed with each agent’s own reason: Copilot CLI’s and Cursor’s error, Gemini CLI’s exit, Claude Code’s other', () => {
    const failed = () => SessionHookContext.onEnd({ reason: 'error', state });
    expect(payloadOf(copilotDialect, failed()).reason).toBe('error');
    expect(payloadOf(cursorDialect, failed()).reason).toBe('error');
    expect(payloadOf(geminiDialect, failed()).reason).toBe('exit');
    expect(payloadOf(claudeDialect, failed()).reason).toBe('other');
    // Cursor's reason for a session that ended well is `completed`.
    expect(payloadOf(cursorDialect, SessionHookContext.onEnd({ reason: 'close', state })).reason).toBe('completed');
  });

  it('set stop_hook_active in every dialect that has it', () => {
    expect(payloadOf(claudeDialect, stop(1)).stop_hook_active).toBe(true);
    expect(payloadOf(vscodeDialect, stop(1)).stop_hook_active).toBe(true);
    expect(payloadOf(geminiDialect, stop(1)).stop_hook_active).toBe(true);
    expect(payloadOf(copilotDialect, stop(1)).stopHookActive).toBe(true);
    expect(payloadOf(copilotDialect, stop(1)).stop_hook_active).toBe(true);
    expect(payloadOf(claudeDialect, stop(0)).stop_hook_active).toBe(false);
  });
});

interface Expected {
  kind: 'proceed' | 'block' | 'stop' | 'ask';
  reason?: string;
  granted?: boolean;
  args?: Record<string, unknown>;
  result?: unknown;
  context?: string[];
  systemMessage?: string;
  notes?: number;
}

/** For each dialect and answer, the decision. */
const OUTPUTS: [string, WireDialect, () => AnyHookContext, ProcessResult, Expected][] = [
  // Claude Code
  ['claude exit 0, no output', claudeDialect, pre, exited(0), { kind: 'proceed', granted: false, notes: 0 }],
  ['claude exit 2 blocks with stderr', claudeDialect, pre, exited(2, '', 'no rm -rf\n'), { kind: 'block', reason: 'no rm -rf' }],
  // On Stop, in Claude Code 2.1.332's words (test/config/claude-stop-block.test.ts).
  ['claude exit 2 on Stop keeps working', claudeDialect, stop, exited(2, '', 'run the tests'), { kind: 'block', reason: claudeStopFeedback('[guard]: run the tests') }],
  ['claude exit 2 on SessionStart shows stderr', claudeDialect, sessionStart, exited(2, '', 'hello'), { kind: 'proceed', systemMessage: 'hello' }],
  ['claude exit 1 is a non-blocking error', claudeDialect, pre, exited(1, '', 'oops'), { kind: 'proceed', notes: 1 }],
  ['claude permissionDecision deny', claudeDialect, pre, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Destructive' } })), { kind: 'block', reason: 'Destructive' }],
  ['claude permissionDecision ask', claudeDialect, pre, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'sure?' } })), { kind: 'ask', reason: 'sure?' }],
  ['claude permissionDecision allow + updatedInput', claudeDialect, pre, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } } })), { kind: 'proceed', granted: true, args: { command: 'ls' } }],
  ['claude additionalContext', claudeDialect, pre, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'read-only' } })), { kind: 'proceed', context: ['read-only'] }],
  ['claude legacy decision approve', claudeDialect, pre, exited(0, '{"decision":"approve"}'), { kind: 'proceed', granted: true }],
  ['claude legacy decision block', claudeDialect, pre, exited(0, '{"decision":"block","reason":"nope"}'), { kind: 'block', reason: 'nope' }],
  ['claude decision block on Stop', claudeDialect, stop, exited(0, '{"decision":"block","reason":"Continue with X"}'), { kind: 'block', reason: claudeStopFeedback('Continue with X'), context: ['Stop hook blocking error from command: "guard": Continue with X'] }],
  ['claude continue false wins over a grant', claudeDialect, pre, exited(0, JSON.stringify({ continue: false, stopReason: 'halt', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })), { kind: 'stop', reason: 'halt' }],
  ['claude systemMessage', claudeDialect, pre, exited(0, '{"systemMessage":"careful"}'), { kind: 'proceed', systemMessage: 'careful' }],
  ['claude plain stdout is context on UserPromptSubmit', claudeDialect, prompt, exited(0, 'Branch: main\n'), { kind: 'proceed', context: ['Branch: main'] }],
  ['claude plain stdout is context on SessionStart', claudeDialect, sessionStart, exited(0, 'v2.1'), { kind: 'proceed', context: ['v2.1'] }],
  ['claude plain stdout is ignored on PreToolUse', claudeDialect, pre, exited(0, 'checking…'), { kind: 'proceed', context: [], notes: 0 }],
  ['claude invalid JSON fails open', claudeDialect, pre, exited(0, '{"decision":'), { kind: 'proceed', notes: 1 }],
  ['claude unknown fields are ignored', claudeDialect, pre, exited(0, '{"suppressOutput":true,"whatever":[1]}'), { kind: 'proceed', notes: 0 }],
  ['claude wrong-typed field is ignored, the rest counts', claudeDialect, pre, exited(0, JSON.stringify({ systemMessage: 3, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } })), { kind: 'block', notes: 1 }],
  ['claude PermissionRequest decision.behavior deny', claudeDialect, () => ToolHookContext.permissionRequest(call, { state }), exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'not here' } } })), { kind: 'block', reason: 'not here' }],
  // On Bash, as Bash's output object (Claude Code 2.1.332 ignores a string there).
  ['claude updatedToolOutput replaces the result', claudeDialect, post, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'redacted', stderr: '' } } })), { kind: 'proceed', result: 'redacted' }],
  // VS Code
  ['vscode Stop decision inside hookSpecificOutput', vscodeDialect, stop, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: 'Run the test suite' } })), { kind: 'block', reason: 'Run the test suite' }],
  ['vscode continue true is a plain proceed', vscodeDialect, pre, exited(0, '{"continue":true}'), { kind: 'proceed', notes: 0 }],
  // Copilot
  ['copilot permissionDecision deny', copilotDialect, pre, exited(0, '{"permissionDecision":"deny","permissionDecisionReason":"policy"}'), { kind: 'block', reason: 'policy' }],
  ['copilot modifiedArgs', copilotDialect, pre, exited(0, '{"permissionDecision":"allow","modifiedArgs":{"command":"ls"}}'), { kind: 'proceed', granted: true, args: { command: 'ls' } }],
  ['copilot agentStop decision block', copilotDialect, stop, exited(0, '{"decision":"block","reason":"tests"}'), { kind: 'block', reason: 'tests' }],
  ['copilot postToolUse modifiedResult + additionalContext', copilotDialect, post, exited(0, '{"modifiedResult":{"textResultForLlm":"short","resultType":"success"},"additionalContext":"trimmed"}'), { kind: 'proceed', result: 'short', context: ['trimmed'] }],
  ['copilot preToolUse exit 1 fails CLOSED', copilotDialect, pre, exited(1, '', 'crash'), { kind: 'block' }],
  ['copilot postToolUse exit 1 fails open', copilotDialect, post, exited(1, '', 'crash'), { kind: 'proceed', notes: 1 }],
  ['copilot exit 2 blocks, the model told what Copilot CLI tells it', copilotDialect, pre, exited(2, '', 'denied'), { kind: 'block', reason: 'hook exited with code 2' }],
  ['copilot preToolUse command not found (127) fails CLOSED', copilotDialect, pre, exited(127, '', 'sh: guard.sh: not found'), { kind: 'block' }],
  ['copilot preToolUse interpreter missing fails CLOSED', copilotDialect, pre, exited(null, '', '', { spawnError: { code: 'ENOENT', message: 'spawn pwsh ENOENT' } }), { kind: 'block' }],
  ['copilot preToolUse timeout fails open', copilotDialect, pre, exited(null, '', '', { timedOut: true, signal: 'SIGKILL' }), { kind: 'proceed', notes: 1 }],
  ['copilot postToolUse command not found fails open', copilotDialect, post, exited(127, '', 'sh: x: not found'), { kind: 'proceed', notes: 1 }],
  // What Copilot CLI 1.0.102 reads its own way (test/agents/copilot-rules.test.ts).
  ['copilot preToolUse top-level decision block is not read', copilotDialect, pre, exited(0, '{"decision":"block","reason":"no"}'), { kind: 'proceed', notes: 1 }],
  ['copilot modifiedArgs as a JSON string', copilotDialect, pre, exited(0, '{"permissionDecision":"allow","modifiedArgs":"{\\"command\\":\\"ls\\"}"}'), { kind: 'proceed', granted: true, args: { command: 'ls' } }],
  ['copilot bare-string modifiedResult leaves the output', copilotDialect, post, exited(0, '{"modifiedResult":"short"}'), { kind: 'proceed', notes: 1 }],
  ['copilot postToolUse exit 2 is only logged', copilotDialect, post, exited(2, '', 'no'), { kind: 'proceed', notes: 1 }],
  ['copilot agentStop exit 2 is only logged', copilotDialect, stop, exited(2, '', 'no'), { kind: 'proceed', notes: 1 }],
  ['copilot userPromptSubmitted exit 2 is only logged', copilotDialect, prompt, exited(2, '', 'no'), { kind: 'proceed', notes: 1 }],
  ['copilot agentStop block without a reason is not acted on', copilotDialect, stop, exited(0, '{"decision":"block"}'), { kind: 'proceed', notes: 1 }],
  // permissionRequest, as Copilot CLI 1.0.102 reads it under either name (test/agents/copilot-rules.test.ts).
  ['copilot permissionRequest behavior deny + message', copilotDialect, permission, exited(0, '{"behavior":"deny","message":"not here"}'), { kind: 'block', reason: 'not here' }],
  ['copilot permissionRequest behavior deny without a message', copilotDialect, permission, exited(0, '{"behavior":"deny"}'), { kind: 'block', reason: 'Permission denied by hook.' }],
  ['copilot permissionRequest deny + interrupt ends the run', copilotDialect, permission, exited(0, '{"behavior":"deny","message":"halt","interrupt":true}'), { kind: 'stop', reason: 'halt' }],
  ['copilot permissionRequest behavior allow grants', copilotDialect, permission, exited(0, '{"behavior":"allow"}'), { kind: 'proceed', granted: true, notes: 0 }],
  ['copilot permissionRequest permissionDecision is not read', copilotDialect, permission, exited(0, '{"permissionDecision":"deny","permissionDecisionReason":"no"}'), { kind: 'proceed', granted: false, notes: 2 }],
  ['copilot permissionRequest behavior ask is not read', copilotDialect, permission, exited(0, '{"behavior":"ask","message":"sure?"}'), { kind: 'proceed', granted: false, notes: 1 }],
  ['copilot permissionRequest new arguments are not applied', copilotDialect, permission, exited(0, '{"behavior":"allow","updatedInput":{"command":"ls"},"modifiedArgs":{"command":"ls"}}'), { kind: 'proceed', granted: true, notes: 2 }],
  ['copilot permissionRequest exit 2 denies in Copilot\'s words', copilotDialect, permission, exited(2, '', 'secret'), { kind: 'block', reason: 'Permission denied by hook.' }],
  ['copilot permissionRequest exit 1 fails CLOSED', copilotDialect, permission, exited(1, '', 'crash'), { kind: 'block', reason: 'Permission request hook failed' }],
  ['copilot permissionRequest command not found fails CLOSED', copilotDialect, permission, exited(127, '', 'sh: x: not found'), { kind: 'block', reason: 'Permission request hook failed' }],
  ['copilot PermissionRequest (PascalCase) reads behavior too', copilotClaudeDialect, permission, exited(0, '{"behavior":"deny","message":"not here"}'), { kind: 'block', reason: 'not here' }],
  ['copilot PermissionRequest (PascalCase) does not read hookSpecificOutput', copilotClaudeDialect, permission, exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } })), { kind: 'proceed', notes: 1 }],
  ['copilot PermissionRequest (PascalCase) exit 1 fails CLOSED', copilotClaudeDialect, permission, exited(1, '', 'crash'), { kind: 'block' }],
  // Copilot CLI 1.0.102 takes progress lines out of stdout before it reads the answer, under either name (test/agents/copilot-switches.test.ts).
  ['copilot progress lines before a deny still deny', copilotDialect, pre, exited(0, '{"type":"progress","message":"checking"}\n  {"type": "progress", "message": "still", "temporary": true}  \n{"permissionDecision":"deny","permissionDecisionReason":"policy"}\n'), { kind: 'block', reason: 'policy' }],
  ['copilot a multi-line answer after a progress line', copilotDialect, pre, exited(0, '{"type":"progress","message":"checking"}\n{\n  "permissionDecision": "deny"\n}\n'), { kind: 'block' }],
  ['copilot only progress lines: no answer', copilotDialect, pre, exited(0, '{"type":"progress","message":"checking"}\n'), { kind: 'proceed', notes: 0 }],
  ['copilot (PascalCase) progress lines before a deny still deny', copilotClaudeDialect, pre, exited(0, '{"type":"progress","message":"checking"}\n' + JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'policy' } })), { kind: 'block', reason: 'policy' }],
  ['copilot permissionRequest progress lines before a deny still deny', copilotDialect, permission, exited(0, '{"type":"progress","message":"checking"}\n{"behavior":"deny","message":"not here"}'), { kind: 'block', reason: 'not here' }],
  // Gemini
  ['gemini decision deny', geminiDialect, pre, exited(0, '{"decision":"deny","reason":"no"}'), { kind: 'block', reason: 'no' }],
  ['gemini block is an alias of deny', geminiDialect, pre, exited(0, '{"decision":"block","reason":"no"}'), { kind: 'block', reason: 'no' }],
  ['gemini tool_input REPLACES the arguments', geminiDialect, pre, exited(0, '{"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"ls"}}}'), { kind: 'proceed', granted: true, args: { command: 'ls' } }],
  ['gemini deny on AfterAgent keeps working', geminiDialect, stop, exited(0, '{"decision":"deny","reason":"retry"}'), { kind: 'block', reason: 'retry' }],
  ['gemini continue false stops', geminiDialect, pre, exited(0, '{"continue":false,"stopReason":"budget"}'), { kind: 'stop', reason: 'budget' }],
  // Cursor
  ['cursor permission deny + agent_message', cursorDialect, pre, exited(0, '{"permission":"deny","agent_message":"not allowed","user_message":"Blocked rm"}'), { kind: 'block', reason: 'not allowed', systemMessage: 'Blocked rm' }],
  ['cursor permission ask', cursorDialect, pre, exited(0, '{"permission":"ask","user_message":"approve?"}'), { kind: 'ask', reason: 'approve?' }],
  ['cursor updated_input', cursorDialect, pre, exited(0, '{"permission":"allow","updated_input":{"command":"ls"}}'), { kind: 'proceed', granted: true, args: { command: 'ls' } }],
  ['cursor followup_message keeps working', cursorDialect, () => stop(1), exited(0, '{"followup_message":"now run the tests"}'), { kind: 'block', reason: 'now run the tests' }],
  ['cursor followup_message past loop_limit is ignored', createCursorDialect({ loopLimit: 2 }), () => stop(2), exited(0, '{"followup_message":"again"}'), { kind: 'proceed', notes: 1 }],
  ['cursor continue false refuses a prompt', cursorDialect, prompt, exited(0, '{"continue":false,"user_message":"no secrets"}'), { kind: 'block', reason: 'no secrets' }],
  ['cursor exit 2 denies', cursorDialect, pre, exited(2, '', 'nope'), { kind: 'block', reason: 'nope' }],
];

describe('answers', () => {
  it.each(OUTPUTS)('%s', (_, dialect, ctx, result, expected) => {
    const decision = dialect.interpret(result, ctx(), hook);
    expect(decision.kind).toBe(expected.kind);
    if (expected.reason !== undefined) expect(decision.reason).toBe(expected.reason);
    if (expected.granted !== undefined) expect(Boolean(decision.granted)).toBe(expected.granted);
    if (expected.args !== undefined) expect((decision.ctx as ToolHookContext | undefined)?.toolCall.args).toEqual(expected.args);
    if (expected.result !== undefined) expect((decision.ctx as ToolHookContext | undefined)?.execution?.result).toEqual(expected.result);
    if (expected.context !== undefined) expect(decision.additionalContext).toEqual(expected.context);
    if (expected.systemMessage !== undefined) expect(decision.systemMessage).toBe(expected.systemMessage);
    if (expected.notes !== undefined) expect(decision.notes).toHaveLength(expected.notes);
  });

  it('copilot: modifiedPrompt on userPromptSubmitted replaces the prompt', () => {
    const decision = copilotDialect.interpret(exited(0, '{"modifiedPrompt":"fix the tests"}'), prompt(), hook);
    expect((decision.ctx as PromptHookContext | undefined)?.prompt).toBe('fix the tests');
  });

  it('fail closed when the hook says so, in every dialect', () => {
    for (const dialect of [claudeDialect, vscodeDialect, geminiDialect, cursorDialect]) {
      expect(dialect.interpret(exited(1, '', 'boom'), pre(), { ...hook, failClosed: true }).kind).toBe('block');
    }
  });

  // Not Gemini CLI's: it reads a 127's text as a deny, like any exit but 0 and 1 with text.
  it('tell an interpreter that is missing (127) from a deliberate deny', () => {
    for (const dialect of [claudeDialect, copilotDialect, vscodeDialect, cursorDialect]) {
      const decision = dialect.interpret(exited(127, '', 'sh: 1: jq: not found'), post(), hook);
      expect(decision.kind).toBe('proceed');
      expect(decision.notes[0]?.code).toBe('spawn-error');
    }
  });
});
