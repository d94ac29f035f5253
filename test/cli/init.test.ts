import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, runCliJson } from '../support/cli.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).

const project = cliProjects();

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

interface TestResult {
  decision: string;
  outcome: string;
  reason: string | null;
  modifiedInput: Record<string, unknown> | null;
  additionalContext: string[];
  exitCode: number | null;
  notes: unknown[];
}

const ENTRIES = { sh: 'scripts/run.sh', node: 'scripts/run', py: 'scripts/run.py' } as const;

describe('agent-hooks init', () => {
  for (const lang of ['sh', 'node', 'py'] as const) {
    it.skipIf(lang === 'py' && !hasPython)(`scaffolds a ${lang} hook that validates and answers on every exit path`, async () => {
      const { dir, hooks } = await project();
      const created = await runCli(['init', 'guard', '--lang', lang], { cwd: dir });
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toContain(`Created .agents/hooks/guard/HOOK.md\nCreated .agents/hooks/guard/${ENTRIES[lang]}`);
      expect(created.stdout).toContain(`agent-hooks test .agents/hooks/guard --tool bash --args '{"command":"rm -rf /"}'`);
      const script = join(hooks, 'guard', ENTRIES[lang]);
      expect((await stat(script)).mode & 0o111).not.toBe(0);
      expect(readdirSync(join(hooks, 'guard', 'scripts'))).toEqual([ENTRIES[lang].slice('scripts/'.length)]);

      const validated = await runCliJson<{ checked: { ok: boolean }[]; problems: unknown[] }>(['validate', '.agents/hooks/guard', '--json'], { cwd: dir });
      // It loads; only its placeholder description is left to write.
      expect(validated).toMatchObject({ code: 0, json: { checked: [{ ok: true }], problems: [{ code: 'placeholder-description' }] } });

      const fire = async (command: string) => {
        // As the hint says: by its path, which runs a new hook before it is trusted.
        const result = await runCliJson<TestResult>(['test', '.agents/hooks/guard', '--tool', 'bash', '--args', JSON.stringify({ command }), '--json'], { cwd: dir });
        expect(result.code, command).toBe(0);
        expect(result.json.notes, command).toEqual([]);
        return result.json;
      };
      expect(await fire('rm -rf /')).toMatchObject({ outcome: 'block', reason: 'Refusing a recursive forced delete (rm -rf).', exitCode: 2 });
      expect(await fire('git push --force')).toMatchObject({ outcome: 'block', reason: 'Force-pushing is not allowed in this project.', exitCode: 0 });
      expect(await fire('npm install')).toMatchObject({
        outcome: 'proceed',
        decision: 'allow',
        modifiedInput: { command: 'npm install --ignore-scripts' },
        additionalContext: ['Install scripts were turned off by a hook.'],
        exitCode: 0,
      });
      expect(await fire('ls -la')).toMatchObject({ outcome: 'proceed', reason: null, modifiedInput: null, exitCode: 0 });
    });
  }

  it('scaffolds for any event, in the HOOK.md name; a hook of an event without a tool input gets no rewrite branch', async () => {
    const { dir, hooks } = await project();
    expect((await runCli(['init', 'gate', '--event', 'before_stop', '--lang', 'node', '--description', 'Keeps the agent working: until the tests pass'], { cwd: dir })).code).toBe(0);
    const hookMd = await readFile(join(hooks, 'gate', 'HOOK.md'), 'utf8');
    expect(hookMd).toContain('trigger: pre-agent-turn-stop\n');
    expect(hookMd).toContain('description: "Keeps the agent working: until the tests pass"\n');
    expect(hookMd).not.toContain('matcher');
    expect(await readFile(join(hooks, 'gate', 'scripts', 'run'), 'utf8')).not.toContain('modified_input');
    const list = await runCliJson<{ hooks: { name: string; events: string[] }[] }>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(list.json.hooks).toEqual([expect.objectContaining({ name: 'gate', events: ['Stop'] })]);
    const fired = await runCliJson<TestResult>(['test', '--trust-all', 'gate', '--json'], { cwd: dir });
    expect(fired).toMatchObject({ code: 0, json: { outcome: 'proceed', exitCode: 0 } });
    const blocked = await runCliJson<TestResult>(['test', '--trust-all', 'gate', '--input', '-', '--json'], { cwd: dir, input: '{"final_message":"git push --force done"}' });
    expect(blocked.json).toMatchObject({ outcome: 'block', reason: 'Force-pushing is not allowed in this project.' });
  });

  it('writes a trigger that validate accepts without a warning, whichever agent names the event', async () => {
    for (const given of ['PreToolUse', 'preToolUse', 'BeforeTool', 'before_tool', 'pre-tool-call']) {
      const { dir } = await project();
      const created = await runCli(['init', 'guard', '--event', given, '--description', 'Refuses what the project does not allow.'], { cwd: dir });
      expect(created, given).toMatchObject({ code: 0, stderr: '' });
      expect(await readFile(join(dir, '.agents', 'hooks', 'guard', 'HOOK.md'), 'utf8'), given).toContain('trigger: pre-tool-call\n');
      const validated = await runCliJson<{ checked: { ok: boolean }[]; problems: unknown[] }>(['validate', '.agents/hooks/guard', '--json'], { cwd: dir });
      expect(validated, given).toMatchObject({ code: 0, json: { checked: [{ ok: true }], problems: [] } });
    }
  });

  it('says so when the HOOK.md format has no name for the event, and writes the one given', async () => {
    const { dir, hooks } = await project();
    const created = await runCli(['init', 'approve', '--event', 'PermissionRequest', '--description', 'Decides what needs approval.'], { cwd: dir });
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('the HOOK.md format has no trigger for PermissionRequest, so the hook says trigger: PermissionRequest');
    expect(await readFile(join(hooks, 'approve', 'HOOK.md'), 'utf8')).toContain('trigger: PermissionRequest\n');
  });

  it('writes into --project, and never overwrites an existing hook folder', async () => {
    const { dir } = await project();
    expect((await runCli(['init', 'guard', '--project', 'app'], { cwd: dir })).code).toBe(0);
    const file = join(dir, 'app', '.agents', 'hooks', 'guard', 'HOOK.md');
    await writeFile(file, 'edited');
    const again = await runCli(['init', 'guard', '--project', 'app', '--lang', 'node'], { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('app/.agents/hooks/guard already exists; nothing was written');
    expect(await readFile(file, 'utf8')).toBe('edited');
    expect(existsSync(join(dir, 'app', '.agents', 'hooks', 'guard', 'scripts', 'run'))).toBe(false);
  });

  it('exits 2 and writes nothing for a bad name, language or event', async () => {
    const { dir, hooks } = await project();
    const cases: [string[], RegExp][] = [
      [['init'], /name the hook/],
      [['init', 'My Hook'], /name may hold only lowercase letters, digits and single hyphens, e\.g\. my-hook/],
      [['init', '../escape'], /name may hold only lowercase letters/],
      [['init', 'a'.repeat(65)], /name is 65 characters long/],
      [['init', 'ok', '--lang', 'ruby'], /--lang must be one of node, sh, py, got "ruby"/],
      [['init', 'ok', '--event', 'pre-tool'], /Unknown hook event 'pre-tool'/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(readdirSync(hooks)).toEqual([]);
    expect(existsSync(join(dir, '.agents', 'escape'))).toBe(false);
  });
});
