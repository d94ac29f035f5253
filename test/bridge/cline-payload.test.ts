/**
 * Cline's CLI 3.0.65's recorded payloads (test/bridge/fixtures/cline/) read into our contexts, and our outcomes
 * written as the answers Cline reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HookOutcome, readBridgePayload, ToolHookContext } from 'agent-hooks';
import { bridgeAnswer } from '../../src/bridge/bridge-answer.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/cline/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('Cline’s payloads', () => {
  it('read by hookName, with the workspace root as the project and the task as the session', () => {
    const events = ['TaskStart', 'PreToolUse', 'PostToolUse', 'TaskComplete'].map((name) => readBridgePayload('cline', fixture(`${name}.json`)));
    expect(events.map((e) => [e.ctx.event, e.eventName])).toEqual([
      ['SessionStart', 'agent_start'],
      ['PreToolUse', 'tool_call'],
      ['PostToolUse', 'tool_result'],
      ['Stop', 'agent_end'],
    ]);
    for (const { ctx } of events) expect(ctx.state.sessionId).toBe('conv_<ID>');
  });

  it('give run_commands the shared command, one command a line, and match tool: Shell', () => {
    const payload = fixture('PreToolUse.json');
    const { ctx } = readBridgePayload('cline', { ...payload, tool_call: { name: 'run_commands', input: { commands: ['ls', 'rm -rf build'] } } });
    const call = (ctx as ToolHookContext).toolCall;
    expect(call.name).toBe('run_commands');
    expect(call.args).toEqual({ commands: ['ls', 'rm -rf build'], command: 'ls\nrm -rf build' });
  });

  it('tell the event by its data when hookName is not one Cline writes, and refuse a payload that names none', () => {
    expect(readBridgePayload('cline', { ...fixture('TaskStart.json'), hookName: 'agent_<ID>' }).ctx.event).toBe('SessionStart');
    expect(() => readBridgePayload('cline', { taskId: 't', workspaceRoots: ['/p'] })).toThrow(/names no event Cline 3\.0 sends.*--event/);
  });
});

describe('answers to Cline', () => {
  const pre = () => readBridgePayload('cline', fixture('PreToolUse.json')).ctx;

  it('refuse with cancel and exit 0, for a block, an ask and a stop alike', () => {
    for (const outcome of [HookOutcome.block('no'), HookOutcome.ask('no'), HookOutcome.stop('no')]) {
      expect(bridgeAnswer('cline', outcome, pre(), 'tool_call')).toEqual({ exitCode: 0, stdout: '{"cancel":true,"errorMessage":"no"}\n', stderr: '' });
    }
  });

  it('end the task when a PostToolUse hook replaced the result, which Cline cannot take', () => {
    const ctx = readBridgePayload('cline', fixture('PostToolUse.json')).ctx;
    const replaced = HookOutcome.proceed((ctx as ToolHookContext).withResult('[redacted]'));
    expect(JSON.parse(bridgeAnswer('cline', replaced, ctx, 'tool_result').stdout)).toMatchObject({ cancel: true });
  });
});
