import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AgentState,
  bridgeAnswer,
  claudeDialect,
  codexDialect,
  copilotDialect,
  cursorDialect,
  geminiDialect,
  HookOutcome,
  PromptHookContext,
  StopHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  vscodeDialect,
  type AnyHookContext,
  type BridgeAgent,
  type WireDialect,
} from 'agent-hooks';
import { exited } from '../support/script-fixture.js';

// Cline's answers are checked against Cline's own reading in test/bridge/cline.test.ts: it has no dialect here.
// OpenCode and Kilo run their hooks in a plugin: the bridge never answers them.
type DialectAgent = Exclude<BridgeAgent, 'cline' | 'opencode' | 'kilo'>;
const DIALECT: Record<DialectAgent, WireDialect> = {
  claude: claudeDialect,
  vscode: vscodeDialect,
  copilot: copilotDialect,
  gemini: geminiDialect,
  cursor: cursorDialect,
  codex: codexDialect,
  // Both answer in Claude Code's way.
  qwen: claudeDialect,
  droid: claudeDialect,
};
const state = AgentState.create({ sessionId: 's' });
const call = ToolCall.create('bash', { command: 'rm -rf /' }, 'c1');
const CONTEXTS: Record<string, () => AnyHookContext> = {
  PreToolUse: () => ToolHookContext.beforeToolUse(call, { state }),
  PostToolUse: () => ToolHookContext.afterToolUse(ToolExecution.success(call, 'done'), { state }),
  Stop: () => StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 1, state }),
  UserPromptSubmit: () => PromptHookContext.onSubmit('hi', { state }),
};
type Kind = 'proceed' | 'allow' | 'block' | 'ask' | 'stop';

const outcomeOf = (kind: Kind, ctx: AnyHookContext, reason: string): HookOutcome => {
  switch (kind) {
    case 'proceed':
      return HookOutcome.proceed();
    case 'allow':
      return HookOutcome.allow();
    case 'block':
      return HookOutcome.block(reason);
    case 'ask':
      return HookOutcome.ask(reason);
    case 'stop':
      return HookOutcome.stop(reason);
  }
  void ctx;
};

/** What each agent makes of our outcome, where its protocol has no exact equivalent. */
function expected(agent: BridgeAgent, event: string, kind: Kind): 'proceed' | 'block' | 'ask' | 'stop' {
  if (kind === 'proceed' || kind === 'allow') return 'proceed';
  // Copilot CLI 1.0.102 only logs an exit 2 on userPromptSubmitted, and has no other way to refuse a prompt.
  if (agent === 'copilot' && event === 'UserPromptSubmit' && (kind === 'block' || kind === 'stop')) return 'proceed';
  // Nor does it block on postToolUse: the reason takes the output's place (modifiedResult), for a stop too.
  if (agent === 'copilot' && event === 'PostToolUse' && (kind === 'block' || kind === 'stop')) return 'proceed';
  // Claude Code keeps a PostToolUse result it is told to block, with the reason beside it for the model.
  if (agent === 'claude' && event === 'PostToolUse' && kind === 'block') return 'proceed';
  // Codex refuses ask and continue: false on PreToolUse, so both are a deny there.
  if (agent === 'codex' && event === 'PreToolUse' && (kind === 'ask' || kind === 'stop')) return 'block';
  // Nor can it halt a run from PostToolUse: continue: false there replaces the output, as a block does.
  if (agent === 'codex' && event === 'PostToolUse' && kind === 'stop') return 'block';
  if (kind === 'ask') {
    if (event !== 'PreToolUse') return agent === 'gemini' ? 'block' : 'proceed';
    return agent === 'gemini' ? 'block' : 'ask';
  }
  if (kind === 'stop') {
    if (agent === 'copilot') return 'block';
    if (agent === 'cursor') return event === 'Stop' ? 'proceed' : event === 'UserPromptSubmit' ? 'block' : 'stop';
    return 'stop';
  }
  return 'block';
}


describe('bridge answers', () => {
  it('read back through each agent’s own dialect, decide what our stack decided', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<DialectAgent>('claude', 'vscode', 'copilot', 'gemini', 'cursor', 'codex'),
        fc.constantFrom(...Object.keys(CONTEXTS)),
        fc.constantFrom<Kind>('proceed', 'allow', 'block', 'ask', 'stop'),
        fc.stringMatching(/^[A-Za-z][A-Za-z ,.]{0,30}[a-z]$/),
        (agent, event, kind, reason) => {
          const dialect = DIALECT[agent];
          // The context as the bridge reads it: sent by the agent, which words what its hooks decide itself.
          const ctx = CONTEXTS[event]!().withOrigin({ agent, eventName: dialect.eventName(event as AnyHookContext['event']), payload: {}, fields: new Set() });
          const answer = bridgeAnswer(agent, outcomeOf(kind, ctx, reason), ctx, dialect.eventName(ctx.event));
          const decision = dialect.interpret(exited(answer.exitCode, answer.stdout, answer.stderr), ctx, { name: 'bridge', failClosed: false });
          const ignored = agent === 'copilot' && event === 'UserPromptSubmit' && (kind === 'block' || kind === 'stop');
          expect(decision.notes.map((n) => n.code)).toEqual(ignored ? ['exit-2-ignored'] : []);
          const want = expected(agent, event, kind);
          expect(decision.kind).toBe(want);
          if (want === kind && want !== 'proceed') expect(decision.reason).toBe(reason);
          // Codex takes no grant without a rewrite on PreToolUse.
          if (kind === 'allow' && event === 'PreToolUse' && agent !== 'codex') expect(decision.granted).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('carry a rewritten tool input, additional context and a system message', () => {
    for (const agent of ['claude', 'vscode', 'copilot', 'gemini', 'cursor', 'codex'] as const) {
      const ctx = CONTEXTS.PreToolUse!();
      const outcome = HookOutcome.proceed((ctx as ToolHookContext).withArgs({ command: 'ls' }), {
        additionalContext: 'read-only checkout',
        systemMessage: 'rewrote rm -rf to ls',
      });
      const dialect = DIALECT[agent];
      const answer = bridgeAnswer(agent, outcome, ctx, dialect.eventName(ctx.event));
      const decision = dialect.interpret(exited(answer.exitCode, answer.stdout, answer.stderr), ctx, { name: 'b', failClosed: false });
      expect((decision.ctx as ToolHookContext).toolCall.args, agent).toEqual({ command: 'ls' });
      // Gemini CLI ignores additionalContext on BeforeTool (it reads it from AfterTool, BeforeAgent and SessionStart).
      if (agent !== 'cursor' && agent !== 'gemini') expect(decision.additionalContext, agent).toEqual(['read-only checkout']);
      if (agent !== 'copilot') expect(decision.systemMessage, agent).toBe('rewrote rm -rf to ls');
    }
  });

  it('answer with Claude Code’s deny JSON for a blocked PreToolUse', () => {
    const ctx = CONTEXTS.PreToolUse!();
    const answer = bridgeAnswer('claude', HookOutcome.block('Destructive command'), ctx, 'PreToolUse');
    expect(answer.exitCode).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Destructive command' },
    });
    expect(bridgeAnswer('claude', HookOutcome.proceed(), ctx, 'PreToolUse')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

describe('a replaced Bash result, written back to Claude Code', () => {
  it('goes back as Bash\'s output object, which Claude Code 2.1.332 takes (it ignores a string), the fields it sent kept', () => {
    const sent = { stdout: 'secret', stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    const ctx = ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create('Bash', { command: 'cat .env' }, 't1'), sent));
    const outcome = HookOutcome.proceed(ctx.withExecution(ToolExecution.success(ctx.toolCall, '[redacted]')));
    const answer = JSON.parse(bridgeAnswer('claude', outcome, ctx, 'PostToolUse').stdout) as { hookSpecificOutput: { updatedToolOutput: unknown } };
    expect(answer.hookSpecificOutput.updatedToolOutput).toEqual({ ...sent, stdout: '[redacted]', stderr: '' });
    // Another tool's result goes back as it is.
    const fetch = ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create('mcp__docs__fetch', { url: 'a' }, 't2'), 'text'));
    const other = JSON.parse(bridgeAnswer('claude', HookOutcome.proceed(fetch.withExecution(ToolExecution.success(fetch.toolCall, 'x'))), fetch, 'PostToolUse').stdout) as { hookSpecificOutput: { updatedToolOutput: unknown } };
    expect(other.hookSpecificOutput.updatedToolOutput).toBe('x');
  });

  it('goes back as Read\'s output object for a text file, which Claude Code 2.1.332 takes (it ignores a string), the fields it sent kept', () => {
    const sent = { type: 'text', file: { filePath: '/p/.env', content: 'KEY=secret\nOTHER=1\n', numLines: 2, startLine: 1, totalLines: 2 } };
    const ctx = ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create('Read', { file_path: '/p/.env' }, 't1'), sent));
    const outcome = HookOutcome.proceed(ctx.withExecution(ToolExecution.success(ctx.toolCall, '[redacted]')));
    const answer = JSON.parse(bridgeAnswer('claude', outcome, ctx, 'PostToolUse').stdout) as { hookSpecificOutput: { updatedToolOutput: unknown } };
    expect(answer.hookSpecificOutput.updatedToolOutput).toEqual({ type: 'text', file: { ...sent.file, content: '[redacted]', numLines: 1 } });
  });
});
