import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cliIO } from '../../src/cli/io.js';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

const project = cliProjects();

/** A HOOK.md hook that refuses every tool call, by exit 2: whether it ran shows in the outcome. */
const REFUSE = `#!/bin/sh
cat > /dev/null
echo "refused by the project" >&2
exit 2`;

/** A project with a refusing HOOK.md hook and a Claude Code hook; the trust store is `xdg/agent-hooks/trust.json`. */
async function withHooks() {
  const p = await project();
  await scriptHook(p.hooks, 'guard', {}, REFUSE);
  await mkdir(join(p.dir, '.claude'));
  await writeFile(join(p.dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } }));
  return { ...p, store: join(p.dir, 'xdg', 'agent-hooks', 'trust.json') };
}

interface TrustJson {
  store: string;
  hooks: { name: string; kind: string; file: string; field: string | null; status: string; runs: string; changes: string[]; unpinned: string[] }[];
  trusted: string[];
}

interface RunJson {
  outcome: string;
  reason: string | null;
  hooks: { name: string }[];
  problems: { code: string; hookName: string | null; message: string }[];
}

const runPre = ['run', '--event', 'PreToolUse', '--tool', 'bash', '--args', '{"command":"ls"}', '--json'];

describe('agent-hooks trust', () => {
  it('lists what is not trusted and, without a terminal, trusts nothing and exits 1 telling to pass --all', async () => {
    const { dir, hooks, store } = await withHooks();
    const refused = await runCli(['trust'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('2 project hooks are not trusted, so they do not run');
    expect(refused.stdout).toMatch(/untrusted +guard +HOOK\.md +\.agents\/hooks\/guard\/HOOK\.md +\.agents\/hooks\/guard\/scripts\/run/);
    expect(refused.stdout).toMatch(/untrusted +echo done +claude +\.claude\/settings\.json hooks\.Stop\[0\]\.hooks\[0\] +echo done/);
    expect(refused.stderr).toContain("Nothing was trusted: standard input is not a terminal. Review the hooks above, then run 'agent-hooks trust --all' to trust them.");
    await expect(stat(store)).rejects.toMatchObject({ code: 'ENOENT' });

    const json = await runCliJson<TrustJson>(['trust', '--json'], { cwd: dir });
    expect(json.code).toBe(1);
    expect(json.json).toEqual({
      store,
      hooks: [
        { name: 'guard', kind: 'HOOK.md', file: join(hooks, 'guard', 'HOOK.md'), field: null, status: 'untrusted', runs: '.agents/hooks/guard/scripts/run', changes: [], unpinned: [] },
        { name: 'echo done', kind: 'claude', file: join(dir, '.claude', 'settings.json'), field: 'hooks.Stop[0].hooks[0]', status: 'untrusted', runs: 'echo done', changes: [], unpinned: [] },
      ],
      trusted: [],
    });
  });

  it('trusts every project hook with --all, printing each, and then they run; a changed script is skipped again', async () => {
    const { dir, hooks, store } = await withHooks();
    const before = await runCliJson<RunJson>(runPre, { cwd: dir });
    expect(before.code).toBe(0);
    expect(before.json.outcome).toBe('proceed');
    expect(before.json.problems.map((p) => [p.code, p.hookName])).toEqual([
      ['untrusted-hook', 'guard'],
      ['untrusted-hook', 'echo done'],
    ]);
    expect(before.stderr).toContain("agent-hooks: skipped: .agents/hooks/guard/HOOK.md: Hook 'guard' comes from the project and is not trusted yet");

    const trusted = await runCli(['trust', '--all'], { cwd: dir });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/untrusted +guard +HOOK\.md/);
    expect(trusted.stdout).toMatch(/untrusted +echo done +claude/);
    expect(trusted.stdout).toContain(`Trusted 2 hooks in ${store}.`);
    expect((await stat(store)).mode & 0o777).toBe(0o600);

    const after = await runCliJson<RunJson>(runPre, { cwd: dir });
    expect(after.json).toMatchObject({ outcome: 'block', reason: 'refused by the project', problems: [] });
    expect(after.stderr).toBe('');
    expect((await runCli(['trust'], { cwd: dir })).stdout).toBe('All 2 project hooks are trusted.\n');

    await appendFile(join(hooks, 'guard', 'scripts', 'run'), '# and one more line\n');
    const changed = await runCliJson<RunJson>(runPre, { cwd: dir });
    expect(changed.code).toBe(0);
    expect(changed.json.outcome).toBe('proceed');
    expect(changed.json.problems.map((p) => p.code)).toEqual(['changed-hook']);
    expect(changed.stderr).toContain("Hook 'guard' changed since it was trusted (scripts/run changed)");
    const review = await runCliJson<TrustJson>(['trust', '--json'], { cwd: dir });
    expect(review.json.hooks).toEqual([expect.objectContaining({ name: 'guard', status: 'changed', changes: ['scripts/run changed'] })]);
  });

  it('asks on a terminal, and trusts only on yes', async () => {
    const { dir, store } = await withHooks();
    const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') };
    const out: string[] = [];
    const questions: string[] = [];
    const io = (answer: string) =>
      cliIO({ cwd: dir, env, out: (t) => out.push(t), err: (t) => out.push(t), interactive: true, ask: async (q) => (questions.push(q), answer) });

    expect(await main(['trust'], io('n'))).toBe(1);
    expect(questions).toEqual(['\nTrust these 2 hooks and let them run? [y/N] ']);
    expect(out).toContain('Nothing was trusted.');
    await expect(stat(store)).rejects.toMatchObject({ code: 'ENOENT' });

    expect(await main(['trust'], io('y'))).toBe(0);
    expect(out).toContain(`Trusted 2 hooks in ${store}.`);
    expect(JSON.parse(await readFile(store, 'utf8')).hooks.map((h: { name: string }) => h.name)).toEqual(['guard', 'echo done']);
  });

  it('shows untrusted hooks in list with their status, and trusted ones as trusted', async () => {
    const { dir } = await withHooks();
    const listed = await runCliJson<{ hooks: { name: string; trust: string | null }[]; untrusted: { name: string; trust: string; changes: string[] }[] }>(['list', '--json'], { cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.json.hooks).toEqual([]);
    expect(listed.json.untrusted.map((r) => [r.name, r.trust])).toEqual([
      ['guard', 'untrusted'],
      ['echo done', 'untrusted'],
    ]);
    const text = await runCli(['list'], { cwd: dir });
    expect(text.stdout).toContain('Not trusted, so not run (review and trust them: agent-hooks trust)');
    expect(text.stdout).toMatch(/untrusted +guard +PreToolUse +HOOK\.md project +\.agents\/hooks\/guard\/HOOK\.md/);
    expect(text.stdout).not.toContain('Problems');

    await runCli(['trust', '--all'], { cwd: dir });
    const after = await runCliJson<{ hooks: { name: string; trust: string | null }[]; untrusted: unknown[] }>(['list', '--json'], { cwd: dir });
    expect(after.json.hooks.map((h) => [h.name, h.trust])).toEqual([
      ['guard', 'trusted'],
      ['echo done', 'trusted'],
    ]);
    expect(after.json.untrusted).toEqual([]);
  });

  it('runs everything with --trust-all (before or after the command) or AGENT_HOOKS_TRUST=all, and the user’s own hooks always', async () => {
    const { dir, store } = await withHooks();
    for (const args of [['run', '--trust-all', ...runPre.slice(1)], ['--trust-all', ...runPre]]) {
      const ran = await runCliJson<RunJson>(args, { cwd: dir });
      expect(ran.json).toMatchObject({ outcome: 'block', reason: 'refused by the project', problems: [] });
    }
    const fromEnv = await runCliJson<RunJson>(runPre, { cwd: dir, env: { AGENT_HOOKS_TRUST: 'all' } });
    expect(fromEnv.json).toMatchObject({ outcome: 'block', problems: [] });
    await expect(stat(store)).rejects.toMatchObject({ code: 'ENOENT' });

    const user = await project();
    await scriptHook(user.userHooks, 'mine', {}, REFUSE);
    const mine = await runCliJson<RunJson>(runPre, { cwd: user.dir });
    expect(mine.json).toMatchObject({ outcome: 'block', hooks: [{ name: 'mine' }], problems: [] });
  });

  it('skips an untrusted hook named by test, and fires it when given by its path', async () => {
    const { dir } = await withHooks();
    const named = await runCli(['test', 'guard'], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.stderr).toContain("agent-hooks test: skipped: Hook 'guard' comes from the project and is not trusted yet");
    const byPath = await runCliJson<{ outcome: string }>(['test', '.agents/hooks/guard', '--json'], { cwd: dir });
    expect(byPath.json.outcome).toBe('block');
  });

  it('lists the store with --list and removes the project’s entries with --revoke', async () => {
    const { dir, store } = await withHooks();
    expect((await runCli(['trust', '--list'], { cwd: dir })).stdout).toContain('Nothing trusted');
    await runCli(['trust', '--all', '.agents/hooks'], { cwd: dir });
    const listed = await runCliJson<{ store: string; entries: { name: string; kind: string; sha256: string }[] }>(['trust', '--list', '--json'], { cwd: dir });
    expect(listed.json.store).toBe(store);
    expect(listed.json.entries).toEqual([expect.objectContaining({ name: 'guard', kind: 'HOOK.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })]);

    const revoked = await runCli(['trust', '--revoke'], { cwd: dir });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('Revoked 1 hook: they no longer run until trusted again.');
    expect(JSON.parse(await readFile(store, 'utf8')).hooks).toEqual([]);
  });

  it('reports a corrupt store, keeps a copy of it, and writes a valid one', async () => {
    const { dir, store } = await withHooks();
    await mkdir(join(store, '..'), { recursive: true });
    await writeFile(store, '{ broken');
    const listed = await runCli(['list'], { cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/warning .*trust\.json: The trust store is not valid JSON/);
    const trusted = await runCli(['trust', '--all'], { cwd: dir });
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).toMatch(/a copy of it is kept as .*trust\.json\.corrupt-/);
    expect(JSON.parse(await readFile(store, 'utf8')).hooks).toHaveLength(2);
  });

  it('exits 2 on usage errors', async () => {
    const { dir } = await withHooks();
    for (const [args, message] of [
      [['trust', '--all', '--list'], /--all, --list and --revoke go one at a time/],
      [['trust', '/elsewhere'], /\/elsewhere is not inside the project/],
      [['trust', 'missing'], /no file or folder at missing/],
      [['trust', '--trust-all'], /unknown option --trust-all/],
    ] as const) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });
});

describe('agent-hooks bridge and trust', () => {
  it('skips an untrusted project HOOK.md hook, says so on stderr, and still answers the agent', async () => {
    const { dir } = await withHooks();
    const payload = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });
    const skipped = await runCli(['bridge', '--from', 'claude'], { cwd: dir, input: payload, env: { CLAUDE_PROJECT_DIR: dir } });
    expect(skipped.code).toBe(0);
    // The agent still gets its answer, and in it the user is told which hook did not run and how to trust it.
    expect(JSON.parse(skipped.stdout)).toEqual({
      systemMessage: `agent-hooks did not run a project hook: guard, which is not trusted yet. The agent goes on without it; other hooks still run. To review and trust it, run 'npx agent-hooks trust' in ${dir}.`,
      hookSpecificOutput: { hookEventName: 'PreToolUse' },
    });
    expect(skipped.stderr).toContain("Hook 'guard' comes from the project and is not trusted yet, so it does not run: run 'npx agent-hooks trust'");

    await runCli(['trust', '--all'], { cwd: dir });
    const denied = await runCli(['bridge', '--from', 'claude'], { cwd: dir, input: payload, env: { CLAUDE_PROJECT_DIR: dir } });
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'refused by the project' } });
  });
});

describe('agent-hooks bridge and the project’s agent-hooks.config module', () => {
  /** A module that leaves a marker when it is imported, and dry-runs `npm publish`; a HOOK.md hook that refuses `rm -rf`. */
  async function withModule() {
    const p = await project();
    await scriptHook(p.hooks, 'no-rm', {}, `#!/bin/sh\ncase "$(cat)" in *"rm -rf"*) echo "rm -rf refused" >&2; exit 2 ;; esac\nexit 0`);
    const module = join(p.dir, 'agent-hooks.config.mjs');
    await writeFile(
      module,
      `import { writeFileSync } from 'node:fs';
writeFileSync(new URL('./imported.marker', import.meta.url), 'imported');
export default [{ priority: 500, hook: (ctx, next) => ctx.event === 'PreToolUse' && ctx.toolCall.args.command === 'npm publish'
  ? next(ctx.withArgs({ ...ctx.toolCall.args, command: 'npm publish --dry-run' })) : next(ctx) }];\n`,
    );
    const marker = join(p.dir, 'imported.marker');
    const imported = () => stat(marker).then(() => true, () => false);
    const bridge = (command: string, flags: string[] = [], env: Record<string, string> = {}) =>
      runCli(['bridge', ...flags, '--from', 'claude'], {
        cwd: p.dir,
        input: JSON.stringify({ session_id: 's', cwd: p.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' }),
        env: { CLAUDE_PROJECT_DIR: p.dir, ...env },
      });
    return { ...p, module, marker, imported, bridge };
  }
  const dryRun = { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'npm publish --dry-run' } } };

  it('does not import an untrusted module, says so in one line on stderr, runs the trusted HOOK.md hooks and answers', async () => {
    const { dir, module, imported, bridge } = await withModule();
    await runCli(['trust', '--all', '.agents/hooks'], { cwd: dir });

    const publish = await bridge('npm publish');
    expect(publish.code).toBe(0);
    expect(JSON.parse(publish.stdout).systemMessage).toContain('did not run a project hook: agent-hooks.config.mjs (in-process hooks module), which is not trusted yet.');
    expect(publish.stderr).toBe(
      `agent-hooks: ${module}: The in-process hooks module agent-hooks.config.mjs comes from the project and is not trusted yet, so it is not loaded: run 'npx agent-hooks trust' in ${dir} to review and trust it.\n`,
    );
    const rm = await bridge('rm -rf /');
    expect(rm.code).toBe(0);
    expect(JSON.parse(rm.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'rm -rf refused' } });
    expect(await imported()).toBe(false);
  });

  it('imports it once trusted, and no more once it changed, until it is trusted again', async () => {
    const { dir, module, marker, imported, bridge } = await withModule();
    const listed = await runCliJson<TrustJson>(['trust', '--json'], { cwd: dir });
    expect(listed.json.hooks).toContainEqual({
      name: 'agent-hooks.config.mjs (in-process hooks module)',
      kind: 'config-module',
      file: module,
      field: null,
      status: 'untrusted',
      runs: 'imported by agent-hooks bridge',
      changes: [],
      unpinned: [],
    });
    const text = await runCli(['trust'], { cwd: dir });
    expect(text.stdout).toContain('2 project hooks are not trusted');
    expect(text.stdout).toMatch(/untrusted +agent-hooks\.config\.mjs \(in-process hooks module\) +config-module +agent-hooks\.config\.mjs +imported by agent-hooks bridge/);

    const trusted = await runCli(['trust', '--all'], { cwd: dir });
    expect(trusted.stdout).toContain('Trusted 2 hooks in');
    // Listing and trusting read the module; they never run it.
    expect(await imported()).toBe(false);

    const publish = await bridge('npm publish');
    expect(publish).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(publish.stdout)).toEqual(dryRun);
    expect(await imported()).toBe(true);

    await rm(marker);
    await appendFile(module, '// edited after it was trusted\n');
    const changed = await bridge('npm publish');
    expect(changed.code).toBe(0);
    expect(JSON.parse(changed.stdout).systemMessage).toContain('agent-hooks.config.mjs (in-process hooks module), which changed since it was trusted.');
    expect(changed.stderr).toBe(
      `agent-hooks: ${module}: The in-process hooks module agent-hooks.config.mjs changed since it was trusted, so it is not loaded until it is trusted again: run 'npx agent-hooks trust' in ${dir} to review and trust it.\n`,
    );
    expect(await imported()).toBe(false);
    const review = await runCliJson<TrustJson>(['trust', '--json'], { cwd: dir });
    expect(review.json.hooks).toEqual([expect.objectContaining({ kind: 'config-module', status: 'changed', changes: ['agent-hooks.config.mjs changed'] })]);

    await runCli(['trust', '--all'], { cwd: dir });
    expect(JSON.parse((await bridge('npm publish')).stdout)).toEqual(dryRun);
  });

  it('lists it with --list and revokes it with --revoke, like the hooks', async () => {
    const { dir, module, imported, bridge } = await withModule();
    await runCli(['trust', '--all'], { cwd: dir });
    const listed = await runCliJson<{ entries: { name: string; kind: string; path: string; field: string | null }[] }>(['trust', '--list', '--json'], { cwd: dir });
    expect(listed.json.entries).toContainEqual(
      expect.objectContaining({ name: 'agent-hooks.config.mjs (in-process hooks module)', kind: 'config-module', path: module, field: null }),
    );
    expect((await runCli(['trust', '--list'], { cwd: dir })).stdout).toMatch(/agent-hooks\.config\.mjs \(in-process hooks module\) +config-module +agent-hooks\.config\.mjs/);

    const revoked = await runCli(['trust', '--revoke', 'agent-hooks.config.mjs'], { cwd: dir });
    expect(revoked.stdout).toContain('revoked  agent-hooks.config.mjs (in-process hooks module)  config-module  agent-hooks.config.mjs');
    expect(revoked.stdout).toContain('Revoked 1 hook');
    const after = await bridge('npm publish');
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).systemMessage).toContain('agent-hooks.config.mjs (in-process hooks module), which is not trusted yet.');
    expect(after.stderr).toContain('agent-hooks.config.mjs comes from the project and is not trusted yet');
    expect(await imported()).toBe(false);
  });

  it('loads a module named by its absolute path with --config without trust, and the project’s with --trust-all or AGENT_HOOKS_TRUST=all', async () => {
    const { dir, module, marker, imported, bridge } = await withModule();
    for (const [flags, env] of [[['--config', module], {}], [['--trust-all'], {}], [[], { AGENT_HOOKS_TRUST: 'all' }]] as const) {
      const out = await bridge('npm publish', [...flags], env);
      expect(out.code, flags.join(' ')).toBe(0);
      expect(out.stderr).not.toContain('in-process hooks module');
      // With --config alone the HOOK.md hook is still untrusted: the answer also tells the user so.
      expect(JSON.parse(out.stdout)).toMatchObject(dryRun);
      expect(await imported()).toBe(true);
      await rm(marker);
    }
    const store = join(dir, 'xdg', 'agent-hooks', 'trust.json');
    await expect(stat(store)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('needs trust for a module named by a relative --config, which is the project’s own file, and trusts it by its path', async () => {
    const { dir, module, imported, bridge } = await withModule();
    await runCli(['trust', '--all', '.agents/hooks'], { cwd: dir });
    const other = join(dir, 'tools', 'hooks.mjs');
    await mkdir(join(dir, 'tools'));
    await rename(module, other);
    const relativeMarker = join(dir, 'tools', 'imported.marker');

    const refused = await bridge('npm publish', ['--config', 'tools/hooks.mjs']);
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.stdout).systemMessage).toContain('hooks.mjs (in-process hooks module), which is not trusted yet.');
    expect(refused.stderr).toContain('hooks.mjs comes from the project and is not trusted yet');
    expect(await stat(relativeMarker).then(() => true, () => false)).toBe(false);

    const trusted = await runCli(['trust', '--all', 'tools/hooks.mjs'], { cwd: dir });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('hooks.mjs (in-process hooks module)');
    const loaded = await bridge('npm publish', ['--config', 'tools/hooks.mjs']);
    expect(loaded.code).toBe(0);
    expect(JSON.parse(loaded.stdout)).toEqual(dryRun);
    expect(await stat(relativeMarker).then(() => true, () => false)).toBe(true);
    expect(await imported()).toBe(false);
  });
});
