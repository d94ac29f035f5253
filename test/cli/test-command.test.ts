import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).

const project = cliProjects();

interface TestResult {
  hook: { name: string; events: string[]; source: string; file: string };
  event: string;
  ran: boolean;
  outcome: string | null;
  decision: string | null;
  reason: string | null;
  modifiedInput: Record<string, unknown> | null;
  additionalContext: string[];
  systemMessages: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string | null;
  stderr: string | null;
  durationMs: number | null;
  notes: { level: string; hookName: string; code: string; message: string }[];
  error: string | null;
}

// Blocks rm -rf with exit 2; otherwise saves what it received and answers in JSON.
const GUARD = `input=$(cat)
printf '%s' "$input" > "$AGENT_HOOKS_PROJECT_DIR/received.json"
case "$input" in
  *'rm -rf'*) echo "no recursive deletes" >&2; echo "checked" ; exit 2 ;;
  *'sudo '*) echo '{"decision":"allow","modified_input":{"command":"id"},"additional_context":"sudo was dropped","system_message":"rewrote a sudo call"}'; exit 0 ;;
esac
exit 0`;

describe('agent-hooks test', () => {
  it('fires a hook by name and prints its decision, reason, output, exit code and duration', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', {}, GUARD);
    const { code, stdout, stderr } = await runCli(['test', '--trust-all', 'guard', '--args', '{"command":"rm -rf /"}'], { cwd: dir });
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(/^hook +guard +HOOK\.md project \.agents\/hooks\/guard\/HOOK\.md$/m);
    expect(stdout).toMatch(/^event +PreToolUse \(pre-tool-call\) +bash \{"command":"rm -rf \/"\}$/m);
    expect(stdout).toMatch(/^decision +deny \(block\)$/m);
    expect(stdout).toMatch(/^reason +no recursive deletes$/m);
    expect(stdout).toMatch(/^modified input +\(unchanged\)$/m);
    expect(stdout).toMatch(/^exit code +2$/m);
    expect(stdout).toMatch(/^duration +\d+\.\d ms$/m);
    expect(stdout).toMatch(/^stdout +checked$/m);
    expect(stdout).toMatch(/^stderr +no recursive deletes$/m);

    const { json } = await runCliJson<TestResult>(['test', '--trust-all', 'guard', '--args', '{"command":"rm -rf /"}', '--json'], { cwd: dir });
    expect(json).toMatchObject({
      hook: { name: 'guard', events: ['PreToolUse'], source: 'project', file: join(hooks, 'guard', 'HOOK.md') },
      event: 'PreToolUse',
      ran: true,
      outcome: 'block',
      decision: 'deny',
      reason: 'no recursive deletes',
      modifiedInput: null,
      exitCode: 2,
      signal: null,
      timedOut: false,
      stdout: 'checked\n',
      stderr: 'no recursive deletes\n',
      notes: [],
      error: null,
    });
    expect(json.durationMs).toBeGreaterThan(0);
  });

  it('shows a rewritten tool input, additional context and system message from the script’s JSON', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', {}, GUARD);
    const { code, json } = await runCliJson<TestResult>(['test', '--trust-all', 'guard', '--tool', 'shell', '--args', '{"command":"sudo id"}', '--json'], { cwd: dir });
    expect(code).toBe(0);
    expect(json).toMatchObject({
      outcome: 'proceed',
      decision: 'allow',
      modifiedInput: { command: 'id' },
      additionalContext: ['sudo was dropped'],
      systemMessages: ['rewrote a sudo call'],
      exitCode: 0,
    });
    const text = await runCli(['test', '--trust-all', 'guard', '--args', '{"command":"sudo id"}'], { cwd: dir });
    expect(text.stdout).toMatch(/^modified input +\{"command":"id"\}$/m);
    expect(text.stdout).toMatch(/^context +sudo was dropped$/m);
    expect(text.stdout).toMatch(/^message +rewrote a sudo call$/m);
  });

  it('sends a realistic default event, the hook’s own trigger unless --event names another', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', { trigger: 'before_tool' }, GUARD);
    await scriptHook(hooks, 'gate', { trigger: 'Stop' }, GUARD);
    expect((await runCli(['test', '--trust-all', 'guard'], { cwd: dir })).code).toBe(0);
    const tool = JSON.parse(await readFile(join(dir, 'received.json'), 'utf8')) as Record<string, unknown>;
    // A trigger written in the old names gets the old names back.
    expect(tool).toMatchObject({ event_type: 'before_tool', session_id: 'sample-session', work_dir: dir, tool_name: 'bash', tool_input: { command: 'ls -la' } });
    expect(Date.parse(tool.timestamp as string)).not.toBeNaN();

    expect((await runCli(['test', '--trust-all', 'gate'], { cwd: dir })).code).toBe(0);
    const stop = JSON.parse(await readFile(join(dir, 'received.json'), 'utf8')) as Record<string, unknown>;
    expect(stop).toMatchObject({ event_type: 'pre-agent-turn-stop', stop_reason: 'no_tool_calls', step_count: 3, stop_hook_active: false });
    expect(stop.final_message).toMatchObject({ role: 'assistant' });

    expect((await runCli(['test', '--trust-all', 'gate', '--event', 'agentStop'], { cwd: dir })).code).toBe(0);
  });

  it('reads the event from --input, a file or stdin, filling what it lacks', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'prompt-check', { trigger: 'pre-agent-turn' }, GUARD);
    await writeFile(join(dir, 'event.json'), JSON.stringify({ prompt: 'please rm -rf the build', session_id: 'abc' }));
    const fromFile = await runCliJson<TestResult>(['test', '--trust-all', 'prompt-check', '--input', 'event.json', '--json'], { cwd: dir });
    expect(fromFile.json).toMatchObject({ event: 'UserPromptSubmit', decision: 'deny', reason: 'no recursive deletes' });
    expect(JSON.parse(await readFile(join(dir, 'received.json'), 'utf8'))).toMatchObject({ prompt: 'please rm -rf the build', session_id: 'abc' });

    await scriptHook(hooks, 'guard', {}, GUARD);
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'sudo ls' }, cwd: '/elsewhere' });
    const fromStdin = await runCliJson<TestResult>(['test', '--trust-all', 'guard', '--input', '-', '--json'], { cwd: dir, input: payload });
    expect(fromStdin.json).toMatchObject({ event: 'PreToolUse', modifiedInput: { command: 'id' } });
    expect(JSON.parse(await readFile(join(dir, 'received.json'), 'utf8'))).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'sudo ls' } });
  });

  it('fires a hook folder or HOOK.md given by path, wherever it is', async () => {
    const { dir, hooks } = await project();
    const folder = await scriptHook(join(dir, 'drafts'), 'wip', {}, 'cat >/dev/null; echo "not yet" >&2; exit 2');
    for (const path of ['drafts/wip', './drafts/wip/HOOK.md', folder]) {
      const { code, json } = await runCliJson<TestResult>(['test', '--trust-all', path, '--json'], { cwd: dir });
      expect([code, json.hook.name, json.hook.source, json.reason], path).toEqual([0, 'wip', 'extra', 'not yet']);
    }
    await scriptHook(hooks, 'local', {}, 'exit 0');
    expect((await runCliJson<TestResult>(['test', '--trust-all', '.agents/hooks/local', '--json'], { cwd: dir })).json.hook.source).toBe('project');
  });

  it('exits 1 when the hook fails, and says why', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'crash', {}, 'cat >/dev/null; echo "boom" >&2; exit 1');
    await scriptHook(hooks, 'chatty', {}, 'cat >/dev/null; echo "not json"');
    const crash = await runCliJson<TestResult>(['test', '--trust-all', 'crash', '--json'], { cwd: dir });
    expect(crash.code).toBe(1);
    expect(crash.json).toMatchObject({ decision: 'allow', exitCode: 1, stderr: 'boom\n' });
    expect(crash.json.notes).toEqual([expect.objectContaining({ level: 'warning', hookName: 'crash', code: 'exit-code' })]);
    const text = await runCli(['test', '--trust-all', 'chatty'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^warning Hook 'chatty' printed output that is not JSON/m);
  });

  it('reports a timeout with the exit status', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'slow', { timeout: 200 }, 'cat >/dev/null; exec sleep 5');
    const { code, json } = await runCliJson<TestResult>(['test', '--trust-all', 'slow', '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json).toMatchObject({ timedOut: true, exitCode: null, decision: 'allow' });
    expect(json.notes).toEqual([expect.objectContaining({ code: 'timeout' })]);
  });

  it('waits for an async hook’s process and reports it, though it cannot decide', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'audit', { async: true }, 'cat >/dev/null; sleep 0.2; echo logged >&2; exit 0');
    const { code, json } = await runCliJson<TestResult>(['test', '--trust-all', 'audit', '--json'], { cwd: dir });
    expect(code).toBe(0);
    expect(json).toMatchObject({ ran: true, outcome: 'proceed', exitCode: 0, stderr: 'logged\n' });
  });

  it('tells when the matcher keeps the hook from running', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'edits', { matcher: { tool: '^(Write|Edit)$' } }, GUARD);
    const skipped = await runCliJson<TestResult>(['test', '--trust-all', 'edits', '--json'], { cwd: dir });
    expect(skipped.code).toBe(0);
    expect(skipped.json).toMatchObject({ ran: false, outcome: 'proceed', exitCode: null, stdout: null, durationMs: null });
    expect((await runCli(['test', '--trust-all', 'edits'], { cwd: dir })).stdout).toMatch(/^ran +no: its matcher \(tool:\^\(Write\|Edit\)\$\) does not match/m);
    const fired = await runCliJson<TestResult>(['test', '--trust-all', 'edits', '--tool', 'Write', '--args', '{"path":"a","content":"rm -rf"}', '--json'], { cwd: dir });
    expect(fired.json).toMatchObject({ ran: true, decision: 'deny' });
  });

  it('exits 1 with the problems of a hook that cannot load', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'broken', { priority: 'high' });
    const byName = await runCli(['test', '--trust-all', 'broken'], { cwd: dir });
    expect(byName.code).toBe(1);
    expect(byName.stderr).toMatch(/hook 'broken' cannot load:\nerror \.agents\/hooks\/broken\/HOOK\.md: priority: /);
    expect((await runCli(['test', '--trust-all', '.agents/hooks/broken'], { cwd: dir })).code).toBe(1);
  });

  it('exits 2 on usage errors: no hook, an unknown hook or event, an event the hook does not run on, bad --args', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', {}, GUARD);
    const cases: [string[], RegExp][] = [
      [['test'], /name the hook to test/],
      [['test', '--trust-all', 'nope'], /no hook named 'nope' in .* \(it has: guard\)/],
      [['test', '--trust-all', 'guard', '--event', 'Stop'], /hook 'guard' runs on PreToolUse, not Stop/],
      [['test', '--trust-all', 'guard', '--event', 'PreTool'], /Did you mean 'PreToolUse'\?/],
      [['test', '--trust-all', 'guard', '--args', '{"command":'], /--args is not valid JSON/],
      [['test', '--trust-all', 'guard', '--args', '"ls"'], /--args must be a JSON object, got string/],
      [['test', '--trust-all', 'guard', '--input', 'missing.json'], /cannot read --input missing\.json/],
      [['test', '--trust-all', 'guard', '--input', '-'], /the input on stdin is not valid JSON/],
      [['test', '--trust-all', 'guard', 'other'], /unexpected argument "other"/],
      [['test', './nowhere'], /no hook folder at \.\/nowhere/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: dir, input: 'not json' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr).toContain('Usage: agent-hooks test <hook|PATH>');
    }
    const typed = await runCli(['test', '--trust-all', 'guard', '--input', '-'], { cwd: dir, input: '{"tool_input":"ls"}' });
    expect(typed).toMatchObject({ code: 2, stderr: expect.stringContaining('the input is not a valid PreToolUse event: tool_input must be a JSON object') });
  });
});
