import { spawn } from 'node:child_process';
import { appendFile, chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONFIG_MODULE_KIND,
  configModuleFingerprint,
  discoverHooks,
  hookMdFingerprint,
  hookStackOf,
  projectHooksDir,
  resolveTrustPolicy,
  ToolCall,
  ToolHookContext,
  trustFingerprint,
  TrustStore,
  trustStorePath,
  type DiscoverHooksOptions,
  type TrustFingerprint,
} from 'agent-hooks';
import { frontmatter, tempDirs } from '../support/hook-folders.js';

const dirs = tempDirs();
afterEach(dirs.cleanup);

/** A project, a temporary home (the trust store lives under it) and a user hooks folder outside the project. */
async function setup() {
  const base = await dirs.make();
  const projectDir = join(base, 'project');
  const home = join(base, 'home');
  const user = join(base, 'user-hooks');
  await Promise.all([mkdir(projectHooksDir(projectDir), { recursive: true }), mkdir(home), mkdir(user)]);
  const env = { HOME: home };
  const store = TrustStore.forUser({ hostEnv: env });
  const discover = (options: DiscoverHooksOptions = {}) => discoverHooks({ projectDir, userDir: false, hostEnv: env, ...options });
  return { base, projectDir, home, user, env, store, discover };
}

/** A hook folder that blocks every tool call with `reason`: its running is visible in the outcome. */
async function blockingHook(root: string, name: string, reason = `blocked by ${name}`): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), `${frontmatter({ name, description: `The ${name} hook.`, trigger: 'pre-tool-call' })}\n# ${name}\n`);
  await writeFile(join(dir, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null\necho "${reason}" >&2\nexit 2\n`);
  await chmod(join(dir, 'scripts', 'run'), 0o755);
  return dir;
}

/** What the hooks decide about one bash call: the reason of the hook that blocked it, or `undefined`. */
async function decide(hooks: Parameters<typeof hookStackOf>[0]): Promise<string | undefined> {
  const outcome = await hookStackOf(hooks).process(ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' })));
  return outcome.isBlocked() ? outcome.reason : undefined;
}

const names = (result: { hooks: readonly { name: string }[] }) => result.hooks.map((h) => h.name);

describe('project HOOK.md hooks need trust', () => {
  it('skips an untrusted project hook, with a warning that names it, its file and the fix', async () => {
    const { projectDir, discover } = await setup();
    const dir = await blockingHook(projectHooksDir(projectDir), 'guard');
    const result = await discover();
    expect(result.hooks).toEqual([]);
    expect(await decide(result.hooks)).toBeUndefined();
    expect(result.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'untrusted-hook',
        file: join(dir, 'HOOK.md'),
        hookName: 'guard',
        message: expect.stringContaining(`run 'npx agent-hooks trust' in ${projectDir} to review and trust it`),
      }),
    ]);
    expect(result.trustChecks.map((c) => [c.hook.name, c.status])).toEqual([['guard', 'untrusted']]);
    // The manifest was found: only trust keeps it from running.
    expect(result.manifests.map((m) => m.name)).toEqual(['guard']);
  });

  it('runs a hook once it is trusted through the API, and the store holds its file and content hash', async () => {
    const { projectDir, discover, store } = await setup();
    const dir = await blockingHook(projectHooksDir(projectDir), 'guard');
    const first = await discover();
    const written = await store.trust(first.trustChecks.map((c) => c.fingerprint));
    expect(written.entries.map((e) => e.name)).toEqual(['guard']);

    const second = await discover();
    expect(names(second)).toEqual(['guard']);
    expect(second.problems).toEqual([]);
    expect(second.trustChecks.map((c) => c.status)).toEqual(['trusted']);
    expect(await decide(second.hooks)).toBe('blocked by guard');

    const saved = JSON.parse(await readFile(store.path, 'utf8'));
    expect(saved).toEqual({
      version: 1,
      hooks: [
        {
          path: join(dir, 'HOOK.md'),
          kind: 'HOOK.md',
          name: 'guard',
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          files: { 'HOOK.md': expect.stringMatching(/^[0-9a-f]{64}$/), 'scripts/run': expect.stringMatching(/^[0-9a-f]{64} \+x$/) },
          trustedAt: expect.any(String),
        },
      ],
    });
    expect(await store.isTrusted(await trustFingerprint(second.hooks[0]!))).toBe(true);
  });

  it.each([
    ['the script', 'scripts/run', 'scripts/run changed'],
    ['the HOOK.md', 'HOOK.md', 'HOOK.md changed'],
  ])('untrusts a hook when %s changes after it was trusted: changed-hook, skipped', async (_what, file, change) => {
    const { projectDir, discover, store } = await setup();
    const dir = await blockingHook(projectHooksDir(projectDir), 'guard');
    await store.trust((await discover()).trustChecks.map((c) => c.fingerprint));
    await appendFile(join(dir, file), '\n# edited\n');

    const result = await discover();
    expect(result.hooks).toEqual([]);
    expect(await decide(result.hooks)).toBeUndefined();
    expect(result.trustChecks.map((c) => [c.status, c.changes])).toEqual([['changed', [change]]]);
    expect(result.problems).toEqual([
      expect.objectContaining({ code: 'changed-hook', severity: 'warning', file: join(dir, 'HOOK.md'), hookName: 'guard', message: expect.stringContaining(change) }),
    ]);

    // Trusting it again pins the new content, replacing the old entry.
    await store.trust(result.trustChecks.map((c) => c.fingerprint));
    expect(names(await discover())).toEqual(['guard']);
    expect(await store.entries()).toHaveLength(1);
  });

  it('pins every file of scripts/ and the execute bit: a file added beside the entry, or a mode change, untrusts it', async () => {
    const { projectDir, discover, store } = await setup();
    const dir = await blockingHook(projectHooksDir(projectDir), 'guard');
    await writeFile(join(dir, 'scripts', 'lib.sh'), 'echo helper\n');
    await store.trust((await discover()).trustChecks.map((c) => c.fingerprint));

    await mkdir(join(dir, 'scripts', 'more'));
    await writeFile(join(dir, 'scripts', 'more', 'x.py'), 'print(1)\n');
    expect((await discover()).trustChecks[0]!.changes).toEqual(['scripts/more/x.py added']);
    await store.trust((await discover()).trustChecks.map((c) => c.fingerprint));

    await chmod(join(dir, 'scripts', 'lib.sh'), 0o755);
    expect((await discover()).trustChecks[0]!.changes).toEqual(['scripts/lib.sh changed']);
  });

  it('runs user-level hooks and hooks of folders passed in code without any trust', async () => {
    const { base, user, discover, store } = await setup();
    await blockingHook(user, 'from-user');
    const extra = join(base, 'vendor-hooks');
    await blockingHook(extra, 'from-extra');
    const result = await discover({ userDir: user, extraDirs: [extra] });
    expect(names(result)).toEqual(['from-user', 'from-extra']);
    expect(result.problems).toEqual([]);
    expect(result.trustChecks).toEqual([]);
    expect(await decide(result.hooks)).toBe('blocked by from-user');
    // Nothing needed trust, so the store was never created.
    await expect(stat(store.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the user’s hook of the same name running while the project’s replacement is not trusted', async () => {
    const { projectDir, user, discover, store } = await setup();
    await blockingHook(user, 'guard', 'the user’s guard');
    await blockingHook(user, 'zz-other', 'the user’s other hook');
    await blockingHook(projectHooksDir(projectDir), 'guard', 'the project’s guard');
    const untrusted = await discover({ userDir: user });
    expect(untrusted.hooks.map((h) => [h.name, h.manifest.source])).toEqual([
      ['guard', 'user'],
      ['zz-other', 'user'],
    ]);
    expect(untrusted.overridden).toEqual([]);
    expect(await decide(untrusted.hooks.filter((h) => h.name === 'guard'))).toBe('the user’s guard');
    expect(untrusted.problems[0]!.message).toMatch(/Until then, your own hook 'guard' \(.*user-hooks\/guard\/HOOK\.md\) runs in its place\./);

    await store.trust(untrusted.trustChecks.map((c) => c.fingerprint));
    const trusted = await discover({ userDir: user });
    expect(trusted.hooks.map((h) => [h.name, h.manifest.source])).toEqual([
      ['zz-other', 'user'],
      ['guard', 'project'],
    ]);
    expect(trusted.overridden.map((m) => m.source)).toEqual(['user']);
    expect(await decide(trusted.hooks.filter((h) => h.name === 'guard'))).toBe('the project’s guard');
  });

  it("runs every project hook with trust: 'all', or with AGENT_HOOKS_TRUST=all in the environment", async () => {
    const { projectDir, discover, env } = await setup();
    await blockingHook(projectHooksDir(projectDir), 'guard');
    const all = await discover({ trust: 'all' });
    expect(names(all)).toEqual(['guard']);
    expect(all.problems).toEqual([]);
    expect(await decide(all.hooks)).toBe('blocked by guard');

    const fromEnv = await discover({ hostEnv: { ...env, AGENT_HOOKS_TRUST: 'all' } });
    expect(names(fromEnv)).toEqual(['guard']);
    // A policy written in code wins over the environment.
    expect(names(await discover({ hostEnv: { ...env, AGENT_HOOKS_TRUST: 'all' }, trust: 'store' }))).toEqual([]);
    // Any other value leaves the safe default.
    expect(names(await discover({ hostEnv: { ...env, AGENT_HOOKS_TRUST: '1' } }))).toEqual([]);
  });

  it('checks against the store it is given', async () => {
    const { base, projectDir, discover } = await setup();
    await blockingHook(projectHooksDir(projectDir), 'guard');
    const own = new TrustStore(join(base, 'elsewhere', 'trust.json'));
    await own.trust((await discover({ trust: own })).trustChecks.map((c) => c.fingerprint));
    expect(names(await discover({ trust: own }))).toEqual(['guard']);
    expect(names(await discover())).toEqual([]);
  });
});

describe('the trust store file', () => {
  it('is created with mode 0600 in a folder of mode 0700, at $XDG_CONFIG_HOME/agent-hooks, else ~/.config/agent-hooks', async () => {
    const { projectDir, discover, store, home } = await setup();
    expect(store.path).toBe(join(home, '.config', 'agent-hooks', 'trust.json'));
    expect(trustStorePath({ hostEnv: { HOME: home, XDG_CONFIG_HOME: '/x/config' } })).toBe('/x/config/agent-hooks/trust.json');
    expect(trustStorePath({ hostEnv: { HOME: home, XDG_CONFIG_HOME: 'relative' } })).toBe(store.path);
    expect(trustStorePath({ homeDir: home })).toBe(store.path);
    // An environment given is the whole of it: no XDG_CONFIG_HOME there means none, whatever process.env says.
    expect(trustStorePath({ hostEnv: {}, homeDir: home })).toBe(store.path);
    expect(trustStorePath({ hostEnv: {} })).toBe(join(homedir(), '.config', 'agent-hooks', 'trust.json'));

    await blockingHook(projectHooksDir(projectDir), 'guard');
    await store.trust((await discover()).trustChecks.map((c) => c.fingerprint));
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, '.config', 'agent-hooks'))).mode & 0o777).toBe(0o700);
    // Nothing is left behind by the atomic write and the lock.
    expect(await readdir(join(home, '.config', 'agent-hooks'))).toEqual(['trust.json']);
  });

  it('reports a corrupt store as a problem, trusts nothing, and keeps a copy of it before writing a new one', async () => {
    const { projectDir, discover, store } = await setup();
    await blockingHook(projectHooksDir(projectDir), 'guard');
    await store.trust((await discover()).trustChecks.map((c) => c.fingerprint));
    await writeFile(store.path, '{ "version": 1, "hooks": [ oops');

    const result = await discover();
    expect(result.hooks).toEqual([]);
    expect(result.problems.map((p) => [p.code, p.file])).toEqual([
      ['corrupt-trust-store', store.path],
      ['untrusted-hook', join(projectHooksDir(projectDir), 'guard', 'HOOK.md')],
    ]);
    expect(result.problems[0]!.message).toMatch(/not valid JSON.*treated as empty/);

    const written = await store.trust(result.trustChecks.map((c) => c.fingerprint));
    expect(written.backup).toMatch(/trust\.json\.corrupt-/);
    expect(await readFile(written.backup!, 'utf8')).toBe('{ "version": 1, "hooks": [ oops');
    expect(names(await discover())).toEqual(['guard']);
  });

  it.each([
    ['not a trust store', '[1, 2]', /not a trust store/],
    ['another version', '{ "version": 2, "hooks": [] }', /version 2/],
    ['a bad entry', '{ "version": 1, "hooks": [{ "path": 3 }] }', /invalid entry at hooks\[0\]/],
  ])('treats %s as empty, with a problem', async (_what, text, message) => {
    const { store } = await setup();
    await mkdir(join(store.path, '..'), { recursive: true });
    await writeFile(store.path, text);
    const read = await store.load();
    expect(read.entries).toEqual([]);
    expect(read.problem).toMatchObject({ code: 'corrupt-trust-store', severity: 'warning', file: store.path, message: expect.stringMatching(message) });
  });

  it('keeps the entries of two processes trusting at once', async () => {
    const { base, store } = await setup();
    const module = fileURLToPath(new URL('../../src/script/trust/trust-store.ts', import.meta.url));
    const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));
    const writer = join(base, 'writer.mts');
    // Both processes start writing at the same moment, and each trusts its hooks one at a time, so their writes interleave.
    await writeFile(
      writer,
      `import { TrustStore } from ${JSON.stringify(module)};
const [path, who, start] = process.argv.slice(2);
const store = new TrustStore(path);
await new Promise((r) => setTimeout(r, Number(start) - Date.now()));
for (let i = 0; i < 15; i++) {
  await store.trust([{ path: '/p/' + who + '/' + i + '/HOOK.md', kind: 'HOOK.md', name: who + i, files: {}, sha256: String(i) }]);
}
`,
    );
    const start = String(Date.now() + 2000);
    const run = (who: string) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', tsx, writer, store.path, who, start], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('close', resolve);
      });
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0]);
    const names = (await store.entries()).map((e) => e.name).sort();
    expect(names).toHaveLength(30);
    expect(names).toEqual([...Array.from({ length: 15 }, (_, i) => `a${i}`), ...Array.from({ length: 15 }, (_, i) => `b${i}`)].sort());
  });

  it("removes a project's entries with untrust(projectDir), and leaves the others", async () => {
    const { store } = await setup();
    const fp = (path: string): TrustFingerprint => ({ path, kind: 'HOOK.md', name: path, files: {}, sha256: 'x' });
    await store.trust([fp('/work/a/.agents/hooks/x/HOOK.md'), fp('/work/ab/.agents/hooks/y/HOOK.md'), fp('/work/b/.claude/settings.json')]);
    const removed = await store.untrust('/work/a');
    expect(removed.entries.map((e) => e.path)).toEqual(['/work/a/.agents/hooks/x/HOOK.md']);
    expect((await store.entries()).map((e) => e.path)).toEqual(['/work/ab/.agents/hooks/y/HOOK.md', '/work/b/.claude/settings.json']);
  });

  it('resolves the policy without reading anything: all, a store, or the user store', async () => {
    const { env, store } = await setup();
    expect(resolveTrustPolicy('all', { hostEnv: env })).toBe('all');
    expect(resolveTrustPolicy(store)).toBe(store);
    expect((resolveTrustPolicy(undefined, { hostEnv: env }) as TrustStore).path).toBe(store.path);
    expect(() => resolveTrustPolicy('yes' as 'all')).toThrow(/'store', 'all' or a TrustStore/);
  });

  it('fingerprints the same hook the same way, whatever its files’ order on disk', async () => {
    const { projectDir, discover } = await setup();
    await blockingHook(projectHooksDir(projectDir), 'guard');
    const [manifest] = (await discover({ trust: 'all' })).manifests;
    const a = await hookMdFingerprint(manifest!);
    const b = await hookMdFingerprint(manifest!);
    expect(a).toEqual(b);
    expect(Object.keys(a.files)).toEqual(['HOOK.md', 'scripts/run']);
  });

  it('pins a config module by its own text, not the files it imports, beside hooks in the same store', async () => {
    const { projectDir, store, discover } = await setup();
    await blockingHook(projectHooksDir(projectDir), 'guard');
    const file = join(projectDir, 'agent-hooks.config.mjs');
    await writeFile(join(projectDir, 'helper.mjs'), 'export const hooks = [];\n');
    await writeFile(file, "export { hooks as default } from './helper.mjs';\n");
    const fingerprint = await configModuleFingerprint(file);
    expect(fingerprint).toMatchObject({ path: file, kind: CONFIG_MODULE_KIND, name: 'agent-hooks.config.mjs (in-process hooks module)' });
    expect(fingerprint.field).toBeUndefined();
    expect(Object.keys(fingerprint.files)).toEqual(['agent-hooks.config.mjs']);
    expect(await store.verdict(fingerprint)).toEqual({ status: 'untrusted', changes: [] });

    const { trustChecks } = await discover();
    await store.trust([...trustChecks.map((c) => c.fingerprint), fingerprint]);
    expect((await store.entries()).map((e) => e.kind).sort()).toEqual(['HOOK.md', CONFIG_MODULE_KIND]);
    expect(await store.isTrusted(fingerprint)).toBe(true);
    expect((await discover()).hooks.map((h) => h.name)).toEqual(['guard']);

    await writeFile(join(projectDir, 'helper.mjs'), 'export const hooks = [() => undefined];\n');
    expect(await store.isTrusted(await configModuleFingerprint(file))).toBe(true);
    await appendFile(file, '// one more line\n');
    const verdict = await store.verdict(await configModuleFingerprint(file));
    expect(verdict).toMatchObject({ status: 'changed', changes: ['agent-hooks.config.mjs changed'] });
  });
});
