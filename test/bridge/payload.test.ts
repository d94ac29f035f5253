import { describe, expect, it } from 'vitest';
import { BridgeInputError, readBridgePayload, type StopHookContext, type ToolHookContext } from 'agent-hooks';
import { catchError } from '../support/catch-error.js';

describe('bridge payloads', () => {
  it('reads Claude Code’s and VS Code’s event names and fields', () => {
    const claude = readBridgePayload('claude', { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });
    expect(claude.eventName).toBe('PreToolUse');
    const call = (claude.ctx as ToolHookContext).toolCall;
    expect([call.name, call.args, call.id, claude.ctx.state.sessionId]).toEqual(['Bash', { command: 'ls' }, 't1', 's1']);
    const vscode = readBridgePayload('vscode', { sessionId: 's2', hookEventName: 'Stop', stop_hook_active: true });
    expect(vscode.ctx.event).toBe('Stop');
    expect((vscode.ctx as StopHookContext).stopHookActive).toBe(true);
    expect(vscode.ctx.state.sessionId).toBe('s2');
  });

  it('reads Gemini CLI’s AfterAgent as the Stop gate, with its answer as the final message', () => {
    const { ctx, eventName } = readBridgePayload('gemini', { hook_event_name: 'AfterAgent', prompt: 'fix it', prompt_response: 'Fixed.' });
    expect(eventName).toBe('AfterAgent');
    expect(ctx.event).toBe('Stop');
    expect((ctx as StopHookContext).finalMessage).toBe('Fixed.');
  });

  it('tells a Copilot event from the payload’s shape, parses toolArgs, and takes PascalCase events as VS Code’s payload', () => {
    const pre = readBridgePayload('copilot', { sessionId: 's', timestamp: 1, toolName: 'bash', toolArgs: '{"command":"rm -rf x"}' });
    expect([pre.eventName, pre.ctx.event, (pre.ctx as ToolHookContext).toolCall.args]).toEqual(['preToolUse', 'PreToolUse', { command: 'rm -rf x' }]);
    const post = readBridgePayload('copilot', { toolName: 'bash', toolArgs: '{}', toolResult: { resultType: 'success', textResultForLlm: 'ok' } });
    expect(post.ctx.event).toBe('PostToolUse');
    const stop = readBridgePayload('copilot', { stopHookActive: true }, 'agentStop');
    expect([stop.ctx.event, (stop.ctx as StopHookContext).stopHookActive]).toEqual(['Stop', true]);
    const pascal = readBridgePayload('copilot', { hookEventName: 'PreToolUse', tool_name: 'edit', tool_input: { path: 'a' } }, 'PreToolUse');
    expect((pascal.ctx as ToolHookContext).toolCall.name).toBe('edit');
    expect(catchError(() => readBridgePayload('copilot', { toolName: 'bash', toolArgs: '{nope' }))).toBeInstanceOf(BridgeInputError);
  });

  it('turns Cursor’s tool-specific events into tool calls', () => {
    const shell = readBridgePayload('cursor', { conversation_id: 'c', hook_event_name: 'beforeShellExecution', command: 'make', cwd: '/p' });
    expect([shell.ctx.event, (shell.ctx as ToolHookContext).toolCall.name, (shell.ctx as ToolHookContext).toolCall.args]).toEqual(['PreToolUse', 'Shell', { command: 'make', cwd: '/p' }]);
    const read = readBridgePayload('cursor', { hook_event_name: 'beforeReadFile', file_path: '.env' });
    expect((read.ctx as ToolHookContext).toolCall).toMatchObject({ name: 'Read', args: { file_path: '.env' } });
    expect(catchError(() => readBridgePayload('cursor', { hook_event_name: 'beforeCoffee' }))).toBeInstanceOf(BridgeInputError);
  });
});
