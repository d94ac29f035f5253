/**
 * `agent-hooks bridge --from cline` as Cline's CLI 3.0 runs it: a child process fed the payloads Cline 3.0.65 wrote
 * (the captures in test/bridge/fixtures/cline/), in the workspace root and with no project variable. Cline reads only
 * a JSON answer on stdout and ignores the exit code, so every refusal here must be `{"cancel": true}` on stdout.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).
const project = cliProjects();

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../bridge/fixtures/cline/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** Cline's PreToolUse payload for `commands` run by its shell tool, in the project `dir`. */
const toolCall = (dir: string, commands: string[]): string => {
  const recorded = fixture('PreToolUse.json');
  return JSON.stringify({
    ...recorded,
    workspaceRoots: [dir],
    tool_call: { ...(recorded.tool_call as object), input: { commands } },
    preToolUse: { toolName: 'run_commands', parameters: { commands: JSON.stringify(commands) } },
  });
};

const bridge = (dir: string, input: string) => runCli(['bridge', '--trust-all', '--from', 'cline'], { cwd: dir, input });

/** A `tool: Shell` guard written against the HOOK.md spec only: it reads `tool_input.command`. */
const GUARD = `case "$(cat)" in *'"command":"'*'rm -rf'*|*'"command": "'*'rm -rf'*) echo "no rm -rf here" >&2; exit 2 ;; esac\nexit 0`;

describe('agent-hooks bridge --from cline', () => {
  it('refuses the shell command a tool: Shell guard blocks with cancel on stdout and exit 0, and lets another one through in silence', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call', matcher: { tool: 'Shell' } }, GUARD);
    const denied = await bridge(dir, toolCall(dir, ['ls', 'rm -rf build']));
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({ cancel: true, errorMessage: 'no rm -rf here' });
    expect(await bridge(dir, toolCall(dir, ['touch allowed.txt']))).toMatchObject({ code: 0, stdout: '' });
  });

  it('hands Cline a rewrite as overrideInput in its own shape, and a context as contextModification', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'quiet', { trigger: 'pre-tool-call' }, `cat > /dev/null\necho '{"modified_input":{"command":"echo rewritten > out.txt"},"additional_context":"ran quietly"}'`);
    const result = await bridge(dir, toolCall(dir, ['echo original > out.txt']));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ contextModification: 'ran quietly', overrideInput: { commands: ['echo rewritten > out.txt'] } });
  });

  it('answers a crashing hook that fails closed with cancel (not exit 2, which Cline ignores), and goes on past one that fails open', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'crash-closed', { trigger: 'pre-tool-call', matcher: { tool: 'Shell', pattern: 'closed' }, metadata: { failClosed: true } }, 'cat > /dev/null\nexit 3');
    await scriptHook(hooks, 'crash-open', { trigger: 'pre-tool-call', matcher: { tool: 'Shell', pattern: 'open' } }, 'cat > /dev/null\nexit 3');
    const closed = await bridge(dir, toolCall(dir, ['touch closed.txt']));
    expect(closed.code).toBe(0);
    const answer = JSON.parse(closed.stdout) as { cancel?: boolean; errorMessage?: string };
    expect(answer.cancel).toBe(true);
    expect(answer.errorMessage).toContain('crash-closed');
    const open = await bridge(dir, toolCall(dir, ['touch open.txt']));
    expect(open).toMatchObject({ code: 0, stdout: '' });
  });

  it('reads TaskStart, PostToolUse and TaskComplete, giving the session context Cline adds to the task', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'session', { trigger: 'pre-session' }, `cat > /dev/null\necho '{"additional_context":"read CONTRIBUTING.md"}'`);
    await scriptHook(hooks, 'post', { trigger: 'post-tool-call', matcher: { tool: 'Shell' } }, `cat > /dev/null\necho '{"additional_context":"the file is there"}'`);
    const at = (name: string) => JSON.stringify({ ...fixture(name), workspaceRoots: [dir] });
    expect(JSON.parse((await bridge(dir, at('TaskStart.json'))).stdout)).toEqual({ contextModification: 'read CONTRIBUTING.md' });
    expect(JSON.parse((await bridge(dir, at('PostToolUse.json'))).stdout)).toEqual({ contextModification: 'the file is there' });
    expect(await bridge(dir, at('TaskComplete.json'))).toMatchObject({ code: 0, stdout: '' });
  });

  it('bridge --install cline writes one executable script per event that refuses through the bridge, and keeps a hook of the project’s own', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call', matcher: { tool: 'Shell' } }, GUARD);
    expect((await runCli(['trust', '--all'], { cwd: dir })).code).toBe(0);
    const installed = await runCli(['bridge', '--install', 'cline', '--events', 'PreToolUse,SessionStart'], { cwd: dir });
    expect(installed).toMatchObject({ code: 0 });
    const script = join(dir, '.clinerules', 'hooks', 'PreToolUse');
    expect((await stat(script)).mode & 0o111).toBe(0o111);
    expect(await readFile(script, 'utf8')).toMatch(/^#!\/bin\/sh\n[\s\S]*\nNODE_OPTIONS= NODE_COMPILE_CACHE= exec .*bridge --from cline\n$/);
    expect((await stat(join(dir, '.clinerules', 'hooks', 'TaskStart'))).isFile()).toBe(true);
    // Run as Cline runs it: the script itself, in the workspace root, with the payload on stdin.
    const ran = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(script, [], { cwd: dir, env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), HOME: join(dir, 'home') } });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
      child.stdin.end(toolCall(dir, ['rm -rf build']));
    });
    expect(ran.stdout === '' ? ran : JSON.parse(ran.stdout)).toEqual({ cancel: true, errorMessage: 'no rm -rf here' });
    expect((await runCli(['bridge', '--install', 'cline', '--events', 'PreToolUse'], { cwd: dir })).stdout).not.toContain('added');

    await writeFile(join(dir, '.clinerules', 'hooks', 'PostToolUse'), '#!/bin/sh\necho my own\n');
    const refused = await runCli(['bridge', '--install', 'cline', '--events', 'PostToolUse'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is a hook of the project\'s own');
    expect(await readFile(join(dir, '.clinerules', 'hooks', 'PostToolUse'), 'utf8')).toBe('#!/bin/sh\necho my own\n');
  }, 90_000);
});
