/**
 * The bridge standing in for a Gemini CLI hook: Gemini CLI's real payloads (captured from 0.61.0 into
 * fixtures/gemini/) read into contexts that carry what Gemini sent and nothing it did not, and the answers Gemini CLI
 * acted on in the end-to-end runs, written for those contexts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  bridgeAnswer,
  HookEvent,
  hookMdDialect,
  HookOutcome,
  INSTALL_TARGETS,
  readBridgePayload,
  type AnyHookContext,
  type BridgeAnswer,
  type CompactHookContext,
  type PromptHookContext,
  type SessionHookContext,
  type ToolHookContext,
} from 'agent-hooks';

const FIXTURES = fileURLToPath(new URL('./fixtures/gemini/', import.meta.url));
/** Every payload Gemini CLI wrote to a hook, by file name. */
const REAL: readonly [string, Record<string, unknown>][] = readdirSync(FIXTURES)
  .filter((n) => n.endsWith('.json'))
  .map((n) => [n, JSON.parse(readFileSync(join(FIXTURES, n), 'utf8')) as Record<string, unknown>] as [string, Record<string, unknown>])
  .filter(([, payload]) => typeof payload.hook_event_name === 'string');
const fixture = (name: string): Record<string, unknown> => REAL.find(([n]) => n === name)![1];
const read = (name: string): AnyHookContext => readBridgePayload('gemini', fixture(name)).ctx;

const answerOf = (outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer => bridgeAnswer('gemini', outcome, ctx, ctx.origin!.eventName);
const body = (answer: BridgeAnswer): unknown => JSON.parse(answer.stdout);

describe('Gemini CLI 0.61 payloads read by the bridge', () => {
  it('has a payload of every event the bridge installs for Gemini CLI, but Notification (headless runs never ask)', () => {
    const captured = new Set(REAL.map(([, p]) => p.hook_event_name));
    const installed = Object.keys(INSTALL_TARGETS.gemini.events).filter((name) => name !== 'Notification');
    expect([...captured].sort()).toEqual(installed.sort());
  });

  it('reads every payload into a context of its event, with what Gemini sent', () => {
    expect(REAL.length).toBeGreaterThan(0);
    for (const [name, payload] of REAL) {
      const { ctx, eventName } = readBridgePayload('gemini', payload);
      expect(eventName, name).toBe(payload.hook_event_name);
      expect(ctx.event, name).toBe(HookEvent.parse(eventName, 'gemini'));
      expect(ctx.state.sessionId, name).toBe(payload.session_id);
      expect(ctx.origin, name).toMatchObject({ agent: 'gemini', eventName, payload });
      // Only the payload's own fields (and the stop gate's answer under its HOOK.md name) count as sent.
      const own = new Set([...Object.keys(payload), 'final_message']);
      expect([...ctx.origin!.fields].filter((field) => !own.has(field)), name).toEqual([]);
      if ('toolCall' in ctx) expect([ctx.toolCall.name, ctx.toolCall.args], name).toEqual([payload.tool_name, payload.tool_input]);
      switch (ctx.event) {
        case 'PostToolUse':
          // The whole tool_response object: llmContent, returnDisplay and, when the tool failed, error.
          expect(ctx.execution?.result, name).toEqual(payload.tool_response);
          break;
        case 'Stop':
          expect([ctx.stopHookActive, ctx.finalMessage], name).toEqual([payload.stop_hook_active, payload.prompt_response]);
          break;
        case 'UserPromptSubmit':
          expect((ctx as PromptHookContext).prompt, name).toBe(payload.prompt);
          break;
        case 'SessionStart':
          expect((ctx as SessionHookContext).source, name).toBe(payload.source);
          break;
        case 'SessionEnd':
          expect((ctx as SessionHookContext).reason, name).toBe(payload.reason);
          break;
        case 'PreCompact':
          expect((ctx as CompactHookContext).trigger, name).toBe(payload.trigger);
          break;
      }
    }
  });

  it('invents no tool-use id: Gemini CLI sends none, and a HOOK.md hook is told so', () => {
    for (const name of ['BeforeTool.json', 'AfterTool.json', 'BeforeTool-read_file.json', 'AfterTool-read_file-error.json']) {
      const ctx = read(name);
      expect(ctx.origin!.fields.has('tool_use_id'), name).toBe(false);
      const sent = hookMdDialect.payload(ctx, { eventName: 'pre-tool-call', workDir: '/tmp/PROJECT', hookName: 'h' }) as Record<string, unknown>;
      expect(sent.tool_use_id, name).toBeNull();
      expect(sent.tool_input, name).toEqual(fixture(name).tool_input);
    }
  });
});

describe('the bridge’s answers to Gemini CLI 0.61, for its own payloads', () => {
  it('refuses a tool call with decision deny and the reason, which Gemini returns to the model as the tool’s error', () => {
    const ctx = read('BeforeTool.json');
    expect(body(answerOf(HookOutcome.block('E2E-DENY'), ctx))).toEqual({ decision: 'deny', reason: 'E2E-DENY' });
  });

  it('rewrites a call with the whole new input in hookSpecificOutput.tool_input: Gemini 0.61 replaces the arguments with it', () => {
    const ctx = read('BeforeTool.json') as ToolHookContext;
    const answer = answerOf(HookOutcome.proceed(ctx.withArgs({ ...ctx.toolCall.args, command: 'echo rewritten' })), ctx);
    expect(body(answer)).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'echo rewritten' } } });
  });

  it('holds the stop gate with decision deny: Gemini sends the reason as the next prompt, with stop_hook_active then true', () => {
    const ctx = read('AfterAgent.json');
    expect(body(answerOf(HookOutcome.block('say finished'), ctx))).toEqual({ decision: 'deny', reason: 'say finished' });
    expect(answerOf(HookOutcome.proceed(), read('AfterAgent-active.json')).stdout).toBe('');
  });

  it('gives context in hookSpecificOutput.additionalContext on SessionStart, BeforeAgent and AfterTool', () => {
    for (const name of ['SessionStart.json', 'BeforeAgent.json', 'AfterTool.json']) {
      const ctx = read(name);
      expect(body(answerOf(HookOutcome.proceed(undefined, { additionalContext: 'E2E-CONTEXT' }), ctx)), name).toEqual({
        hookSpecificOutput: { hookEventName: ctx.origin!.eventName, additionalContext: 'E2E-CONTEXT' },
      });
    }
  });
});
