import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, AgentState, ScriptedModel, ToolCall, ToolExecution, ToolHookContext, defineTool, type AgentWarning } from 'agent-hooks';
import { claudeDialect } from '../../src/dialects/claude.js';
import { configMatcher } from '../../src/config/config-matcher.js';
import { exited } from '../support/script-fixture.js';
import { toolMessages } from '../agent/support.js';
import { sandbox } from './support.js';

// Small Claude Code hooks of our own, written the way published ones are (python3 stdlib, bash + jq, node), run in
// our agent: each shows one rule Claude Code applies, and fails where we read the hook otherwise.

const setup = sandbox();
const has = (command: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const PYTHON = has('python3');
const JQ = has('jq');

/** A `Bash` tool that records its commands. */
const bash = (calls: unknown[]) =>
  defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => (calls.push(input.command), `ran ${input.command}`),
  });

const commands = (...list: string[]) =>
  new ScriptedModel([...list.map((command) => ({ toolCalls: [{ name: 'Bash', args: { command } }] })), 'done']);

const node = (body: string) =>
  `#!/usr/bin/env node\nlet data = '';\nprocess.stdin.on('data', (c) => (data += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(data);\n${body}\n});\n`;

/** An agent with the project's Claude Code settings, and the warnings it gives. */
async function agentWith(project: string, model: ScriptedModel, calls: unknown[]) {
  const warnings: AgentWarning[] = [];
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash(calls))
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true })
    .build();
  agent.events.on('warning', (w) => warnings.push(w));
  expect((await agent.ready()).problems).toEqual([]);
  return { agent, warnings };
}

const settings = (event: string, command: string, extra: Record<string, unknown> = {}, matcher = 'Bash') => ({
  hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command, timeout: 20, ...extra }] }] },
});

describe('Claude Code hooks, run as Claude Code runs them', () => {
  it.runIf(PYTHON)('a Stop gate reads the transcript file the payload names, as JSONL lines of Claude Code’s shape', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/stop_gate.py',
      `#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
path = data.get("transcript_path")
if not path:
    sys.exit(0)
last = ""
with open(path) as f:
    for raw in f:
        entry = json.loads(raw)
        # Claude Code's transcript holds other lines too (queue operations, last-prompt, attachments): a gate skips them.
        if entry["type"] not in ("user", "assistant"):
            assert entry["sessionId"]
            continue
        assert entry["uuid"] and entry["timestamp"] and entry["sessionId"]
        if entry["type"] == "assistant":
            texts = [b.get("text", "") for b in entry["message"]["content"] if b.get("type") == "text"]
            if texts:
                last = texts[-1]
if "tests pass" not in last:
    print(json.dumps({"decision": "block", "reason": "Run the tests before you stop."}))
`,
    );
    await write(project, '.claude/settings.json', settings('Stop', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/stop_gate.py', {}, ''));
    const model = new ScriptedModel(['done', 'all tests pass']);
    const { agent } = await agentWith(project, model, []);
    const result = await agent.run('fix it');
    expect(result.text).toBe('all tests pass');
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('Run the tests before you stop.');
  });

  it.runIf(JQ)('exit 1 with a JSON deny on stdout denies (bash + jq)', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/guard.sh',
      `#!/usr/bin/env bash
cmd=$(jq -r '.tool_input.command // empty')
if [[ "$cmd" == *"rm -rf"* ]]; then
  jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "rm -rf is not allowed"}}'
  exit 1
fi
`,
    );
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'));
    const calls: unknown[] = [];
    const model = commands('rm -rf build', 'ls');
    const { agent } = await agentWith(project, model, calls);
    await agent.run('clean');
    expect(calls).toEqual(['ls']);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('rm -rf is not allowed');
  });

  it('exit 2 with a JSON deny: the JSON reason wins over stderr (node)', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/guard.js',
      node(`  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'the JSON reason' } }));
  console.error('the stderr text');
  process.exitCode = 2;`),
    );
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js'));
    const calls: unknown[] = [];
    const model = commands('ls');
    const { agent } = await agentWith(project, model, calls);
    await agent.run('list');
    expect(calls).toEqual([]);
    const message = toolMessages(model.requests[1]!)[0]!.content;
    expect(message).toContain('the JSON reason');
    expect(message).not.toContain('the stderr text');
  });

  it('stdin ends with a newline: a set -euo pipefail script that reads it with read -r still guards', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/guard.sh',
      `#!/usr/bin/env bash
set -euo pipefail
read -r payload
case "$payload" in
  *'rm -rf'*) echo "no rm -rf" >&2; exit 2 ;;
esac
`,
    );
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'));
    const calls: unknown[] = [];
    const { agent, warnings } = await agentWith(project, commands('rm -rf /'), calls);
    await agent.run('clean');
    expect(calls).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('a hookSpecificOutput without hookEventName is ignored as Claude Code ignores it, with a warning', async () => {
    const { project, write, script } = await setup();
    await script('.claude/hooks/guard.js', node(`  console.log(JSON.stringify({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' } }));`));
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js'));
    const calls: unknown[] = [];
    const { agent, warnings } = await agentWith(project, commands('ls'), calls);
    await agent.run('list');
    expect(calls).toEqual(['ls']);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/hookEventName/);
  });

  it('a top-level decision other than approve or block is ignored, with a warning', async () => {
    const { project, write, script } = await setup();
    await script('.claude/hooks/guard.js', node(`  console.log(JSON.stringify({ decision: 'deny', reason: 'no' }));`));
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js'));
    const calls: unknown[] = [];
    const { agent, warnings } = await agentWith(project, commands('ls'), calls);
    await agent.run('list');
    expect(calls).toEqual(['ls']);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/only "approve" and "block"/);
  });

  it.runIf(PYTHON)('PostToolUse decision block keeps the result and puts the reason beside it', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/lint.py',
      `#!/usr/bin/env python3
import json, sys
json.load(sys.stdin)
print(json.dumps({"decision": "block", "reason": "lint found 2 problems"}))
`,
    );
    await write(project, '.claude/settings.json', settings('PostToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/lint.py'));
    const model = commands('make');
    const { agent } = await agentWith(project, model, []);
    await agent.run('build');
    const sent = JSON.stringify(model.requests[1]!.messages);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('ran make');
    expect(sent).toContain('lint found 2 problems');
  });

  it.runIf(PYTHON)('updatedToolOutput replaces the result: on Bash, given as Bash\'s output object', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/redact.py',
      `#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
assert isinstance(data.get("duration_ms"), int)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "[redacted]", "stderr": "", "interrupted": False, "isImage": False}}}))
`,
    );
    await write(project, '.claude/settings.json', settings('PostToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/redact.py'));
    const model = commands('cat .env');
    const { agent, warnings } = await agentWith(project, model, []);
    await agent.run('show');
    expect(warnings).toEqual([]);
    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('[redacted]');
  });

  it('a Stop hook’s additionalContext keeps the agent working, and the payload has last_assistant_message', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/more.js',
      node(`  if (!input.stop_hook_active && input.last_assistant_message === 'done') console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'also update the changelog' } }));`),
    );
    await write(project, '.claude/settings.json', settings('Stop', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/more.js', {}, ''));
    const model = new ScriptedModel(['done', 'changelog updated']);
    const { agent } = await agentWith(project, model, []);
    const result = await agent.run('ship');
    expect(result.text).toBe('changelog updated');
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('also update the changelog');
  });

  it('an async hook cannot block', async () => {
    const { project, write, script } = await setup();
    await script('.claude/hooks/slow.sh', '#!/bin/sh\ncat > /dev/null\necho "denied" >&2\nexit 2\n');
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/slow.sh', { async: true }));
    const calls: unknown[] = [];
    const { agent } = await agentWith(project, commands('ls'), calls);
    await agent.run('list');
    expect(calls).toEqual(['ls']);
  });

  it('hooks get CLAUDECODE=1 and the real working directory', async () => {
    const { project, write, script } = await setup();
    await script('.claude/hooks/env.js', node(`  require('fs').writeFileSync(process.env.CLAUDE_PROJECT_DIR + '/env.json', JSON.stringify({ claudecode: process.env.CLAUDECODE, cwd: input.cwd }));`));
    await write(project, '.claude/settings.json', settings('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/env.js'));
    const { agent } = await agentWith(project, commands('ls'), []);
    await agent.run('list');
    expect(JSON.parse(await readFile(join(project, 'env.json'), 'utf8'))).toEqual({ claudecode: '1', cwd: process.cwd() });
  });
});

describe('Claude Code’s events in our agent', () => {
  it('SessionStart fires with source compact after a compaction, and gets CLAUDE_ENV_FILE', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/restore.sh',
      `#!/usr/bin/env bash
set -euo pipefail
source_=$(cat | sed -n 's/.*"source":"\\([a-z]*\\)".*/\\1/p')
echo "$source_ \${CLAUDE_ENV_FILE:+env}" >> "$CLAUDE_PROJECT_DIR/starts.log"
echo "branch: main"
`,
    );
    await write(project, '.claude/settings.json', settings('SessionStart', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/restore.sh', {}, 'compact'));
    const model = commands('ls', 'pwd');
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(bash([]))
      .withCompaction({ maxMessages: 3 })
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true })
      .build();
    await agent.run('look around');
    expect((await readFile(join(project, 'starts.log'), 'utf8')).trim().split('\n')[0]).toBe('compact env');
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('branch: main');
  });
});

describe('Claude Code’s reading of an answer', () => {
  const state = AgentState.create({ sessionId: 's' });
  const call = ToolCall.create('Bash', { command: 'ls' }, 'c1');
  const hook = { name: 'h', failClosed: false };

  it('exit 2 on PermissionRequest decides nothing, and says so', () => {
    const decision = claudeDialect.interpret(exited(2, '', 'no'), ToolHookContext.permissionRequest(call, { state }), hook);
    expect(decision.kind).toBe('proceed');
    expect(decision.notes[0]?.code).toBe('exit-2-ignored');
  });

  it('permissionDecision on PermissionRequest is dropped with a warning; decision.behavior counts', () => {
    const ctx = ToolHookContext.permissionRequest(call, { state });
    const dropped = claudeDialect.interpret(exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', permissionDecision: 'deny' } })), ctx, hook);
    expect(dropped.kind).toBe('proceed');
    expect(dropped.notes[0]?.message).toMatch(/permissionDecision/);
    const denied = claudeDialect.interpret(exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } })), ctx, hook);
    expect(denied).toMatchObject({ kind: 'block', reason: 'no' });
  });

  it('permissionDecision "defer" asks, as an interactive Claude Code session does; it never lets the call through unasked', () => {
    const ctx = ToolHookContext.beforeToolUse(call, { state });
    const deferred = claudeDialect.interpret(exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer', permissionDecisionReason: 'a reviewer decides' } })), ctx, hook);
    expect(deferred).toMatchObject({ kind: 'ask', reason: 'a reviewer decides' });
  });

  it('a hookSpecificOutput naming another event is ignored, unless a top-level block stands beside it', () => {
    const ctx = ToolHookContext.beforeToolUse(call, { state });
    const other = claudeDialect.interpret(exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } })), ctx, hook);
    expect(other.kind).toBe('proceed');
    expect(other.notes).toHaveLength(1);
    const block = claudeDialect.interpret(exited(0, JSON.stringify({ decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'PostToolUse' } })), ctx, hook);
    expect(block).toMatchObject({ kind: 'block', reason: 'r' });
  });

  it('updatedMCPToolOutput counts for MCP tools only; updatedToolOutput is preferred', () => {
    const post = (name: string) => ToolHookContext.afterToolUse(ToolExecutionOf(name), { state });
    const both = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'a', updatedMCPToolOutput: 'b' } });
    expect((claudeDialect.interpret(exited(0, both), post('mcp__fs__read'), hook).ctx as ToolHookContext).execution?.result).toBe('a');
    const mcpOnly = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'b' } });
    expect((claudeDialect.interpret(exited(0, mcpOnly), post('mcp__fs__read'), hook).ctx as ToolHookContext).execution?.result).toBe('b');
    const plain = claudeDialect.interpret(exited(0, mcpOnly), post('Bash'), hook);
    expect(plain.ctx).toBeUndefined();
    expect(plain.notes).toHaveLength(1);
  });

  it('stdin is newline-terminated', () => {
    expect(claudeDialect.stringify!({ a: 1 })).toBe('{"a":1}\n');
  });

  it('a comma list matcher is a list of exact names', () => {
    const matcher = configMatcher('Edit, Write', 'PreToolUse', 'claude')!;
    const ctx = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, {}, 'c'), { state });
    expect(matcher.matches(ctx('Write'))).toBe(true);
    expect(matcher.matches(ctx('Edit'))).toBe(true);
    // As a regex, "Edit, Write" would match neither; as names, no longer name either.
    expect(matcher.matches(ctx('Editor'))).toBe(false);
    expect(matcher.matches(ctx('Edit, Write'))).toBe(false);
  });
});

function ToolExecutionOf(name: string): ToolExecution {
  return ToolExecution.success(ToolCall.create(name, {}, 'c2'), 'original', 3);
}
