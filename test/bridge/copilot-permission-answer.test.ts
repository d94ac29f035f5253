/**
 * The bridge's answer to Copilot CLI's permissionRequest, in the words Copilot CLI 1.0.102 reads there: `behavior`,
 * `message`, `interrupt` — never `permissionDecision`, which it ignores (the call would run).
 */
import { describe, expect, it } from 'vitest';
import { AgentState, HookOutcome, ToolCall, ToolHookContext } from '../../src/index.js';
import { copilotProfile } from '../../src/agents/copilot/profile.js';

const ctx = ToolHookContext.permissionRequest(ToolCall.create('bash', { command: 'rm -rf /' }, 'c1'), { state: AgentState.create({ sessionId: 's' }) });
const answer = (outcome: HookOutcome): unknown => {
  const written = copilotProfile.answer(outcome, ctx, 'permissionRequest');
  return written.stdout === '' ? undefined : JSON.parse(written.stdout);
};

describe('the bridge answers Copilot CLI’s permissionRequest', () => {
  it('a block is behavior deny with the reason as message, and exits 0', () => {
    expect(answer(HookOutcome.block('not here'))).toEqual({ behavior: 'deny', message: 'not here' });
    expect(copilotProfile.answer(HookOutcome.block('not here'), ctx, 'permissionRequest').exitCode).toBe(0);
  });

  it('a stop is a deny with interrupt, which ends Copilot’s run', () => {
    expect(answer(HookOutcome.stop('halt'))).toEqual({ behavior: 'deny', message: 'halt', interrupt: true });
  });

  it('a grant is behavior allow; an ask or a plain proceed writes nothing, leaving it to Copilot’s own rules', () => {
    expect(answer(HookOutcome.allow(ctx))).toEqual({ behavior: 'allow' });
    expect(answer(HookOutcome.ask('sure?'))).toBeUndefined();
    expect(answer(HookOutcome.proceed(ctx))).toBeUndefined();
  });
});
