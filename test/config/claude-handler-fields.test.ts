import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, CommandHook, ScriptedModel, defineTool, loadClaudeHooks, type AgentWarning } from 'agent-hooks';
import { configHookFingerprint } from '../../src/script/trust/trust-fingerprint.js';
import { toolMessages } from '../agent/support.js';
import { sandbox } from './support.js';

// The fields a Claude Code handler shares across types — if, onFailure, args, shell, async, asyncRewake, once — read
// from real settings files and run with real processes, each as Claude Code 2.1.330 applies it.

const setup = sandbox();

const bash = (calls: string[]) =>
  defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => (calls.push(input.command), `ran ${input.command}`),
  });

const commands = (...list: string[]) => new ScriptedModel([...list.map((command) => ({ toolCalls: [{ name: 'Bash', args: { command } }] })), 'done']);

async function agentWith(project: string, model: ScriptedModel, calls: string[]) {
  const warnings: AgentWarning[] = [];
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash(calls))
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false })
    .build();
  agent.events.on('warning', (w) => warnings.push(w));
  return { agent, warnings, ready: await agent.ready() };
}

const pre = (...hooks: Record<string, unknown>[]) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: hooks.map((h) => ({ type: 'command', timeout: 20, ...h })) }] } });

describe('Claude Code handler fields', () => {
  it('"if" runs the hook only on the calls its permission rule matches, compound commands and assignments included', async () => {
    const { project, write } = await setup();
    const log = join(project, 'ran.log');
    await write(project, '.claude/settings.json', pre({ command: `jq -r .tool_input.command >> ${JSON.stringify(log)}`, if: 'Bash(git *)' }));
    const calls: string[] = [];
    const { agent } = await agentWith(project, commands('echo hi', 'ls && git status', 'FOO=1 git log', 'echo $(git push)', 'npm test'), calls);
    await agent.run('go');
    expect(calls).toHaveLength(5);
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['ls && git status', 'FOO=1 git log', 'echo $(git push)']);
  });

  it('an "if" that is not a permission rule, or on an event without a tool call, is reported and not loaded, as Claude Code never runs it', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2', if: "tool_input.command matches 'git'" }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'exit 2', if: 'Bash' }] }],
      },
    });
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(hooks).toEqual([]);
    expect(problems.map((p) => [p.field, p.code, p.severity])).toEqual([
      ['hooks.PreToolUse[0].hooks[0].if', 'invalid-if', 'warning'],
      ['hooks.Stop[0].hooks[0].if', 'if-without-tool', 'warning'],
    ]);
    expect(problems[0]!.message).toContain('Bash(git push*)');
  });

  it('onFailure "block": a hook that fails (exit 3) blocks the call; "continue" and the default let it go on; on Stop it is ignored', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'jq -e \'.tool_input.command | startswith("guarded")\' >/dev/null && exit 3; exit 0', onFailure: 'block' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'jq -e \'.tool_input.command | startswith("loose")\' >/dev/null && exit 3; exit 0', onFailure: 'continue' }] },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'exit 3', onFailure: 'block' }] }],
      },
    });
    const calls: string[] = [];
    const model = commands('guarded rm', 'loose rm', 'echo fine');
    const { agent } = await agentWith(project, model, calls);
    const result = await agent.run('go');
    expect(calls).toEqual(['loose rm', 'echo fine']);
    expect(toolMessages(model.requests[1]!)[0]!.content).toMatch(/exited with code 3 \(it fails closed\)/);
    expect(result.text).toBe('done');
  });

  it('onFailure "block" and a hook that prints invalid JSON: the call runs, as in Claude Code 2.1.332, with a warning', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', pre({ command: 'cat >/dev/null; printf \'{not json\'', onFailure: 'block' }));
    const calls: string[] = [];
    const { agent, warnings } = await agentWith(project, commands('touch bad-json.txt'), calls);
    await agent.run('go');
    expect(calls).toEqual(['touch bad-json.txt']);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/starts with \{ but is not JSON; Claude Code reads it as plain text, so the action goes on \(onFailure "block" does not count for it\)/);
  });

  it('the exec form starts the executable with its arguments, no shell: ${CLAUDE_PROJECT_DIR} is filled in, $HOME is not', async () => {
    const { project, write } = await setup();
    const out = join(project, 'exec.txt');
    await write(project, '.claude/settings.json', pre({ command: '/bin/sh', args: ['-c', 'printf "%s|%s" "$1" "$2" > "$3"', 'x', '${CLAUDE_PROJECT_DIR}/a b', '$HOME', out] }));
    const calls: string[] = [];
    const { agent } = await agentWith(project, commands('ls'), calls);
    await agent.run('go');
    expect(await readFile(out, 'utf8')).toBe(`${project}/a b|$HOME`);
  });

  it('the exec form pins the project scripts its arguments name, so editing one withdraws trust', async () => {
    const { project, write, script } = await setup();
    await script('.claude/hooks/guard.js', 'process.exit(0);\n');
    await write(project, '.claude/settings.json', pre({ command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.js'] }));
    const { hooks } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    const hook = hooks[0] as CommandHook;
    expect(hook.command).toBe(`node ${project}/.claude/hooks/guard.js`.replace(/ (\S*\s\S*)$/, " '$1'"));
    const before = await configHookFingerprint(hook);
    expect(Object.keys(before.files)).toContain('.claude/hooks/guard.js');
    await write(project, '.claude/hooks/guard.js', 'process.exit(2);\n');
    expect((await configHookFingerprint(hook)).sha256).not.toBe(before.sha256);
  });

  it('a field of the wrong type or value refuses that handler only, naming the field and what it takes', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', pre({ command: 'exit 0', onFailure: 'deny' }, { command: 'exit 0', args: 'x' }, { command: 'exit 0', shell: 'zsh' }, { command: 'exit 0', once: 'yes' }, { command: 'true' }));
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['true']);
    expect(problems.map((p) => [p.field, p.allowed])).toEqual([
      ['hooks.PreToolUse[0].hooks[0].onFailure', '"continue" or "block"'],
      ['hooks.PreToolUse[0].hooks[1].args', 'a list of strings'],
      ['hooks.PreToolUse[0].hooks[2].shell', '"bash" or "powershell"'],
      ['hooks.PreToolUse[0].hooks[3].once', 'true or false'],
    ]);
    expect(problems.every((p) => p.severity === 'error')).toBe(true);
  });

  it('"once" in a settings file runs the hook every time, as Claude Code does there', async () => {
    const { project, write } = await setup();
    const log = join(project, 'once.log');
    await write(project, '.claude/settings.json', pre({ command: `echo x >> ${JSON.stringify(log)}`, once: true }));
    const { agent } = await agentWith(project, commands('a', 'b'), []);
    await agent.run('go');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it('asyncRewake loads with no problem: its wake-up is delivered (see claude-async-rewake.test.ts)', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', pre({ command: 'exit 0', asyncRewake: true }));
    const calls: string[] = [];
    const { agent, ready } = await agentWith(project, commands('ls'), calls);
    expect(ready.problems).toEqual([]);
    await agent.run('go');
    expect(calls).toEqual(['ls']);
  });

  it('shell "bash" runs with /bin/sh as Claude Code 2.1 does on Linux; "powershell" with pwsh', async () => {
    const { project, write } = await setup();
    const out = join(project, 'shell.txt');
    await write(project, '.claude/settings.json', pre({ command: `echo "$0" > ${JSON.stringify(out)}`, shell: 'bash' }, { command: 'exit 0', shell: 'powershell' }));
    const { hooks } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    const { agent } = await agentWith(project, commands('ls'), []);
    await agent.run('go');
    expect((await readFile(out, 'utf8')).trim()).toBe('/bin/sh');
    expect(hooks).toHaveLength(2);
    expect(existsSync(out)).toBe(true);
  });

  it('an http handler with "if" is posted only the calls its rule matches, and its deny blocks', async () => {
    const { project, write } = await setup();
    const posted: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        const payload = JSON.parse(body) as { tool_input: { command: string } };
        posted.push(payload.tool_input.command);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await write(project, '.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url, if: 'Bash(rm *)', timeout: 10 }] }] } });
      const calls: string[] = [];
      const { agent } = await agentWith(project, commands('ls', 'rm -rf build'), calls);
      await agent.run('go');
      expect(posted).toEqual(['rm -rf build']);
      expect(calls).toEqual(['ls']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('mcp_tool handlers are reported as not loaded, with what to use instead; agent handlers need a model to verify with', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', pre({ type: 'mcp_tool', server: 's', tool: 't' }, { type: 'agent', prompt: 'Verify the tests ran.' }));
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(hooks).toEqual([]);
    expect(problems.map((p) => [p.code, p.severity])).toEqual([
      ['unsupported-hook-type', 'warning'],
      ['agent-hook-needs-model', 'error'],
    ]);
    expect(problems[0]!.message).toMatch(/MCP server/);
    const verified = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all', verify: async () => ({ ok: true }) });
    expect(verified.hooks.map((h) => h.name)).toEqual(['agent: Verify the tests ran.']);
  });

  it('an event Claude Code fires that has no counterpart here is named as such, not as a misspelling', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { TaskCreated: [{ hooks: [{ type: 'command', command: 'true' }] }], PreToolUze: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const { problems } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['hooks.TaskCreated', 'event-not-here'],
      ['hooks.PreToolUze', 'unknown-event'],
    ]);
    expect(problems[0]!.message).toMatch(/Claude Code fires "TaskCreated"/);
  });

  it('parallel: true runs an event’s hooks side by side, as Claude Code does; by default they run in order', async () => {
    const order = async (parallel: boolean): Promise<string[]> => {
      const { project, write } = await setup();
      const log = JSON.stringify(join(project, 'order.log'));
      await write(project, '.claude/settings.json', pre({ command: `sleep 0.3; echo a-end >> ${log}` }, { command: `echo b-start >> ${log}` }));
      const warnings: AgentWarning[] = [];
      const agent = AgentBuilder.new()
        .withModel(commands('ls'))
        .withTools(bash([]))
        .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false, parallel })
        .build();
      agent.events.on('warning', (w) => warnings.push(w));
      await agent.run('go');
      expect(warnings).toEqual([]);
      return (await readFile(join(project, 'order.log'), 'utf8')).trim().split('\n');
    };
    expect(await order(false)).toEqual(['a-end', 'b-start']);
    expect(await order(true)).toEqual(['b-start', 'a-end']);
  });
});

describe('Claude Code PostToolUse answers, as Claude Code 2.1.332 gives them to the model', () => {
  it('decision "block": the result is kept, and the reason beside it in Claude Code\'s words, naming the tool and the command as written', async () => {
    const { project, write } = await setup();
    const command = `cat >/dev/null; printf '{"decision":"block","reason":"RULE-POST-BLOCK-REASON"}'`;
    await write(project, '.claude/settings.json', { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout: 20 }] }] } });
    const calls: string[] = [];
    const model = commands('echo post-block-output');
    const { agent } = await agentWith(project, model, calls);
    await agent.run('go');
    const told = JSON.stringify(model.requests[1]!.messages);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('ran echo post-block-output');
    expect(told).toContain(JSON.stringify(`PostToolUse:Bash hook blocking error from command: "${command}": RULE-POST-BLOCK-REASON`).slice(1, -1));
  });

  it('updatedToolOutput on Bash: a string is ignored with a warning, Bash\'s output object replaces the output', async () => {
    const { project, write } = await setup();
    const hook = `node -e 'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>{const c=JSON.parse(d).tool_input.command;const out=c.includes("out-string")?"REPLACED-STRING":{stdout:"REPLACED-OBJECT",stderr:"",interrupted:false,isImage:false};process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PostToolUse",updatedToolOutput:out}}))})'`;
    await write(project, '.claude/settings.json', { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook, timeout: 20 }] }] } });
    const calls: string[] = [];
    const model = commands('echo out-string-original', 'echo out-object-original');
    const { agent, warnings } = await agentWith(project, model, calls);
    await agent.run('go');
    const results = model.requests.slice(1).flatMap((r) => toolMessages(r).map((m) => String(m.content)));
    expect(results[0]).toBe('ran echo out-string-original');
    expect(results.at(-1)).toBe('REPLACED-OBJECT');
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/updatedToolOutput for Bash that is not Bash's output object/);
  });
});
