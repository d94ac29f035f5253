import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning } from 'agent-hooks';
import { toolMessages } from '../agent/support.js';
import { sandbox } from './support.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const setup = sandbox();

/** A `bash` tool that records what it was called with. */
const bash = (calls: unknown[]) =>
  defineTool({
    name: 'bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string(), description: z.string().optional() }),
    execute: (input) => (calls.push(input), `ran ${input.command}`),
  });

/** A model that calls `bash` with each command in turn, one per step, then answers 'done'. */
const commands = (...list: string[]) =>
  new ScriptedModel([...list.map((command) => ({ toolCalls: [{ name: 'bash', args: { command } }] })), 'done']);

/** A Node script that reads the event from stdin and runs `body` with it as `input`. */
const node = (body: string) =>
  `#!/usr/bin/env node\nlet data = '';\nprocess.stdin.on('data', (c) => (data += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(data);\n${body}\n});\n`;

describe('hooks written for other agents, in our agent', () => {
  it('a Claude Code script that denies rm -rf through hookSpecificOutput blocks the same call here', async () => {
    const { project, write, script } = await setup();
    await script(
      '.claude/hooks/guard.js',
      node(`  require('fs').appendFileSync(process.env.CLAUDE_PROJECT_DIR + '/seen.log', input.hook_event_name + ' ' + input.tool_name + '\\n');
  if (/rm -rf/.test(input.tool_input.command)) {
    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Destructive command blocked by policy' } }));
  }`),
    );
    await write(project, '.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash|bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js', timeout: 10 }] }] },
    });
    const calls: unknown[] = [];
    const model = commands('rm -rf /', 'ls');
    const agent = AgentBuilder.new().withModel(model).withTools(bash(calls)).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true }).build();
    expect((await agent.ready()).problems).toEqual([]);
    const result = await agent.run('clean up');
    expect(result.status).toBe('completed');
    expect(calls).toEqual([{ command: 'ls' }]);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('Destructive command blocked by policy');
    expect(await readFile(join(project, 'seen.log'), 'utf8')).toBe('PreToolUse bash\nPreToolUse bash\n');
  });

  it('a Copilot preToolUse hook that exits 1 blocks the call (Copilot fails closed)', async () => {
    const { project, write, script } = await setup();
    await script('hooks/broken.sh', '#!/bin/sh\ncat > /dev/null\necho "jq: error" >&2\nexit 1\n');
    await write(project, '.github/hooks/policy.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: './hooks/broken.sh', timeoutSec: 10 }] } });
    const calls: unknown[] = [];
    const model = commands('ls');
    const warnings: AgentWarning[] = [];
    const agent = AgentBuilder.new().withModel(model).withTools(bash(calls)).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, copilot: true }).build();
    agent.events.on('warning', (w) => warnings.push(w));
    await agent.run('list');
    expect(calls).toEqual([]);
    // As Copilot CLI tells its model: that the hook errored, not its stderr, which the user is told.
    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toContain('hook errored');
    expect(told).not.toContain('jq: error');
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/exited with code 1: jq: error/);
  });

  it('a Copilot preToolUse hook that exits 2 denies the call, and the model is told "hook exited with code 2", not its stderr', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/policy.json', { version: 1, hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo SECRET-REASON >&2; exit 2' }] } });
    const calls: unknown[] = [];
    const model = commands('ls');
    const agent = AgentBuilder.new().withModel(model).withTools(bash(calls)).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, copilot: true }).build();
    await agent.run('list');
    expect(calls).toEqual([]);
    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toMatch(/hook exited with code 2/);
    expect(told).not.toContain('SECRET-REASON');
  });

  it('a Copilot hook runs in its cwd, relative to the project, with its env', async () => {
    const { project, write, script } = await setup();
    await script('hooks/where.sh', '#!/bin/sh\ncat > /dev/null\necho "$(pwd) $LEVEL" > "$AGENT_HOOKS_PROJECT_DIR/where.log"\n');
    await write(project, '.github/hooks/policy.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: './where.sh', cwd: 'hooks', env: { LEVEL: 'strict' } }] } });
    const agent = AgentBuilder.new().withModel(commands('ls')).withTools(bash([])).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, copilot: true }).build();
    await agent.run('list');
    expect(await readFile(join(project, 'where.log'), 'utf8')).toBe(`${join(project, 'hooks')} strict\n`);
  });

  it('a Copilot hook gets camelCase input with toolArgs as an object, as Copilot CLI 1.0 sends it, and its modifiedArgs reach the tool', async () => {
    const { project, write, script } = await setup();
    await script(
      'hooks/rewrite.js',
      node(`  const args = input.toolArgs;
  console.log(JSON.stringify({ permissionDecision: 'allow', modifiedArgs: { command: args.command + ' --dry-run' } }));`),
    );
    await write(project, '.github/hooks/policy.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'node hooks/rewrite.js', matcher: 'bash' }] } });
    const calls: unknown[] = [];
    const agent = AgentBuilder.new().withModel(commands('make')).withTools(bash(calls)).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, copilot: true }).build();
    await agent.run('build');
    expect(calls).toEqual([{ command: 'make --dry-run' }]);
  });

  it('a VS Code hook runs its linux command here, not the generic one', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/format.json', {
      hooks: {
        PostToolUse: [
          { type: 'command', command: 'cat > /dev/null; echo generic >> ran.log', linux: 'cat > /dev/null; echo linux >> ran.log', osx: 'echo osx >> ran.log', windows: 'echo windows >> ran.log' },
        ],
      },
    });
    const agent = AgentBuilder.new().withModel(commands('ls')).withTools(bash([])).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, vscode: true, platform: 'linux' }).build();
    await agent.run('list');
    expect(await readFile(join(project, 'ran.log'), 'utf8')).toBe('linux\n');
  });

  it('a Gemini CLI hook’s tool_input replaces the arguments, as Gemini CLI 0.61 does', async () => {
    const { project, write, script } = await setup();
    await script('hooks/flags.js', node(`  console.log(JSON.stringify({ decision: 'allow', hookSpecificOutput: { tool_input: { command: input.tool_input.command + ' -la' } } }));`));
    await write(project, '.gemini/settings.json', { hooks: { BeforeTool: [{ matcher: 'ba.h', hooks: [{ type: 'command', command: 'node hooks/flags.js', timeout: 10000 }] }] } });
    const calls: unknown[] = [];
    const model = new ScriptedModel([{ toolCalls: [{ name: 'bash', args: { command: 'ls', description: 'list files' } }] }, 'done']);
    const agent = AgentBuilder.new().withModel(model).withTools(bash(calls)).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true }).build();
    await agent.run('list');
    expect(calls).toEqual([{ command: 'ls -la' }]);
  });

  it('a Cursor stop hook keeps the agent working with its followup_message, up to its loop_limit', async () => {
    const { project, write } = await setup();
    await write(project, '.cursor/hooks.json', {
      version: 1,
      hooks: { stop: [{ command: 'cat > /dev/null; echo \'{"followup_message":"Run the tests too."}\'', loop_limit: 2 }] },
    });
    const model = new ScriptedModel(() => 'done');
    const agent = AgentBuilder.new().withModel(model).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, cursor: true }).build();
    const result = await agent.run('work');
    expect(result.status).toBe('completed');
    // The first answer, then one more per follow-up: two, the limit.
    expect(model.requests).toHaveLength(3);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('Run the tests too.');
  });

  it('a HOOK.md hook that declares metadata.dialect: claude speaks Claude Code’s protocol', async () => {
    const { project, write, script } = await setup();
    await write(project, '.agents/hooks/claude-style/HOOK.md', '---\nname: claude-style\ndescription: d\ntrigger: PreToolUse\nmetadata:\n  dialect: claude\n---\n');
    await script(
      '.agents/hooks/claude-style/scripts/run',
      node(`  if (input.hook_event_name === 'PreToolUse' && input.permission_mode === 'default') console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'spoke claude' } }));`),
    );
    const calls: unknown[] = [];
    const model = commands('ls');
    const agent = AgentBuilder.new().withModel(model).withTools(bash(calls)).withHooksFrom({ projectDir: project, trust: 'all', userDir: false }).build();
    await agent.run('list');
    expect(calls).toEqual([]);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('spoke claude');
  });

  it('a HOOK.md hook naming an unknown dialect is a problem naming the field, and the others load', async () => {
    const { project, write, script } = await setup();
    await write(project, '.agents/hooks/odd/HOOK.md', '---\nname: odd\ndescription: d\ntrigger: PreToolUse\nmetadata:\n  dialect: clippy\n---\n');
    await script('.agents/hooks/odd/scripts/run', '#!/bin/sh\nexit 0\n');
    const agent = AgentBuilder.new().withModel(commands()).withHooksFrom({ projectDir: project, trust: 'all', userDir: false }).build();
    const { problems } = await agent.ready();
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/metadata\.dialect is 'clippy'; use one of hookmd, claude, copilot, vscode, gemini, cursor/);
  });

  it('a Claude Code prompt hook is judged by the agent’s own model', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', {
      hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Did the agent run the tests? Transcript: $ARGUMENTS' }] }] },
    });
    let judged = 0;
    const model = new ScriptedModel((request) => {
      const last = request.messages[request.messages.length - 1]!;
      if (request.tools.length === 0 && last.content.startsWith('Did the agent run the tests?')) {
        judged++;
        expect(last.content).toContain('"hook_event_name":"Stop"');
        return judged === 1 ? '{"ok": false, "reason": "Run the tests first."}' : '```json\n{"ok": true}\n```';
      }
      return 'done';
    });
    const agent = AgentBuilder.new().withModel(model).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true }).build();
    const result = await agent.run('work');
    expect(result.status).toBe('completed');
    expect(judged).toBe(2);
    expect(JSON.stringify(model.requests.map((r) => r.messages))).toContain('Run the tests first.');
  });
});
