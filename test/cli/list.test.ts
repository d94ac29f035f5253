import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).

const project = cliProjects();

interface Listing {
  hooks: { name: string; events: string[]; priority: number; kind: string; source: string; matcher: string | null; async: boolean; timeoutMs: number | null; file: string }[];
  problems: { severity: string; code: string; file: string; field: string | null; found: string | null; allowed: string | null; hookName: string | null; message: string; line: number | null }[];
}

describe('agent-hooks list', () => {
  it('lists user, project and --hooks-dir hooks in the order the stack runs them', async () => {
    const { dir, hooks, userHooks } = await project();
    await scriptHook(hooks, 'guard', { priority: 900, matcher: { tool: '^bash$', pattern: 'rm -rf' }, timeout: 5000 });
    await scriptHook(hooks, 'format', { trigger: 'post-tool-call', async: true });
    await scriptHook(userHooks, 'audit', { trigger: 'before_tool' });
    await scriptHook(join(dir, 'more'), 'gate', { trigger: 'Stop', priority: 50 });

    const { code, json } = await runCliJson<Listing>(['list', '--trust-all', '--json', '--hooks-dir', 'more'], { cwd: dir });
    expect(code).toBe(0);
    // Priority first; at equal priority the user's hooks before the project's.
    expect(json.hooks.map((h) => [h.priority, h.name, h.source])).toEqual([
      [900, 'guard', 'project'],
      [100, 'audit', 'user'],
      [100, 'format', 'project'],
      [50, 'gate', 'extra'],
    ]);
    expect(json.hooks[0]).toEqual({
      name: 'guard',
      events: ['PreToolUse'],
      priority: 900,
      kind: 'HOOK.md',
      source: 'project',
      matcher: 'tool:^bash$ pattern:rm -rf',
      async: false,
      timeoutMs: 5000,
      file: join(hooks, 'guard', 'HOOK.md'),
      trust: null,
      description: 'The guard hook.',
      trigger: 'pre-tool-call',
      metadata: {},
    });
    expect(json.hooks[2]).toMatchObject({ events: ['PostToolUse'], async: true, matcher: null, timeoutMs: 30000 });
    // The older and the canonical trigger names load, with a warning naming the portable one.
    expect(json.problems.map((p) => [p.hookName, p.code, p.severity])).toEqual([
      ['audit', 'non-portable-trigger', 'warning'],
      ['gate', 'non-portable-trigger', 'warning'],
    ]);

    const text = await runCli(['list', '--trust-all', '--hooks-dir', 'more'], { cwd: dir });
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^priority +name +event +source +matcher +mode +timeout +file$/);
    expect(lines[1]).toMatch(/^900 +guard +PreToolUse +HOOK\.md project +tool:\^bash\$ pattern:rm -rf +sync +5000 ms +\.agents\/hooks\/guard\/HOOK\.md$/);
    expect(lines[3]).toMatch(/^100 +format +PostToolUse +HOOK\.md project +\* +async +30000 ms/);
    expect(lines.slice(5).join('\n')).toMatch(/trigger: pre-tool-call/);
  });

  it('warns about a tool matcher that no agent’s tool can meet, and still lists the hook', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'typo', { matcher: { tool: '^Shel$' } });
    await scriptHook(hooks, 'fine', { matcher: { tool: 'Shell' } });
    const { code, json } = await runCliJson<Listing>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(code).toBe(0);
    expect(json.hooks.map((h) => h.name).sort()).toEqual(['fine', 'typo']);
    expect(json.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'unknown-tool', field: 'matcher.tool', hookName: 'typo' })]);
    const validate = await runCli(['validate', join(hooks, 'typo')], { cwd: dir });
    expect(validate.stdout + validate.stderr).toContain('matches none of the tool names');
  });

  it('lists the hooks of agents’ config files beside HOOK.md hooks, with their problems', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', {});
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: './lint.sh', timeout: 20 }] }] } }));
    await mkdir(join(dir, 'home', '.claude'), { recursive: true });
    await writeFile(join(dir, 'home', '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] } }));
    await mkdir(join(dir, '.github', 'hooks'), { recursive: true });
    await writeFile(join(dir, '.github', 'hooks', 'policy.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './policy.sh', matcher: 'bash' }] } }));
    await mkdir(join(dir, '.cursor'));
    await writeFile(join(dir, '.cursor', 'hooks.json'), '{ "hooks": ');
    const { code, json } = await runCliJson<Listing>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json.hooks.map((h) => [h.name, h.kind, h.source, h.events[0], h.matcher, h.timeoutMs])).toEqual([
      ['guard', 'HOOK.md', 'project', 'PreToolUse', null, 30000],
      ['notify.sh', 'claude', 'user', 'Stop', null, 600000],
      ['./lint.sh', 'claude', 'project', 'PreToolUse', 'Write|Edit', 20000],
      ['./policy.sh', 'copilot', 'project', 'PreToolUse', 'bash', 30000],
    ]);
    expect(json.hooks[2]!.file).toBe(join(dir, '.claude', 'settings.json'));
    expect(json.problems).toEqual([expect.objectContaining({ code: 'invalid-json', file: join(dir, '.cursor', 'hooks.json'), line: 1 })]);
  });

  it('shows only the hooks of one event with --event, named in any dialect', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', {});
    await scriptHook(hooks, 'gate', { trigger: 'pre-agent-turn-stop' });
    for (const name of ['Stop', 'agentStop', 'before_stop']) {
      const { json } = await runCliJson<Listing>(['list', '--trust-all', '--event', name, '--json'], { cwd: dir });
      expect(json.hooks.map((h) => h.name), name).toEqual(['gate']);
    }
    const none = await runCli(['list', '--trust-all', '--event', 'SessionStart'], { cwd: dir });
    expect(none).toMatchObject({ code: 0, stdout: expect.stringContaining('No hooks run for SessionStart') });
  });

  it('lets a project hook replace the user’s hook of the same name', async () => {
    const { dir, hooks, userHooks } = await project();
    await scriptHook(userHooks, 'audit', { priority: 10 });
    await scriptHook(hooks, 'audit', { priority: 20 });
    const { json } = await runCliJson<Listing>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(json.hooks.map((h) => [h.name, h.source, h.priority])).toEqual([['audit', 'project', 20]]);
  });

  it('lists problems below the hooks, with file and field, and exits 1 when one is an error', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'good', {});
    await scriptHook(hooks, 'bad', { priority: 5000, colour: 'red' });
    const { code, json } = await runCliJson<Listing>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json.hooks.map((h) => h.name)).toEqual(['good']);
    const file = join(hooks, 'bad', 'HOOK.md');
    expect(json.problems).toEqual([
      expect.objectContaining({ severity: 'error', code: 'out-of-range', file, field: 'priority', found: '5000', allowed: 'an integer from 0 to 1000', hookName: 'bad', line: null }),
      expect.objectContaining({ severity: 'error', code: 'unknown-key', file, field: 'colour', found: '"red"' }),
    ]);

    const text = await runCli(['list', '--trust-all'], { cwd: dir });
    expect(text.code).toBe(1);
    const [table, problems] = text.stdout.split('\nProblems (2 errors, 0 warnings)\n');
    expect(table).toMatch(/good/);
    expect(problems).toMatch(/^error \.agents\/hooks\/bad\/HOOK\.md: priority: priority is out of range.*\(found 5000; allowed: an integer from 0 to 1000\)$/m);
    expect(problems).toMatch(/^error \.agents\/hooks\/bad\/HOOK\.md: colour: Unknown key colour/m);
  });

  it('exits 0 when every problem is a warning', async () => {
    const { dir, hooks } = await project();
    // A matcher on an event that concerns no tool is ignored: the hook loads, with a warning.
    await scriptHook(hooks, 'gate', { trigger: 'pre-agent-turn-stop', matcher: { tool: 'bash' } });
    const { code, json } = await runCliJson<Listing>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(code).toBe(0);
    expect(json.hooks.map((h) => [h.name, h.matcher])).toEqual([['gate', null]]);
    expect(json.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'ignored-matcher', field: 'matcher' })]);
  });

  it('reads another project with --project, and says when there is nothing', async () => {
    const { dir } = await project();
    const other = join(dir, 'other');
    await mkdir(join(other, '.agents', 'hooks'), { recursive: true });
    await scriptHook(join(other, '.agents', 'hooks'), 'elsewhere', {});
    expect((await runCliJson<Listing>(['list', '--trust-all', '--project', 'other', '--json'], { cwd: dir })).json.hooks.map((h) => h.name)).toEqual(['elsewhere']);
    const empty = await runCliJson<Listing>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(empty).toMatchObject({ code: 0, json: { hooks: [], problems: [] } });
    expect((await runCli(['list', '--trust-all'], { cwd: dir })).stdout).toContain(`No hooks in ${dir}.`);
  });

  it('reports an unreadable hooks folder as a problem, not a crash', async () => {
    const { dir } = await project();
    await writeFile(join(dir, 'not-a-dir'), 'x');
    const { code, json } = await runCliJson<Listing>(['list', '--trust-all', '--json', '--hooks-dir', 'not-a-dir'], { cwd: dir });
    expect(code).toBe(0);
    expect(json.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'unreadable' })]);
  });

  it('exits 2 with the usage on an unknown flag, event or argument', async () => {
    const { dir } = await project();
    const flag = await runCli(['list', '--trust-all', '--yaml'], { cwd: dir });
    expect(flag).toMatchObject({ code: 2, stdout: '' });
    expect(flag.stderr).toContain('agent-hooks list: unknown option --yaml');
    expect(flag.stderr).toContain('Usage: agent-hooks list [--project DIR]');
    expect(await runCli(['list', '--trust-all', '--event', 'PreTool'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining("Did you mean 'PreToolUse'?") });
    expect(await runCli(['list', '--trust-all', 'extra'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('unexpected argument "extra"') });
    expect(await runCli(['list', '--trust-all', '--event'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('option --event needs a value') });
  });

  it('says when an installed matcher is outdated, for the command bridge and for the http hooks alike', async () => {
    const { dir, hooks } = await project();
    await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(dir, 'node_modules', '.bin', 'agent-hooks'), '');
    await scriptHook(hooks, 'shell-guard', { trigger: 'pre-tool-call', matcher: { tool: '^Bash$' } });
    // Codex keeps the command bridge; Claude Code's is turned into http hooks, which keep the matcher they found.
    expect((await runCli(['bridge', '--install', 'codex'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['bridge', '--install', 'claude'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['bridge', '--install', 'claude', '--http'], { cwd: dir })).code).toBe(0);
    const claude = JSON.parse(await readFile(join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(claude.hooks.PreToolUse).toEqual([{ matcher: expect.stringContaining('Bash'), hooks: [expect.objectContaining({ type: 'http' })] }]);
    expect((await runCli(['list', '--trust-all'], { cwd: dir })).stdout).not.toContain('matcher is');

    await scriptHook(hooks, 'all-tools', { trigger: 'pre-tool-call' });
    const listed = (await runCli(['list', '--trust-all'], { cwd: dir })).stdout;
    expect(listed).toMatch(/\.codex\/hooks\.json: the bridge's PreToolUse matcher is ".*Bash.*", the hooks now need none \(every tool\): run 'agent-hooks bridge --install codex'\./);
    expect(listed).toMatch(/\.claude\/settings\.json: the http hooks' PreToolUse matcher is ".*Bash.*", the hooks now need none \(every tool\): remove that "matcher" from \.claude\/settings\.json\./);
    // Installing the http hooks again leaves the matcher, as the line says; removed by hand, the line goes.
    expect((await runCli(['bridge', '--install', 'claude', '--http'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['list', '--trust-all'], { cwd: dir })).stdout).toContain("the http hooks' PreToolUse matcher is");
    delete claude.hooks.PreToolUse[0].matcher;
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify(claude));
    expect((await runCli(['list', '--trust-all'], { cwd: dir })).stdout).not.toContain("the http hooks'");
  });
});
