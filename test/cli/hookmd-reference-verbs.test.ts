import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { scriptHook, tempProject } from '../support/cli.js';
import { writeExecutable } from '../support/script-fixture.js';

// In process, through the same entry the executable calls: the commands' parsing, loading and printing are what is
// tested here, not the build.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function projects(): Promise<Awaited<ReturnType<typeof tempProject>>> {
  const project = await tempProject();
  cleanups.push(project.cleanup);
  return project;
}

async function runCli(args: readonly string[], options: { cwd: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, XDG_CONFIG_HOME: join(options.cwd, 'xdg'), HOME: join(options.cwd, 'home') };
  const code = await main(args, cliIO({ out: (t) => out.push(t), err: (t) => err.push(t), cwd: options.cwd, env }));
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function runCliJson<T = Record<string, unknown>>(args: readonly string[], options: { cwd: string }): Promise<{ code: number; json: T }> {
  const result = await runCli(args, options);
  try {
    return { code: result.code, json: JSON.parse(result.stdout) as T };
  } catch {
    throw new Error(`agent-hooks ${args.join(' ')} printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}

// Written in the style of the format's reference example: it reads the event by grepping the bytes json.dumps writes.
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


describe('agent-hooks to-prompt', () => {
  it('prints the <available_hooks> block of the hooks named, escaped, with the matcher', async () => {
    const { dir, hooks } = await projects();
    const guard = await scriptHook(hooks, 'guard', { description: 'Refuses <rm> & "mkfs"', matcher: { tool: 'Shell', pattern: 'rm|mkfs' } });
    const notify = await scriptHook(hooks, 'notify', { description: 'Says the session ended.', trigger: 'post-session' });
    const result = await runCli(['to-prompt', guard, notify], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd()).toBe(
      [
        '<available_hooks>',
        '<hook>',
        '<name>', 'guard', '</name>',
        '<description>', 'Refuses &lt;rm&gt; &amp; &quot;mkfs&quot;', '</description>',
        '<trigger>', 'pre-tool-call', '</trigger>',
        '<location>', join(guard, 'HOOK.md'), '</location>',
        '<matcher>', '<tool>', 'Shell', '</tool>', '<pattern>', 'rm|mkfs', '</pattern>', '</matcher>',
        '</hook>',
        '<hook>',
        '<name>', 'notify', '</name>',
        '<description>', 'Says the session ended.', '</description>',
        '<trigger>', 'post-session', '</trigger>',
        '<location>', join(notify, 'HOOK.md'), '</location>',
        '</hook>',
        '</available_hooks>',
      ].join('\n'),
    );
  });

  it('without folders, discloses the project hooks, highest priority first; --json gives the hooks and the block', async () => {
    const { dir, hooks } = await projects();
    await scriptHook(hooks, 'low', { priority: 10 });
    await scriptHook(hooks, 'high', { priority: 900, trigger: 'before_tool' });
    await mkdir(join(hooks, 'broken'), { recursive: true });
    await writeFile(join(hooks, 'broken', 'HOOK.md'), '---\nname: broken\n---\n');
    const { code, json } = await runCliJson<{ hooks: { name: string; trigger: string }[]; xml: string; problems: unknown[] }>(['to-prompt', '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json.hooks.map((h) => [h.name, h.trigger])).toEqual([['high', 'before_tool'], ['low', 'pre-tool-call']]);
    expect(json.xml).toMatch(/^<available_hooks>\n<hook>\n<name>\nhigh\n/);
    expect(json.problems).toContainEqual(expect.objectContaining({ hookName: 'broken', severity: 'error' }));
  });
});

describe('agent-hooks read-properties', () => {
  it('prints one hook’s values with the defaults filled in', async () => {
    const { dir, hooks } = await projects();
    const folder = await scriptHook(hooks, 'café-hook', { description: '  Padded.  ', metadata: { team: 'sec' } });
    const { code, json } = await runCliJson(['read-properties', join(folder, 'HOOK.md')], { cwd: dir });
    expect(code).toBe(0);
    expect(json).toEqual({
      name: 'café-hook',
      description: 'Padded.',
      trigger: 'pre-tool-call',
      event: 'PreToolUse',
      timeout: 30000,
      async: false,
      priority: 100,
      metadata: { team: 'sec' },
      location: join(folder, 'HOOK.md'),
    });
  });

  it('--json gives the problems too, and exits 1 for a definition with an error', async () => {
    const { dir, hooks } = await projects();
    const folder = await scriptHook(hooks, 'floaty', { timeout: '5000.0' });
    await writeFile(join(folder, 'HOOK.md'), '---\nname: floaty\ndescription: d\ntrigger: pre-tool-call\ntimeout: 5000.0\n---\n');
    const { code, json } = await runCliJson<{ properties: unknown; problems: { message: string }[] }>(['read-properties', folder, '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json.properties).toBeNull();
    expect(json.problems[0]!.message).toMatch(/write it as the whole number 5000/);
  });
});

describe('list and validate with the reference runtime in mind', () => {
  it('list --json carries the description, the trigger as written and the metadata, and warns of a legacy trigger', async () => {
    const { dir, hooks } = await projects();
    await scriptHook(hooks, 'guard', { description: 'Refuses rm.', trigger: 'before_tool', metadata: { owner: 'sec' } });
    const { json } = await runCliJson<{ hooks: Record<string, unknown>[]; problems: Record<string, unknown>[] }>(['list', '--json', '--trust-all'], { cwd: dir });
    expect(json.hooks[0]).toMatchObject({ name: 'guard', description: 'Refuses rm.', trigger: 'before_tool', metadata: { owner: 'sec' } });
    expect(json.problems).toContainEqual(expect.objectContaining({ code: 'non-portable-trigger', severity: 'warning', message: expect.stringContaining('trigger: pre-tool-call') }));
  });

  it('validate warns of PreToolUse and preToolUse, naming pre-tool-call, and still passes', async () => {
    const { dir, hooks } = await projects();
    await scriptHook(hooks, 'claude-style', { trigger: 'PreToolUse' });
    await scriptHook(hooks, 'copilot-style', { trigger: 'preToolUse' });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(0);
    const text = result.stdout + result.stderr;
    expect(text.match(/trigger: pre-tool-call/g)?.length).toBe(2);
  });
});

describe('agent-hooks test with a guard in the reference examples’ style', () => {
  it('blocks mkfs and allows ls', async () => {
    const { dir, hooks } = await projects();
    const folder = join(hooks, 'block-dangerous-commands');
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(
      join(folder, 'HOOK.md'),
      '---\nname: block-dangerous-commands\ndescription: Blocks dangerous shell commands.\ntrigger: pre-tool-call\nmatcher:\n  tool: Shell\n  pattern: "rm -rf /|mkfs|dd if=/dev/zero"\n---\n',
    );
    await writeExecutable(join(folder, 'scripts', 'run.sh'), SECURITY_GUARD);
    const blocked = await runCliJson(['test', folder, '--tool', 'Shell', '--args', '{"command":"mkfs.ext4 /dev/sda1"}', '--json'], { cwd: dir });
    expect(blocked.json).toMatchObject({ outcome: 'block', reason: 'Dangerous command blocked: mkfs would destroy the system' });
    const allowed = await runCliJson(['test', folder, '--tool', 'Shell', '--args', '{"command":"ls -la"}', '--json'], { cwd: dir });
    expect(allowed.json).toMatchObject({ outcome: 'proceed' });
  });
});
