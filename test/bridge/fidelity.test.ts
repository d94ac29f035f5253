import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeInputError, copilotDialect, discoverHooks, HookStack, hookMdDialect, readBridgePayload, runBridge, type StopHookContext, type ToolHookContext } from 'agent-hooks';
import { catchError } from '../support/catch-error.js';
import { tempDir, writeHook } from '../support/script-fixture.js';
import { copilotClaudeDialect } from '../../src/dialects/copilot-claude.js';

// A bridged context carries what the agent sent, mapped, and nothing else: no sample default, no invented field.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const info = { eventName: 'pre-agent-turn-stop', workDir: '/tmp/p', hookName: 'h' };

describe('payload fidelity through the bridge', () => {
  it('a Copilot stop gate gets no final message and no step count the agent never sent, and reads snake_case stop_hook_active', () => {
    const first = readBridgePayload('copilot', { sessionId: 's', timestamp: 1, cwd: '/tmp/p' }, 'agentStop');
    const stop = first.ctx as StopHookContext;
    expect(stop.finalMessage).toBeUndefined();
    expect(stop.stopHookActive).toBe(false);
    const payload = hookMdDialect.payload(stop, info) as Record<string, unknown>;
    expect(payload).toMatchObject({ final_message: null, step_count: null, stop_hook_active: null, stop_reason: null, session_id: 's' });

    const again = readBridgePayload('copilot', { sessionId: 's', stop_hook_active: true }, 'agentStop').ctx as StopHookContext;
    expect(again.stopHookActive).toBe(true);
    expect((hookMdDialect.payload(again, info) as Record<string, unknown>).stop_hook_active).toBe(true);
  });

  it('reads Copilot’s toolArgs as an object or as a JSON string', () => {
    for (const toolArgs of [{ command: 'ls' }, '{"command":"ls"}']) {
      const { ctx } = readBridgePayload('copilot', { sessionId: 's', toolName: 'bash', toolArgs }, 'preToolUse');
      expect((ctx as ToolHookContext).toolCall.args).toEqual({ command: 'ls' });
    }
  });

  it('keeps the payload as sent in ctx.origin, with the fields it had', () => {
    const payload = { session_id: 's', transcript_path: '/tmp/t.jsonl', permission_mode: 'plan', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const { ctx } = readBridgePayload('claude', payload);
    expect(ctx.origin?.agent).toBe('claude');
    expect(ctx.origin?.eventName).toBe('PreToolUse');
    expect(ctx.origin?.payload).toEqual(payload);
    expect(ctx.origin?.fields.has('tool_use_id')).toBe(false);
    expect((hookMdDialect.payload(ctx, { ...info, eventName: 'pre-tool-call' }) as Record<string, unknown>).tool_use_id).toBeNull();
    // A hook's copy keeps where it came from.
    expect((ctx as ToolHookContext).withArgs({ command: 'pwd' }).origin?.payload).toEqual(payload);
  });

  it('refuses a tool event without tool_name or tool_input, and a prompt without prompt, instead of inventing one', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['claude', { hook_event_name: 'PreToolUse', tool_name: 'Bash' }, 'tool_input'],
      ['claude', { hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } }, 'tool_name'],
      ['gemini', { hook_event_name: 'BeforeAgent' }, 'prompt'],
    ];
    for (const [agent, payload, field] of cases) {
      const error = catchError(() => readBridgePayload(agent as 'claude', payload));
      expect(error).toBeInstanceOf(BridgeInputError);
      expect((error as Error).message).toContain(field);
    }
  });

  it('a HOOK.md script run by the bridge receives null, not a sample, for what the agent left out', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const hooks = join(dir, '.agents', 'hooks');
    await writeHook(hooks, 'dump', `#!/bin/sh\ncat > "${dir}/stdin.json"\n`, { triggerName: 'pre-agent-turn-stop' });
    const { hooks: found } = await discoverHooks({ projectDir: dir, userDir: false, trust: 'all' });
    const stack = new HookStack().withAll(found);
    const result = await runBridge({ agent: 'claude', input: JSON.stringify({ session_id: 's', hook_event_name: 'Stop', stop_hook_active: false }), stack });
    expect(result.exitCode).toBe(0);
    const sentToScript = JSON.parse(await readFile(join(dir, 'stdin.json'), 'utf8')) as Record<string, unknown>;
    expect(sentToScript).toMatchObject({ session_id: 's', stop_hook_active: false, final_message: null, step_count: null, stop_reason: null });
  });
});

describe('a Claude-style hook behind the bridge', () => {
  it('gets Claude Code’s own payload — transcript_path, cwd, permission_mode, fields we do not model — with the rewritten input', async () => {
    const { claudeDialect } = await import('agent-hooks');
    const sent = { session_id: 's', transcript_path: '/home/u/.claude/projects/p/s.jsonl', cwd: '/work/p/src', permission_mode: 'acceptEdits', prompt_id: 'p1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };
    const { ctx } = readBridgePayload('claude', sent);
    const rewritten = (ctx as ToolHookContext).withArgs({ command: 'ls -a' });
    expect(claudeDialect.payload(rewritten, { eventName: 'PreToolUse', workDir: '/work/p', hookName: 'h' })).toEqual({ ...sent, tool_input: { command: 'ls -a' } });
  });
});

describe('our Copilot dialect writes what Copilot CLI 1.0 sends', () => {
  const fixture = async (name: string) => JSON.parse(await readFile(join(import.meta.dirname, 'fixtures', 'copilot', `${name}.json`), 'utf8')) as Record<string, unknown>;
  /** Each key with the JSON type of its value. */
  const shape = (payload: Record<string, unknown>) => Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v]));
  // Nothing Copilot sends is left out.
  const theirsOnly = new Set<string>();

  it.each(['preToolUse', 'postToolUse', 'agentStop', 'agentStop-continued', 'userPromptSubmitted', 'sessionStart', 'sessionEnd', 'permissionRequest', 'errorOccurred'])('%s: the same keys, with values of the same types', async (name) => {
    const sent = await fixture(name);
    const { ctx } = readBridgePayload('copilot', sent, name.replace(/-.*/, ''));
    const written = copilotDialect.payload(ctx, { eventName: name.replace(/-.*/, ''), workDir: '/tmp/PROJECT', hookName: 'h' }) as Record<string, unknown>;
    const expected = Object.fromEntries(Object.entries(shape(sent)).filter(([k]) => !theirsOnly.has(k)));
    // The camelCase stop flag is ours alone, for hooks written against Copilot's earlier payloads.
    const { stopHookActive: _older, ...ours } = shape(written);
    expect(ours).toEqual(expected);
    // In Copilot's order, so that a hook reading the raw text sees what it would.
    expect(Object.keys(written).filter((k) => k !== 'stopHookActive')).toEqual(Object.keys(sent).filter((k) => !theirsOnly.has(k)));
  });

  it.each(['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd', 'PermissionRequest'])(
    'a PascalCase %s in a Copilot file: Copilot’s Claude-compatible payload, the same keys in the same order with values of the same types',
    async (name) => {
      const sent = JSON.parse(await readFile(join(import.meta.dirname, 'fixtures', 'copilot', 'claude-compatible', `${name}.json`), 'utf8')) as Record<string, unknown>;
      const { ctx } = readBridgePayload('copilot', sent, name);
      const written = copilotClaudeDialect.payload(ctx, { eventName: name, workDir: '/tmp/PROJECT', hookName: 'h' }) as Record<string, unknown>;
      const expected = sent;
      expect(Object.keys(written)).toEqual(Object.keys(expected));
      expect(shape(written)).toEqual(shape(expected));
      for (const key of ['tool_name', 'source', 'stop_reason', 'reason', 'hookName', 'toolName', 'initial_prompt', 'prompt']) if (key in expected) expect(written[key], key).toEqual(expected[key]);
    },
  );
});
