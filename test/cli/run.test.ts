import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).

const project = cliProjects();

interface RunResult {
  event: string;
  outcome: string | null;
  decision: string | null;
  reason: string | null;
  modifiedInput: Record<string, unknown> | null;
  additionalContext: string[];
  systemMessages: string[];
  hooks: { name: string; priority: number; kind: string | null; source: string | null; async: boolean; outcome: string | null; reason: string | null; exitCode: number | null; durationMs: number | null }[];
  notes: { level: string; hookName: string; code: string; message: string }[];
  problems: { severity: string; code: string }[];
  error: string | null;
}

/** A node hook that appends its name to calls.log, then answers with `answer(input)` (JSON) or exit 2. */
const nodeHook = (name: string, body: string) => `#!/usr/bin/env node
let data = '';
process.stdin.on('data', (c) => (data += c)).on('end', () => {
  const input = JSON.parse(data);
  require('fs').appendFileSync(require('path').join(process.env.AGENT_HOOKS_PROJECT_DIR, 'calls.log'), '${name} ' + JSON.stringify(input.tool_input) + '\\n');
  ${body}
});
`;

describe('agent-hooks run', () => {
  it('dispatches through every hook by priority; rewrites compose; the first blocker stops the rest', async () => {
    const { dir, hooks, userHooks } = await project();
    await scriptHook(hooks, 'sandbox', { priority: 900 }, nodeHook('sandbox', `console.log(JSON.stringify({ modified_input: { ...input.tool_input, cwd: '/sandbox' }, additional_context: 'sandboxed' }));`));
    await scriptHook(userHooks, 'no-rm', { priority: 500 }, nodeHook('no-rm', `if (input.tool_input.command.includes('rm -rf')) { process.stderr.write('no rm -rf in ' + input.tool_input.cwd); process.exit(2); }`));
    await scriptHook(hooks, 'late', { priority: 10 }, nodeHook('late', ''));
    await scriptHook(hooks, 'stopper', { trigger: 'Stop' }, 'exit 2');

    const blocked = await runCliJson<RunResult>(['run', '--trust-all', '--event', 'PreToolUse', '--args', '{"command":"rm -rf /"}', '--json'], { cwd: dir });
    expect(blocked.code).toBe(0);
    expect(blocked.json).toMatchObject({ event: 'PreToolUse', outcome: 'block', decision: 'deny', reason: 'no rm -rf in /sandbox', modifiedInput: null, additionalContext: ['sandboxed'], error: null, problems: [] });
    expect(blocked.json.hooks.map((h) => [h.name, h.priority, h.source, h.outcome, h.exitCode])).toEqual([
      ['sandbox', 900, 'project', 'block', 0],
      ['no-rm', 500, 'user', 'block', 2],
    ]);
    expect(blocked.json.hooks.every((h) => h.kind === 'HOOK.md' && typeof h.durationMs === 'number')).toBe(true);
    // The hook after the blocker never ran; the one before it handed on its rewrite.
    expect((await readFile(join(dir, 'calls.log'), 'utf8')).trim().split('\n')).toEqual(['sandbox {"command":"rm -rf /"}', 'no-rm {"command":"rm -rf /","cwd":"/sandbox"}']);

    const allowed = await runCliJson<RunResult>(['run', '--trust-all', '--event', 'pre-tool-call', '--args', '{"command":"ls"}', '--json'], { cwd: dir });
    expect(allowed.json).toMatchObject({ outcome: 'proceed', decision: 'allow', reason: null, modifiedInput: { command: 'ls', cwd: '/sandbox' } });
    expect(allowed.json.hooks.map((h) => h.name)).toEqual(['sandbox', 'no-rm', 'late']);

    const text = await runCli(['run', '--trust-all', '--event', 'PreToolUse', '--args', '{"command":"rm -rf /"}'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^decision +deny \(block\)$/m);
    expect(text.stdout).toMatch(/^reason +no rm -rf in \/sandbox$/m);
    expect(text.stdout).toMatch(/^context +sandboxed$/m);
    expect(text.stdout).toMatch(/^priority +hook +source +returned +exit +time$/m);
    expect(text.stdout).toMatch(/^500 +no-rm +HOOK\.md user +block: no rm -rf in \/sandbox +2 +\d+\.\d ms$/m);
  });

  it('takes the event from the input when --event is absent, and runs only that event’s hooks', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', {}, 'exit 2');
    await scriptHook(hooks, 'gate', { trigger: 'Stop' }, `input=$(cat); case "$input" in *'"stop_hook_active": true'*) exit 0 ;; esac; echo "Run the tests first" >&2; exit 2`);
    const first = await runCliJson<RunResult>(['run', '--trust-all', '--input', '-', '--json'], { cwd: dir, input: '{"event_type":"pre-agent-turn-stop"}' });
    expect(first.json).toMatchObject({ event: 'Stop', outcome: 'block', reason: 'Run the tests first' });
    expect(first.json.hooks.map((h) => h.name)).toEqual(['gate']);
    const again = await runCliJson<RunResult>(['run', '--trust-all', '--input', '-', '--json'], { cwd: dir, input: '{"hook_event_name":"Stop","stop_hook_active":true}' });
    expect(again.json).toMatchObject({ event: 'Stop', outcome: 'proceed' });
  });

  it('says so when no hook runs', async () => {
    const { dir } = await project();
    const { code, stdout } = await runCli(['run', '--trust-all', '--event', 'SessionStart'], { cwd: dir });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^decision +allow$/m);
    expect(stdout).toContain('No hook ran for SessionStart');
  });

  it('exits 1 when a hook fails or a definition has an error, and still dispatches to the others', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'crash', {}, 'cat >/dev/null; exit 3');
    const failed = await runCliJson<RunResult>(['run', '--trust-all', '--event', 'PreToolUse', '--json'], { cwd: dir });
    expect(failed.code).toBe(1);
    expect(failed.json).toMatchObject({ outcome: 'proceed', hooks: [expect.objectContaining({ name: 'crash', exitCode: 3 })] });
    expect(failed.json.notes).toEqual([expect.objectContaining({ level: 'warning', hookName: 'crash', code: 'exit-code' })]);
    const text = await runCli(['run', '--trust-all', '--event', 'PreToolUse'], { cwd: dir });
    expect(text.stdout).toMatch(/^warning Hook 'crash' exited with code 3/m);

    await scriptHook(hooks, 'crash', {}, 'cat >/dev/null; exit 0');
    await scriptHook(hooks, 'bad', { trigger: 'PreToolUse', timeout: 'soon' });
    const problems = await runCliJson<RunResult>(['run', '--trust-all', '--event', 'PreToolUse', '--json'], { cwd: dir });
    expect(problems.code).toBe(1);
    expect(problems.json.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid-type' })]);
    expect(problems.json.hooks.map((h) => h.name)).toEqual(['crash']);
    expect((await runCli(['run', '--trust-all', '--event', 'PreToolUse'], { cwd: dir })).stdout).toMatch(/Problems \(1 error, 0 warnings\)\nerror \.agents\/hooks\/bad\/HOOK\.md: timeout: /);
  });

  it('runs the hooks of another project with --project and extra folders with --hooks-dir', async () => {
    const { dir } = await project();
    await scriptHook(join(dir, 'app', '.agents', 'hooks'), 'app-guard', {}, 'cat >/dev/null; echo app >&2; exit 2');
    await scriptHook(join(dir, 'shared'), 'shared-guard', { priority: 200 }, 'cat >/dev/null; echo shared >&2; exit 2');
    expect((await runCliJson<RunResult>(['run', '--trust-all', '--event', 'PreToolUse', '--project', 'app', '--json'], { cwd: dir })).json.reason).toBe('app');
    // --hooks-dir is relative to the project.
    const both = await runCliJson<RunResult>(['run', '--trust-all', '--event', 'PreToolUse', '--project', 'app', '--hooks-dir', '../shared', '--json'], { cwd: dir });
    expect(both.json.reason).toBe('shared');
  });

  it('exits 2 without an event, with an unknown one, or with --tool on an event without a tool', async () => {
    const { dir } = await project();
    for (const [args, message] of [
      [['run'], /name the event: --event E/],
      [['run', '--event', 'BeforeTools'], /Unknown hook event 'BeforeTools'/],
      [['run', '--event', 'Stop', '--tool', 'bash'], /--tool and --args describe a tool call, and Stop concerns none/],
      [['run', '--input', '-'], /the input names an unknown event/],
      [['run', 'PreToolUse'], /unexpected argument "PreToolUse"/],
    ] as const) {
      const result = await runCli(args, { cwd: dir, input: '{"event_type":"nope"}' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });
});
