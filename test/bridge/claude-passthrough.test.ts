import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBridgePayload, type StopHookContext } from 'agent-hooks';
import { claudeDialect } from '../../src/dialects/claude.js';

// What Claude Code sent reaches a Claude Code hook behind the bridge as sent: its own transcript, working directory,
// permission mode and the fields we do not model.

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'claude', `${name}.json`), 'utf8')) as Record<string, unknown>;
const info = (eventName: string) => ({ eventName, workDir: '/elsewhere', hookName: 'h' });

describe('a Claude Code payload through the bridge', () => {
  it('keeps the agent’s transcript_path, cwd, permission_mode, prompt_id and effort', () => {
    const sent: Record<string, unknown> = { ...fixture('Stop'), permission_mode: 'acceptEdits' };
    const { ctx } = readBridgePayload('claude', sent);
    const payload = claudeDialect.payload(ctx, info('Stop')) as Record<string, unknown>;
    for (const field of ['transcript_path', 'cwd', 'permission_mode', 'prompt_id', 'effort', 'last_assistant_message', 'session_id']) {
      expect(payload[field], field).toEqual(sent[field]);
    }
    expect((ctx as StopHookContext).finalMessage).toBe('All done.');
    expect(claudeDialect.stringify!(payload).endsWith('}\n')).toBe(true);
  });

  it('keeps a subagent’s agent_id and agent_type, and PostToolUse’s duration_ms', () => {
    const sent: Record<string, unknown> = { ...fixture('PostToolUse'), agent_id: 'a1b2', agent_type: 'Explore', duration_ms: 42 };
    const { ctx } = readBridgePayload('claude', sent);
    const payload = claudeDialect.payload(ctx, info('PostToolUse')) as Record<string, unknown>;
    expect(payload).toMatchObject({ agent_id: 'a1b2', agent_type: 'Explore', duration_ms: 42, transcript_path: sent.transcript_path });
  });
});
