/**
 * A Gemini CLI hook, loaded from a project's `.gemini/settings.json` into an agent built here, decides what Gemini CLI
 * 0.61 decides with it: real hook processes, read by the Gemini dialect, against what Gemini CLI's source does and
 * the payloads it sent (test/bridge/fixtures/gemini/).
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookOutcome, HookStack, ScriptedModel, defineTool, discoverHooks, runBridge, type AgentWarning, type ApprovalRequest, type ScriptedStep } from 'agent-hooks';
import { toolMessages } from '../agent/support.js';
import { sandbox } from '../config/support.js';

const setup = sandbox();

const FIXTURES = fileURLToPath(new URL('../bridge/fixtures/gemini/', import.meta.url));
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/** Gemini's shell tool, recording the arguments it ran with. */
const shell = (calls: unknown[]) =>
  defineTool({
    name: 'run_shell_command',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string(), description: z.string().optional(), dir_path: z.string().optional() }),
    execute: (input) => (calls.push(input), `ran ${input.command}`),
  });

/** Gemini's read_file, for a file that is not there: the tool fails. */
const readMissing = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  input: z.object({ file_path: z.string() }),
  execute: ({ file_path }) => {
    throw new Error(`File not found: ${file_path}`);
  },
});

/** A model that runs `command` with the shell, then answers 'done'. */
const runs = (args: Record<string, unknown>, ...more: ScriptedStep[]) =>
  new ScriptedModel([{ toolCalls: [{ name: 'run_shell_command', args }] }, ...(more.length > 0 ? more : ['done'])]);

/** A Node script that reads the event from stdin (`input`, and the raw `data`) and runs `body`. */
const node = (body: string) =>
  `#!/usr/bin/env node\nlet data = '';\nprocess.stdin.on('data', (c) => (data += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(data);\n${body}\n});\n`;

/** A `.gemini/settings.json` with one command per event, each in a definition of its own. */
const settings = (hooks: Record<string, string | { command: string; matcher?: string; timeout?: number }>) => ({
  hooks: Object.fromEntries(
    Object.entries(hooks).map(([event, hook]) => {
      const { command, matcher, timeout } = typeof hook === 'string' ? { command: hook, matcher: undefined, timeout: undefined } : hook;
      return [event, [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, timeout: timeout ?? 10000 }] }]];
    }),
  ),
});

/** What the shell tool of the test's agents ran with. */
let calls: unknown[] = [];

/** An agent with `project`'s Gemini CLI hooks. */
const agentFor = (project: string, model: ScriptedModel, options: { failClosed?: boolean; approver?: (r: ApprovalRequest) => boolean } = {}) => {
  const builder = AgentBuilder.new()
    .withModel(model)
    .withTools(shell(calls), readMissing)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true, failClosed: options.failClosed });
  if (options.approver !== undefined) builder.withApprover(options.approver);
  const agent = builder.build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  return { agent, warnings };
};

/** What the model was told of the first tool call. */
const told = (model: ScriptedModel): string => toolMessages(model.requests[1]!)[0]!.content;

/** The payloads `capture` wrote, in order. */
const captured = async (project: string): Promise<Record<string, unknown>[]> =>
  (await readFile(join(project, 'payloads.jsonl'), 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A command that appends its stdin to payloads.jsonl and answers nothing. */
const capture = 'cat >> payloads.jsonl; echo >> payloads.jsonl';

/** Each field's JSON type, nested objects field by field: what two payloads must share. */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length > 0 ? [shape(value[0])] : [];
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return typeof value;
}

describe('Gemini CLI hooks decide what Gemini CLI 0.61 decides', () => {
  it('hookSpecificOutput.tool_input replaces the arguments: a field it leaves out is dropped', async () => {
    calls = [];
    const { project, write, script } = await setup();
    await script('hooks/flags.js', node(`  console.log(JSON.stringify({ hookSpecificOutput: { tool_input: { command: input.tool_input.command + ' -la' } } }));`));
    await write(project, '.gemini/settings.json', settings({ BeforeTool: { command: 'node hooks/flags.js', matcher: 'run_shell' } }));
    const { agent } = agentFor(project, runs({ command: 'ls', dir_path: 'src' }));
    await agent.run('list');
    expect(calls).toEqual([{ command: 'ls -la' }]);
  });

  it('an exit other than 0 and 1 with text is a deny with the text as the reason: exit 3, and a missing command’s 127', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ BeforeTool: 'cat > /dev/null; echo "policy says no" >&2; exit 3' }));
    const model = runs({ command: 'ls' });
    await agentFor(project, model).agent.run('list');
    expect(calls).toEqual([]);
    expect(told(model)).toContain('policy says no');

    const other = await setup();
    await other.write(other.project, '.gemini/settings.json', settings({ BeforeTool: 'no-such-gemini-hook-command-xyz' }));
    const missing = runs({ command: 'ls' });
    await agentFor(other.project, missing).agent.run('list');
    expect(calls).toEqual([]);
    expect(told(missing)).toMatch(/no-such-gemini-hook-command-xyz.*not found/);
  });

  it('JSON is obeyed whatever the exit code: exit 1 with a deny refuses, exit 2 with an allow runs the call', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ BeforeTool: `cat > /dev/null; echo '{"decision":"deny","reason":"not on main"}'; exit 1` }));
    const model = runs({ command: 'git push' });
    await agentFor(project, model).agent.run('push');
    expect(calls).toEqual([]);
    expect(told(model)).toContain('not on main');

    const other = await setup();
    await other.write(other.project, '.gemini/settings.json', settings({ BeforeTool: `cat > /dev/null; echo '{"decision":"allow"}'; echo 'checked' >&2; exit 2` }));
    await agentFor(other.project, runs({ command: 'ls' })).agent.run('list');
    expect(calls).toEqual([{ command: 'ls' }]);
  });

  it('with stdout empty, stderr is the answer', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ BeforeTool: `cat > /dev/null; echo '{"decision":"deny","reason":"said on stderr"}' >&2` }));
    const model = runs({ command: 'ls' });
    await agentFor(project, model).agent.run('list');
    expect(calls).toEqual([]);
    expect(told(model)).toContain('said on stderr');
  });

  it('plain text is a system message, never context (not even on BeforeAgent); after exit 1, a warning', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ BeforeAgent: 'cat > /dev/null; echo "Branch: main"', BeforeTool: 'cat > /dev/null; echo oops; exit 1' }));
    const model = runs({ command: 'ls' });
    const { agent, warnings } = agentFor(project, model);
    const result = await agent.run('list');
    expect(result.systemMessages).toEqual(['Branch: main', 'Warning: oops']);
    expect(JSON.stringify(model.requests[0]!.messages)).not.toContain('Branch: main');
    expect(calls).toEqual([{ command: 'ls' }]);
    expect(warnings.map((w) => w.code)).toEqual(['exit-code']);
  });

  it('a failing exit with no output is ignored with a warning; a hook that fails closed blocks on it, and on a timeout', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ BeforeTool: 'cat > /dev/null; exit 5' }));
    const { agent, warnings } = agentFor(project, runs({ command: 'ls' }));
    await agent.run('list');
    expect(calls).toEqual([{ command: 'ls' }]);
    expect(warnings.map((w) => w.code)).toEqual(['exit-code']);

    const closed = agentFor(project, runs({ command: 'ls' }), { failClosed: true });
    await closed.agent.run('list');
    expect(calls).toEqual([{ command: 'ls' }]);

    const slow = await setup();
    await slow.write(slow.project, '.gemini/settings.json', settings({ BeforeTool: { command: `cat > /dev/null; sleep 5; echo '{"decision":"allow"}'`, timeout: 300 } }));
    const model = runs({ command: 'ls' });
    await agentFor(slow.project, model, { failClosed: true }).agent.run('list');
    expect(calls).toEqual([{ command: 'ls' }]);
    expect(told(model)).toMatch(/timed out after 300 ms.*fails closed/);
  });

  it('decision "ask" on BeforeTool leaves the call for later, as headless Gemini CLI does: no approver is asked, the run ends there', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ BeforeTool: `cat > /dev/null; echo '{"decision":"ask","systemMessage":"Run it for real?","hookSpecificOutput":{"tool_input":{"command":"ls -l"}}}'` }));
    const asked: ApprovalRequest[] = [];
    const { agent } = agentFor(project, runs({ command: 'ls', dir_path: 'src' }), { approver: (request) => (asked.push(request), true) });
    const result = await agent.run('list');
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    expect(result.status).toBe('stopped');
    expect(result.reason).toContain('Run it for real?');
  });

  it('what Gemini CLI ignores changes nothing: continue false on SessionStart and PreCompress, context from BeforeTool', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({
      SessionStart: `cat > /dev/null; echo SessionStart >> ran.log; echo '{"continue":false,"stopReason":"no session"}'`,
      PreCompress: `cat > /dev/null; echo PreCompress >> ran.log; echo '{"continue":false,"stopReason":"no compaction"}'`,
      BeforeTool: `cat > /dev/null; echo '{"hookSpecificOutput":{"additionalContext":"from BeforeTool"}}'`,
    }));
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'ls' } }] },
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'pwd' } }] },
      'done',
    ]);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(shell(calls))
      .withCompaction({ maxMessages: 3, keepLast: 2 })
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
      .build();
    const result = await agent.session().run('list');
    expect(await readFile(join(project, 'ran.log'), 'utf8')).toMatch(/^SessionStart\n(PreCompress\n)+$/);
    expect(result.status).toBe('completed');
    expect(calls).toEqual([{ command: 'ls' }, { command: 'pwd' }]);
    expect(JSON.stringify(model.requests.map((r) => r.messages))).not.toContain('from BeforeTool');
  });

  it('a failed tool reaches AfterTool as Gemini CLI sends it, with tool_response.error; a call to no tool does not', async () => {
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ AfterTool: capture }));
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'read_file', args: { file_path: 'missing.txt' } }] },
      { toolCalls: [{ name: 'no_such_tool', args: {} }] },
      'done',
    ]);
    await agentFor(project, model).agent.run('read it');
    const payloads = await captured(project);
    expect(payloads).toHaveLength(1);
    const [sent] = payloads;
    expect(shape(sent)).toEqual(shape(fixture('AfterTool-read_file-error.json')));
    expect(sent).toMatchObject({
      hook_event_name: 'AfterTool',
      tool_name: 'read_file',
      tool_input: { file_path: 'missing.txt' },
      tool_response: { error: { message: 'File not found: missing.txt' } },
    });
  });

  it('a HOOK.md hook speaking Gemini’s dialect is told of a failed tool as an AfterTool too', async () => {
    const { project, script } = await setup();
    await mkdir(join(project, '.agents', 'hooks', 'failures'), { recursive: true });
    await writeFile(join(project, '.agents', 'hooks', 'failures', 'HOOK.md'), '---\nname: failures\ndescription: d\ntrigger: post-tool-call-failure\nmetadata:\n  dialect: gemini\n---\n');
    await script('.agents/hooks/failures/scripts/run', '#!/bin/sh\ncat >> "$AGENT_HOOKS_PROJECT_DIR/payloads.jsonl"\necho >> "$AGENT_HOOKS_PROJECT_DIR/payloads.jsonl"\n');
    const model = new ScriptedModel([{ toolCalls: [{ name: 'read_file', args: { file_path: 'missing.txt' } }] }, 'done']);
    await AgentBuilder.new().withModel(model).withTools(readMissing).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false }).build().run('read it');
    const [sent] = await captured(project);
    expect(shape(sent)).toEqual(shape(fixture('AfterTool-read_file-error.json')));
    expect(sent).toMatchObject({ hook_event_name: 'AfterTool', tool_response: { error: { message: 'File not found: missing.txt' } } });
  });

  it('a deny from AfterTool replaces what the model is told of a failed tool, as of one that ran', async () => {
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ AfterTool: `cat > /dev/null; echo '{"decision":"deny","reason":"paths are private"}'` }));
    const model = new ScriptedModel([{ toolCalls: [{ name: 'read_file', args: { file_path: '/secret/key' } }] }, 'done']);
    await agentFor(project, model).agent.run('read it');
    expect(told(model)).toContain('paths are private');
    expect(told(model)).not.toContain('/secret/key');
  });
});

describe('Gemini CLI payloads', () => {
  it('every payload has the fields Gemini CLI 0.61 sends, of the same types, and no others', async () => {
    calls = [];
    const { project, write, script } = await setup();
    await script(
      'hooks/capture.js',
      node(`  require('fs').appendFileSync('payloads.jsonl', data + '\\n');
  if (input.hook_event_name === 'AfterAgent' && !input.stop_hook_active) console.log(JSON.stringify({ decision: 'block', reason: 'Not yet: say the word finished.' }));`),
    );
    const events = ['SessionStart', 'BeforeAgent', 'BeforeModel', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'];
    await write(project, '.gemini/settings.json', settings(Object.fromEntries(events.map((e) => [e, 'node hooks/capture.js']))));
    const model = new ScriptedModel([{ text: 'Running it.', toolCalls: [{ name: 'run_shell_command', args: { command: 'echo hello' } }] }, 'All done.', 'finished']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(shell(calls))
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
      .build();
    const session = agent.session();
    await session.run('Run the command.');
    await session.close();
    const payloads = await captured(project);
    const byEvent = (name: string) => payloads.filter((p) => p.hook_event_name === name);

    const pairs: [Record<string, unknown>, string][] = [
      [byEvent('SessionStart')[0]!, 'SessionStart.json'],
      [byEvent('BeforeAgent')[0]!, 'BeforeAgent.json'],
      [byEvent('BeforeModel')[0]!, 'BeforeModel.json'],
      [byEvent('BeforeTool')[0]!, 'BeforeTool.json'],
      [byEvent('AfterTool')[0]!, 'AfterTool.json'],
      [byEvent('AfterAgent')[0]!, 'AfterAgent.json'],
      [byEvent('AfterAgent')[1]!, 'AfterAgent-active.json'],
      [byEvent('SessionEnd')[0]!, 'SessionEnd.json'],
    ];
    for (const [sent, name] of pairs) {
      const real = fixture(name);
      expect(Object.keys(sent), name).toEqual(Object.keys(real));
      if (name !== 'BeforeModel.json') {
        expect(shape(sent), name).toEqual(shape(real));
        continue;
      }
      // The request's messages and settings are each run's own: their fields and types are compared, not their number.
      const [request, realRequest] = [sent.llm_request as Record<string, unknown>, real.llm_request as Record<string, unknown>];
      expect(Object.keys(request)).toEqual(Object.keys(realRequest));
      expect(shape(request.model)).toBe(shape(realRequest.model));
      expect(shape(request.messages)).toEqual(shape(realRequest.messages));
      expect(shape(request.config)).toEqual(expect.any(Object));
    }
    expect(byEvent('AfterTool')[0]).toMatchObject({ tool_input: { command: 'echo hello' }, tool_response: { llmContent: 'ran echo hello', returnDisplay: 'ran echo hello' } });
    // On the retry, the prompt is still the user's; the answer is the turn's, every step of it.
    expect(byEvent('AfterAgent').map((p) => [p.prompt, p.prompt_response, p.stop_hook_active])).toEqual([
      ['Run the command.', 'Running it.\nAll done.', false],
      ['Run the command.', 'Running it.\nAll done.\nfinished', true],
    ]);
    expect((byEvent('BeforeModel')[0]!.llm_request as { messages: unknown }).messages).toEqual([{ role: 'user', content: 'Run the command.' }]);
  });

  it('PreCompress fires before every model call, trigger "auto", with no compaction — before the BeforeModel hooks, as Gemini CLI 0.61.0 fires it', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ PreCompress: capture, BeforeModel: capture }));
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'ls' } }] },
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'pwd' } }] },
      'done',
    ]);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(shell(calls))
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
      .build();
    await agent.run('list');
    const events = (await captured(project)).map((p) => p.hook_event_name);
    expect(events).toEqual(['PreCompress', 'BeforeModel', 'PreCompress', 'BeforeModel', 'PreCompress', 'BeforeModel']);
    expect((await captured(project)).filter((p) => p.hook_event_name === 'PreCompress').map((p) => p.trigger)).toEqual(['auto', 'auto', 'auto']);
  });

  it('PreCompress has only its trigger; Notification names a tool approval as Gemini CLI does', async () => {
    calls = [];
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', settings({ PreCompress: capture, Notification: capture }));
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'ls' } }] },
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'pwd' } }] },
      'done',
    ]);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(shell(calls))
      .withApprover(() => true)
      // An ask the approver answers: the approval Gemini CLI notifies of.
      .onBeforeToolUse(() => HookOutcome.ask('Approve?'))
      .withCompaction({ maxMessages: 3, keepLast: 2 })
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
      .build();
    await agent.run('list');
    const payloads = await captured(project);
    const compress = payloads.find((p) => p.hook_event_name === 'PreCompress')!;
    expect(Object.keys(compress)).toEqual(Object.keys(fixture('PreCompress.json')));
    expect(shape(compress)).toEqual(shape(fixture('PreCompress.json')));
    const notification = payloads.find((p) => p.hook_event_name === 'Notification')!;
    expect(notification).toMatchObject({ notification_type: 'ToolPermission', message: expect.any(String), details: {} });
    expect(Object.keys(notification)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'timestamp', 'notification_type', 'message', 'details']);
  });
});

describe('a Gemini-dialect HOOK.md hook behind the bridge from Gemini CLI', () => {
  it('gets the payload Gemini CLI sent, as it sent it', async () => {
    const { project, script } = await setup();
    for (const [name, trigger] of [['before', 'pre-tool-call'], ['after', 'post-tool-call']] as const) {
      await mkdir(join(project, '.agents', 'hooks', name), { recursive: true });
      await writeFile(join(project, '.agents', 'hooks', name, 'HOOK.md'), `---\nname: ${name}\ndescription: d\ntrigger: ${trigger}\nmetadata:\n  dialect: gemini\n---\n`);
      await script(`.agents/hooks/${name}/scripts/run`, `#!/bin/sh\ncat > "$AGENT_HOOKS_PROJECT_DIR/${name}.json"\n`);
    }
    const { hooks } = await discoverHooks({ projectDir: project, userDir: false, trust: 'all' });
    const stack = new HookStack().withAll(hooks);
    for (const [name, file] of [['before', 'BeforeTool.json'], ['after', 'AfterTool-read_file-error.json']] as const) {
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture(file)), stack });
      expect(result.exitCode, file).toBe(0);
      expect(JSON.parse(await readFile(join(project, `${name}.json`), 'utf8')), file).toEqual(fixture(file));
    }
  });
});
