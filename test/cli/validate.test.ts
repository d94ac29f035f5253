import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontmatter } from '../support/hook-folders.js';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

const project = cliProjects();

interface Validation {
  checked: { name: string; file: string; ok: boolean }[];
  problems: { severity: string; code: string; file: string; field: string | null; found: string | null; allowed: string | null; line: number | null; message: string }[];
}

/** A hook folder with exactly this HOOK.md text and an executable scripts/run. */
async function rawHook(root: string, folder: string, hookMd: string): Promise<string> {
  const dir = join(root, folder);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), hookMd);
  await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return dir;
}

const valid = { description: 'A hook.', trigger: 'pre-tool-call' };

describe('agent-hooks validate', () => {
  it('passes a valid hook folder, HOOK.md file, folder of hooks and project, and exits 0', async () => {
    const { dir, hooks } = await project();
    const guard = await scriptHook(hooks, 'guard', { matcher: { tool: 'Write|Edit', pattern: '\\.env$' }, timeout: 100, priority: 1000, async: true, metadata: { owner: 'sec' } });
    await scriptHook(hooks, 'gate', { trigger: 'pre-agent-turn-stop' });
    for (const args of [[guard], [join(guard, 'HOOK.md')], [hooks], [dir], [], ['--project', '.']]) {
      const { code, json } = await runCliJson<Validation>(['validate', ...args, '--json'], { cwd: dir });
      expect(code, args.join(' ')).toBe(0);
      expect(json.problems).toEqual([]);
      expect(json.checked.length).toBeGreaterThan(0);
      expect(json.checked.every((c) => c.ok)).toBe(true);
    }
    const { json } = await runCliJson<Validation>(['validate', '--json'], { cwd: dir });
    expect(json.checked).toEqual([
      { name: 'gate', file: join(hooks, 'gate', 'HOOK.md'), ok: true },
      { name: 'guard', file: join(hooks, 'guard', 'HOOK.md'), ok: true },
    ]);
    const text = await runCli(['validate'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^✓ gate +\.agents\/hooks\/gate\/HOOK\.md$/m);
    expect(text.stdout).toContain('2 hooks checked: 0 errors, 0 warnings');
  });

  it('gives the reference validator’s verdicts: name rules, ranges, unknown keys, regexes, required fields', async () => {
    const { dir, hooks } = await project();
    const cases: [folder: string, fields: Record<string, unknown>, code: string, field: string | null][] = [
      ['upper', { name: 'Upper', ...valid }, 'invalid-name', 'name'],
      ['double--hyphen', { name: 'double--hyphen', ...valid }, 'invalid-name', 'name'],
      ['trailing', { name: 'trailing-', ...valid }, 'invalid-name', 'name'],
      ['folder', { name: 'other', ...valid }, 'name-mismatch', 'name'],
      ['long', { name: 'a'.repeat(65), ...valid }, 'out-of-range', 'name'],
      ['timeout', { name: 'timeout', ...valid, timeout: 99 }, 'out-of-range', 'timeout'],
      ['timeout-max', { name: 'timeout-max', ...valid, timeout: 600001 }, 'out-of-range', 'timeout'],
      ['priority', { name: 'priority', ...valid, priority: -1 }, 'out-of-range', 'priority'],
      ['fraction', { name: 'fraction', ...valid, priority: 1.5 }, 'invalid-type', 'priority'],
      ['empty-description', { name: 'empty-description', description: '', trigger: 'pre-tool-call' }, 'out-of-range', 'description'],
      ['no-trigger', { name: 'no-trigger', description: 'x' }, 'missing-field', 'trigger'],
      ['bad-trigger', { name: 'bad-trigger', description: 'x', trigger: 'pre_tool' }, 'unknown-trigger', 'trigger'],
      ['unknown-key', { name: 'unknown-key', ...valid, tags: ['x'] }, 'unknown-key', 'tags'],
      ['matcher-key', { name: 'matcher-key', ...valid, matcher: { tools: 'bash' } }, 'unknown-key', 'matcher.tools'],
      ['regex', { name: 'regex', ...valid, matcher: { tool: '(bash' } }, 'invalid-regex', 'matcher.tool'],
      ['async-type', { name: 'async-type', ...valid, async: 'maybe' }, 'invalid-type', 'async'],
    ];
    for (const [folder, fields] of cases) await rawHook(hooks, folder, frontmatter(fields));
    const { code, json } = await runCliJson<Validation>(['validate', hooks, '--json'], { cwd: dir });
    expect(code).toBe(1);
    for (const [folder, , problemCode, field] of cases) {
      const own = json.problems.filter((p) => p.file === join(hooks, folder, 'HOOK.md'));
      expect(own.map((p) => [p.code, p.field]), folder).toContainEqual([problemCode, field]);
      expect(own.every((p) => p.severity === 'error'), folder).toBe(true);
      expect(json.checked.find((c) => c.name === folder)?.ok, folder).toBe(false);
    }
    const range = json.problems.find((p) => p.file.endsWith('/timeout/HOOK.md'))!;
    expect([range.found, range.allowed]).toEqual(['99', 'an integer from 100 to 600000 (milliseconds)']);
  });

  it('reports YAML errors with their line, and scripts that cannot run', async () => {
    const { dir, hooks } = await project();
    await rawHook(hooks, 'yaml', '---\nname: yaml\ndescription: [unclosed\ntrigger: pre-tool-call\n---\n');
    const noScript = join(hooks, 'no-script');
    await mkdir(noScript, { recursive: true });
    await writeFile(join(noScript, 'HOOK.md'), frontmatter({ name: 'no-script', ...valid }));
    const locked = await scriptHook(hooks, 'locked', {});
    await chmod(join(locked, 'scripts', 'run'), 0o644);
    const { code, json } = await runCliJson<Validation>(['validate', '--json'], { cwd: dir });
    expect(code).toBe(1);
    const yaml = json.problems.find((p) => p.code === 'yaml-syntax')!;
    expect(yaml.file).toBe(join(hooks, 'yaml', 'HOOK.md'));
    expect(yaml.line).toBeGreaterThan(0);
    expect(json.problems).toContainEqual(expect.objectContaining({ code: 'no-entry', file: join(noScript, 'HOOK.md') }));
    // Root may execute anything: the mode bits say nothing then.
    if (process.getuid?.() !== 0) {
      expect(json.problems).toContainEqual(expect.objectContaining({ code: 'not-executable', file: join(locked, 'scripts', 'run') }));
    }
  });

  it('exits 0 on warnings alone, and prints each problem with file, field, found and allowed', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'gate', { trigger: 'pre-agent-turn-stop', matcher: { tool: 'bash' } });
    const { code, json } = await runCliJson<Validation>(['validate', '--json'], { cwd: dir });
    expect(code).toBe(0);
    expect(json.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'ignored-matcher', field: 'matcher', found: '{"tool":"bash"}' })]);
    expect(json.checked).toEqual([expect.objectContaining({ name: 'gate', ok: true })]);

    await scriptHook(hooks, 'bad', { timeout: 5 });
    const text = await runCli(['validate'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^✗ bad +\.agents\/hooks\/bad\/HOOK\.md$/m);
    expect(text.stdout).toMatch(/^! gate /m);
    expect(text.stdout).toMatch(
      /^error \.agents\/hooks\/bad\/HOOK\.md: timeout: timeout is out of range: .* The timeout is in milliseconds: for 5 seconds write 5000\. \(found 5; allowed: an integer from 100 to 600000 \(milliseconds\)\)$/m,
    );
    expect(text.stdout).toMatch(/^warning \.agents\/hooks\/gate\/HOOK\.md: matcher: The matcher is ignored/m);
    expect(text.stdout).toContain('2 hooks checked: 1 error, 1 warning');
  });

  it('fails on a path that is not there, a file that is not a HOOK.md, and a folder without hooks', async () => {
    const { dir } = await project();
    await writeFile(join(dir, 'settings.json'), '{}');
    await writeFile(join(dir, 'notes.txt'), 'hello');
    await mkdir(join(dir, 'empty'));
    const { code, json } = await runCliJson<Validation>(['validate', 'missing', 'settings.json', 'notes.txt', 'empty', '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json.problems.map((p) => [p.code, p.file])).toEqual([
      ['missing-file', join(dir, 'missing')],
      ['unknown-config', join(dir, 'settings.json')],
      ['unsupported-file', join(dir, 'notes.txt')],
      ['no-hooks', join(dir, 'empty')],
    ]);
  });

  it('checks agent config files: given as paths, and those of the project', async () => {
    const { dir } = await project();
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Edit(', hooks: [{ type: 'command', command: 'x' }] }] } }));
    await mkdir(join(dir, '.github', 'hooks'), { recursive: true });
    await writeFile(join(dir, '.github', 'hooks', 'ok.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'y' }] } }));
    await mkdir(join(dir, '.cursor'));
    await writeFile(join(dir, '.cursor', 'hooks.json'), '{"hooks": {,}}');
    const all = await runCliJson<Validation>(['validate', '--json'], { cwd: dir });
    expect(all.code).toBe(1);
    expect(all.json.checked.map((c) => [c.name, c.ok])).toEqual([
      ['.claude/settings.json', false],
      ['hooks/ok.json', true],
      ['.cursor/hooks.json', false],
    ]);
    expect(all.json.problems.map((p) => [p.code, p.field ?? p.line])).toEqual([
      ['invalid-matcher', 'hooks.PreToolUse[0].matcher'],
      ['invalid-json', 1],
    ]);
    const one = await runCli(['validate', '.github/hooks/ok.json'], { cwd: dir });
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('1 hook checked');
    const text = await runCli(['validate', '.claude/settings.json'], { cwd: dir });
    expect(text.stdout).toMatch(/^error \.claude\/settings\.json: hooks\.PreToolUse\[0\]\.matcher: .*Edit\(/m);
  });

  it('says so when the project has no hooks to check, and exits 0', async () => {
    const { dir } = await project();
    const text = await runCli(['validate'], { cwd: dir });
    expect(text).toMatchObject({ code: 0, stdout: expect.stringContaining('No HOOK.md hooks or agent config files in') });
    expect((await runCliJson<Validation>(['validate', '--json'], { cwd: dir })).json).toEqual({ checked: [], problems: [] });
  });

  it('exits 2 on an unknown flag', async () => {
    const { dir } = await project();
    expect(await runCli(['validate', '--strict'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option --strict') });
  });
});
