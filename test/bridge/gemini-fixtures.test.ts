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
  type ModelHookContext,
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
      // Only the payload's own fields count as sent, and what is read from them: the stop gate's answer under its
      // HOOK.md name, the model call's request and answer from llm_request and llm_response.
      const own = new Set([...Object.keys(payload), 'final_message', ...(payload.llm_request !== undefined ? ['model_name', 'request', 'response'] : [])]);
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
        case 'BeforeModel':
        case 'BeforeToolSelection':
        case 'AfterModel': {
          const sent = payload.llm_request as { model: string; messages: { role: string; content: string }[]; config: Record<string, number> };
          const model = ctx as ModelHookContext;
          expect(model.modelName, name).toBe(sent.model);
          expect(model.request.messages.map((m) => [m.role === 'assistant' ? 'model' : m.role, m.content]), name).toEqual(sent.messages.map((m) => [m.role, m.content]));
          // Gemini CLI sends no system prompt and no tools; topK is Gemini's own, and goes back as it came.
          expect([model.request.system, model.request.tools], name).toEqual([undefined, []]);
          expect(model.request.settings, name).toEqual({ temperature: sent.config.temperature, topP: sent.config.topP });
          if (model.isAfterModel()) expect([model.response.text, model.response.toolCalls], name).toEqual([(payload.llm_response as { text: string }).text, []]);
          break;
        }
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

describe('the bridge’s answers to Gemini CLI 0.61 on its model events', () => {
  const before = () => read('BeforeModel.json') as ModelHookContext<'BeforeModel'>;
  const messages = (ctx: ModelHookContext) => (ctx.origin!.payload.llm_request as { messages: { role: string; content: string }[] }).messages;

  it('writes nothing when the hooks changed nothing', () => {
    for (const name of ['BeforeModel.json', 'BeforeToolSelection.json', 'AfterModel.json', 'AfterModel-functionCall.json']) {
      const ctx = read(name);
      expect(answerOf(HookOutcome.proceed(ctx), ctx).stdout, name).toBe('');
    }
  });

  it('rewrites the request with hookSpecificOutput.llm_request: every text message, in order, as Gemini CLI lays them over its own', () => {
    const ctx = before();
    const rewritten = ctx.withMessages([...ctx.request.messages, { role: 'system', content: 'Answer in French.' }]);
    expect(body(answerOf(HookOutcome.proceed(rewritten), ctx))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { messages: [...messages(ctx), { role: 'system', content: 'Answer in French.' }] } },
    });
  });

  it('rewrites the settings with all four of Gemini’s: one left out would be cleared, so topK goes back as it came', () => {
    const ctx = before();
    expect(body(answerOf(HookOutcome.proceed(ctx.withSettings({ temperature: 0 })), ctx))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { config: { temperature: 0, topP: 0.95, topK: 64 } } },
    });
  });

  it('answers instead of the model with decision deny and llm_response, the one form Gemini CLI honours', () => {
    const ctx = before();
    expect(body(answerOf(HookOutcome.proceed(ctx.withResponse('From the cache.')), ctx))).toEqual({
      decision: 'deny',
      reason: 'A hook answered instead of the model.',
      hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: { text: 'From the cache.', candidates: [{ content: { role: 'model', parts: ['From the cache.'] }, finishReason: 'STOP', index: 0 }] } },
    });
  });

  it('a block is a refusal whose reason is the answer, as in the runtime: a deny with the reason as its llm_response too', () => {
    const ctx = before();
    expect(body(answerOf(HookOutcome.block('No model calls on Fridays.'), ctx))).toMatchObject({
      decision: 'deny',
      reason: 'No model calls on Fridays.',
      hookSpecificOutput: { llm_response: { candidates: [{ content: { parts: ['No model calls on Fridays.'] } }] } },
    });
  });

  it('tells the user what Gemini CLI’s answer cannot carry: a system prompt, an answer’s tool calls', () => {
    const ctx = before();
    expect(body(answerOf(HookOutcome.proceed(ctx.withSystem('Be terse.')), ctx))).toEqual({
      systemMessage: 'agent-hooks could not give Gemini CLI the system prompt (Gemini CLI gives its hooks none to change).',
    });
    const calls = body(answerOf(HookOutcome.proceed(ctx.withResponse({ text: 'Running.', toolCalls: [{ name: 'run_shell_command', args: {} }] })), ctx)) as Record<string, unknown>;
    expect(calls.systemMessage).toMatch(/tool calls of the answer a hook gave \(run_shell_command\): a Gemini CLI hook's answer is text only/);
  });

  it('narrows the tools with hookSpecificOutput.toolConfig, in Gemini’s capitals', () => {
    const ctx = read('BeforeToolSelection.json') as ModelHookContext<'BeforeToolSelection'>;
    expect(body(answerOf(HookOutcome.proceed(ctx.withToolConfig({ mode: 'any', allowedFunctionNames: ['read_file'] })), ctx))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } },
    });
    expect(body(answerOf(HookOutcome.proceed(ctx.withToolConfig({ mode: 'none' })), ctx))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'NONE', allowedFunctionNames: [] } },
    });
  });

  it('a selection that allows no tool goes as NONE (an empty list is every tool to Gemini), and the user hears why when Gemini sent no tools', () => {
    const ctx = read('BeforeToolSelection.json') as ModelHookContext<'BeforeToolSelection'>;
    const answer = body(answerOf(HookOutcome.proceed(ctx.allowTools('read_file')), ctx)) as Record<string, unknown>;
    expect(answer.hookSpecificOutput).toEqual({ hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'NONE', allowedFunctionNames: [] } });
    expect(answer.systemMessage).toMatch(/Gemini CLI sends no list of the tools it offers.*withToolConfig/);
  });

  it('rewrites a chunk with hookSpecificOutput.llm_response, keeping what Gemini sent of it but its text', () => {
    const ctx = read('AfterModel.json') as ModelHookContext<'AfterModel'>;
    const sent = ctx.origin!.payload.llm_response as Record<string, unknown>;
    expect(body(answerOf(HookOutcome.proceed(ctx.withText('NE NOW.')), ctx))).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { ...sent, text: 'NE NOW.', candidates: [{ ...(sent.candidates as object[])[0], content: { role: 'model', parts: ['NE NOW.'] } }] } },
    });
  });

  it('leaves a chunk without text alone, for replacing it would drop its function calls, and says so', () => {
    const ctx = read('AfterModel-functionCall.json') as ModelHookContext<'AfterModel'>;
    expect(body(answerOf(HookOutcome.proceed(ctx.withText('[checked]')), ctx))).toEqual({
      systemMessage: expect.stringContaining('the text a hook gave a chunk that has none'),
    });
  });

  it('a block of an answer replaces the chunk with the reason: Gemini CLI cannot ask the model again, and its deny would show the chunk', () => {
    const ctx = read('AfterModel-functionCall.json') as ModelHookContext<'AfterModel'>;
    expect(body(answerOf(HookOutcome.block('That command is not allowed.'), ctx))).toMatchObject({
      hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { text: 'That command is not allowed.', candidates: [{ content: { role: 'model', parts: ['That command is not allowed.'] }, finishReason: 'STOP' }] } },
    });
  });

  it('a stop is continue: false, which Gemini CLI reads on BeforeModel and AfterModel, not on BeforeToolSelection (the user is told)', () => {
    for (const name of ['BeforeModel.json', 'AfterModel.json']) {
      expect(body(answerOf(HookOutcome.stop('budget spent'), read(name))), name).toEqual({ continue: false, stopReason: 'budget spent' });
    }
    expect(body(answerOf(HookOutcome.stop('budget spent'), read('BeforeToolSelection.json')))).toEqual({
      continue: false,
      stopReason: 'budget spent',
      systemMessage: 'agent-hooks could not give Gemini CLI the stop (it reads none on BeforeToolSelection); it goes on.',
    });
  });
});
