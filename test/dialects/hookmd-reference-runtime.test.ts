import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  AgentState,
  defineTool,
  discoverHooks,
  hookStackOf,
  ScriptedModel,
  SessionHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolHookContext,
} from 'agent-hooks';
import { hookMdDialect } from '../../src/dialects/hookmd.js';
import { pythonJsonDumps, pythonJsonNumber } from '../../src/dialects/internal/python-json.js';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

// Hooks written in the style of the format's reference examples: shell scripts that read the event by grepping the
// bytes Python's json.dumps writes, never by parsing JSON.

const SECURITY_GUARD = `#!/bin/bash
event_data=$(cat)
command=$(echo "$event_data" | grep -o '"command": "[^"]*"' | head -1 | cut -d'"' -f4)
for pattern in "rm -rf /" "mkfs" "dd if=/dev/zero"; do
  if echo "$command" | grep -qF "$pattern"; then
    echo "Dangerous command blocked: $pattern would destroy the system" >&2
    exit 2
  fi
done
exit 0
`;

const SESSION_NOTIFIER = `#!/bin/bash
event_data=$(cat)
session_id=$(echo "$event_data" | grep -o '"session_id": "[^"]*"' | head -1 | cut -d'"' -f4)
work_dir=$(echo "$event_data" | grep -o '"work_dir": "[^"]*"' | head -1 | cut -d'"' -f4)
echo "ended $session_id in $work_dir" >> "$work_dir/session.log"
echo "Session logged: $session_id" >&2
exit 0
`;

const RECORDER = `#!/bin/sh
cat > "$AGENT_HOOKS_PROJECT_DIR/payload-$(date +%s%N).json"
exit 0
`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(hooks: Record<string, { frontmatter: string; script: string }>): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-reference-');
  cleanups.push(cleanup);
  for (const [name, { frontmatter, script }] of Object.entries(hooks)) {
    const folder = join(dir, '.agents', 'hooks', name);
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: A hook in the reference examples' style.\n${frontmatter}\n---\n# ${name}\n`);
    await writeExecutable(join(folder, 'scripts', 'run.sh'), script);
  }
  return dir;
}

const guardFrontmatter = 'trigger: pre-tool-call\nmatcher:\n  tool: Shell\n  pattern: "rm -rf /|mkfs|dd if=/dev/zero"\ntimeout: 5000\npriority: 999';

const python = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe('the HOOK.md payload as bytes', () => {
  it("is written as Python's json.dumps writes it: ', ' and ': ', non-ASCII escaped as \\uXXXX", () => {
    const ctx = ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command: 'echo café 😀', n: 3, list: [1, 'a'], empty: {} }, 'call_1'), {
      state: AgentState.create({ sessionId: 'sess-1' }),
    });
    const payload = hookMdDialect.payload(ctx, { eventName: 'pre-tool-call', workDir: '/p', hookName: 'g' });
    const bytes = hookMdDialect.stringify!(payload);
    expect(bytes).toContain('"tool_input": {"command": "echo caf\\u00e9 \\ud83d\\ude00", "n": 3, "list": [1, "a"], "empty": {}}');
    expect(bytes).toMatch(/^\{"event_type": "pre-tool-call", "timestamp": "[^"]+", "session_id": "sess-1", "work_dir": "\/p", "context": \{\}, /);
    expect(JSON.parse(bytes)).toEqual(JSON.parse(JSON.stringify(payload)));
  });

  it('writes numbers as Python writes its ints and floats, and leaves out what JSON.stringify leaves out', () => {
    expect([1, -0, 2.5, 1e-5, 0.0001, 1.5e-7, 1e21, 0.1].map(pythonJsonNumber)).toEqual(['1', '0', '2.5', '1e-05', '0.0001', '1.5e-07', '1000000000000000000000', '0.1']);
    expect(pythonJsonDumps({ a: undefined, b: [undefined, () => 1], c: new Date(0), d: '\u007f\t"\\/' })).toBe(
      '{"b": [null, null], "c": "1970-01-01T00:00:00.000Z", "d": "\\u007f\\t\\"\\\\/"}',
    );
    expect(() => pythonJsonDumps({ big: 1n })).toThrow(TypeError);
  });

  it.runIf(python)('are the bytes python3 writes for the same event, sent to a real process', async () => {
    const dir = await project({ recorder: { frontmatter: 'trigger: pre-tool-call', script: RECORDER } });
    const found = await discoverHooks({ projectDir: dir, userDir: false, trust: 'all' });
    expect(found.problems).toEqual([]);
    const stack = hookStackOf(found.hooks);
    await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command: 'ls "ö" \n\u2028', depth: { a: [1.5, null, true] } }, 'c1')));
    const files = (await import('node:fs')).readdirSync(dir).filter((f) => f.startsWith('payload-'));
    expect(files).toHaveLength(1);
    const path = join(dir, files[0]!);
    const sent = await readFile(path, 'utf8');
    const rewritten = execFileSync('python3', ['-c', 'import json,sys; sys.stdout.write(json.dumps(json.load(open(sys.argv[1]))))', path], { encoding: 'utf8' });
    expect(sent).toBe(rewritten);
  });
});

describe('the payload fields the spec lists', () => {
  const payload = (ctx: Parameters<typeof hookMdDialect.payload>[0], eventName: string) =>
    hookMdDialect.payload(ctx, { eventName, workDir: '/p', hookName: 'h' }) as Record<string, unknown>;

  it('pre-session carries model and args; post-session duration_seconds, total_steps and exit_reason', () => {
    expect(payload(SessionHookContext.onStart(), 'pre-session')).toMatchObject({ model: null, args: {}, session_id: expect.any(String) });
    const bridged = SessionHookContext.onStart().withOrigin({ agent: 'claude', eventName: 'SessionStart', payload: { model: 'kimi-latest' }, fields: new Set(['model']) });
    expect(payload(bridged, 'pre-session')).toMatchObject({ model: 'kimi-latest', args: {} });
    const end = payload(SessionHookContext.onEnd({ reason: 'user_exit' }), 'post-session');
    expect(end).toMatchObject({ duration_seconds: null, total_steps: 0, exit_reason: 'user_exit' });
    expect(Object.keys(end)).toEqual(expect.arrayContaining(['duration_seconds', 'total_steps', 'exit_reason']));
  });

  it('pre-subagent and post-subagent carry subagent_name, subagent_type and task_description', () => {
    const start = payload(SubagentHookContext.onStart({ name: 'code-reviewer', type: 'coder', task: 'Review auth' }), 'pre-subagent');
    expect(start).toMatchObject({ subagent_name: 'code-reviewer', subagent_type: 'coder', task_description: 'Review auth' });
    const stop = payload(StopHookContext.subagentStop({ stopReason: 'no_tool_calls', subagentName: 'code-reviewer', subagentType: 'coder' }), 'post-subagent');
    expect(stop).toMatchObject({ subagent_name: 'code-reviewer', subagent_type: 'coder', task_description: null });
  });

  it('session_id is a string outside a session too', () => {
    const ctx = ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command: 'ls' }));
    expect(typeof payload(ctx, 'pre-tool-call').session_id).toBe('string');
  });
});

describe("a guard in the reference examples' style", () => {
  const shell = (calls: unknown[]) =>
    defineTool({ name: 'Shell', input: z.object({ command: z.string() }), execute: (input) => (calls.push(input.command), 'ok') });

  it('blocks mkfs and dd if=/dev/zero and allows ls, run by an agent', async () => {
    const dir = await project({ 'block-dangerous-commands': { frontmatter: guardFrontmatter, script: SECURITY_GUARD } });
    const calls: unknown[] = [];
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'Shell', args: { command: 'mkfs.ext4 /dev/sda1' } }] },
      { toolCalls: [{ name: 'Shell', args: { command: 'dd if=/dev/zero of=/dev/sda' } }] },
      { toolCalls: [{ name: 'Shell', args: { command: 'ls -la' } }] },
      'done',
    ]);
    const agent = AgentBuilder.new().withModel(model).withTools(shell(calls)).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const result = await agent.run('clean up');
    expect(result.status).toBe('completed');
    expect(calls).toEqual(['ls -la']);
    const told = JSON.stringify(result.messages);
    expect(told).toContain('Dangerous command blocked: mkfs would destroy the system');
    expect(told).toContain('Dangerous command blocked: dd if=/dev/zero would destroy the system');
  });

  it('logs a session as the notifier example does, with the session id it greps for', async () => {
    const dir = await project({ 'session-notify': { frontmatter: 'trigger: post-session\nasync: true\npriority: 50', script: SESSION_NOTIFIER } });
    const agent = AgentBuilder.new().withModel(new ScriptedModel(['hi'])).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const session = agent.session({ id: 'sess-abc123' });
    await session.run('hello');
    await session.close();
    await agent.drain();
    let log = '';
    for (let i = 0; i < 50 && log === ''; i++) {
      log = await readFile(join(dir, 'session.log'), 'utf8').catch(() => '');
      if (log === '') await new Promise((r) => setTimeout(r, 100));
    }
    expect(log.trim()).toBe(`ended sess-abc123 in ${dir}`);
  });
});

describe('the model and the length of a session, from our own agent', () => {
  it('pre-session carries the model the agent talks to; post-session how long the session lasted, in whole seconds', async () => {
    const dir = await project({
      'record-start': { frontmatter: 'trigger: pre-session', script: RECORDER },
      'record-end': { frontmatter: 'trigger: post-session', script: RECORDER },
    });
    const agent = AgentBuilder.new().withModel(new ScriptedModel(['hi'])).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const session = agent.session({ id: 'sess-len' });
    await session.run('hello');
    await new Promise((r) => setTimeout(r, 1100));
    await session.close();
    const { readdir } = await import('node:fs/promises');
    const payloads = await Promise.all(
      (await readdir(dir)).filter((f) => f.startsWith('payload-')).map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as Record<string, unknown>),
    );
    const start = payloads.find((p) => p.hook_event_name === 'pre-session' || p.event_type === 'pre-session' || 'args' in p);
    const end = payloads.find((p) => 'duration_seconds' in p);
    expect(start).toMatchObject({ model: 'scripted', args: {} });
    expect(end?.duration_seconds).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(end?.duration_seconds)).toBe(true);
  });
});
