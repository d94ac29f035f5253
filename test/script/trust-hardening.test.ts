import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  canonicalJson,
  discoverHooks,
  hookMdFingerprint,
  hookStackOf,
  projectHooksDir,
  ToolCall,
  ToolHookContext,
  TrustFingerprintError,
  TrustStore,
  type DiscoverHooksOptions,
} from 'agent-hooks';
import { loadRecheckEngine } from '../../src/script/internal/recheck-engine.js';
import { frontmatter, tempDirs } from '../support/hook-folders.js';

const dirs = tempDirs();
afterEach(dirs.cleanup);
afterEach(() => vi.restoreAllMocks());

/** A project, a temporary home (the trust store lives under it) and a user hooks folder outside the project. */
async function setup() {
  const base = await dirs.make();
  const projectDir = join(base, 'project');
  const home = join(base, 'home');
  const user = join(base, 'user-hooks');
  await Promise.all([mkdir(projectHooksDir(projectDir), { recursive: true }), mkdir(home), mkdir(user)]);
  const env = { HOME: home };
  const store = TrustStore.forUser({ hostEnv: env });
  const discover = (options: DiscoverHooksOptions = {}) => discoverHooks({ projectDir, userDir: user, hostEnv: env, ...options });
  const trustAll = async () => store.trust((await discover()).trustChecks.map((c) => c.fingerprint));
  return { base, projectDir, hooks: projectHooksDir(projectDir), user, store, discover, trustAll };
}

/** A hook folder whose script blocks every tool call with `reason`, with `fields` added to its frontmatter. */
async function blockingHook(root: string, name: string, reason: string, fields: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), `${frontmatter({ name, description: `The ${name} hook.`, trigger: 'pre-tool-call', ...fields })}\n# ${name}\n`);
  await writeFile(join(dir, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null\necho "${reason}" >&2\nexit 2\n`);
  await chmod(join(dir, 'scripts', 'run'), 0o755);
  return dir;
}

/** The reason of the hook that blocks a bash call, or `undefined` when none does. */
async function decide(hooks: Parameters<typeof hookStackOf>[0], command = 'curl x | sh'): Promise<string | undefined> {
  const outcome = await hookStackOf(hooks).process(ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command })));
  return outcome.isBlocked() ? outcome.reason : undefined;
}

const sources = (result: { hooks: readonly { name: string; manifest: { source: string } }[] }) => result.hooks.map((h) => [h.name, h.manifest.source]);

describe('a project hook named like the user’s does not switch the user’s off unless it is trusted and valid', () => {
  it('keeps the user’s hook when the project’s has an unknown metadata.dialect, and reports the file, field and valid names', async () => {
    const { hooks, user, discover, trustAll } = await setup();
    await blockingHook(user, 'guard', 'the user’s guard');
    const dir = await blockingHook(hooks, 'guard', 'the project’s guard', { metadata: { dialect: 'klingon' } });

    const result = await discover();
    expect(sources(result)).toEqual([['guard', 'user']]);
    expect(await decide(result.hooks)).toBe('the user’s guard');
    expect(result.overridden).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: join(dir, 'HOOK.md'),
        field: 'metadata.dialect',
        found: '"klingon"',
        allowed: 'hookmd, claude, copilot, vscode, gemini, cursor, codex',
        severity: 'error',
        code: 'unknown-dialect',
      }),
    ]);
    // Trusting everything there is to trust changes nothing: the project's hook cannot run.
    await trustAll();
    expect(await decide((await discover()).hooks)).toBe('the user’s guard');
  });

  it('keeps the user’s hook while the project’s trusted replacement has a matcher regex that is refused, and gives way to a valid one', async () => {
    const { hooks, user, discover, trustAll } = await setup();
    await blockingHook(user, 'guard', 'the user’s guard');
    const dir = await blockingHook(hooks, 'guard', 'the project’s guard', { matcher: { pattern: '(a+)+$' } });
    await trustAll();

    const refused = await discover();
    expect(refused.trustChecks.map((c) => c.status)).toEqual(['trusted']);
    expect(sources(refused)).toEqual([['guard', 'user']]);
    expect(await decide(refused.hooks)).toBe('the user’s guard');
    expect(refused.problems).toEqual([
      expect.objectContaining({ file: join(dir, 'HOOK.md'), field: 'matcher.pattern', code: 'unsafe-regex', severity: 'error', message: expect.stringMatching(/your own hook 'guard' .* runs in its place\.$/) }),
    ]);

    await writeFile(join(dir, 'HOOK.md'), frontmatter({ name: 'guard', description: 'The guard hook.', trigger: 'pre-tool-call' }));
    await trustAll();
    const replaced = await discover();
    expect(sources(replaced)).toEqual([['guard', 'project']]);
    expect(replaced.overridden.map((m) => m.source)).toEqual(['user']);
    expect(await decide(replaced.hooks)).toBe('the project’s guard');
  });
});

describe('a project hook that cannot be fingerprinted is skipped alone', () => {
  it('skips a hook whose scripts/ holds a link to /proc/self/mem or a FIFO, without hanging, and loads the rest', async () => {
    const { hooks, user, discover, trustAll } = await setup();
    await blockingHook(user, 'guard', 'the user’s guard');
    await blockingHook(hooks, 'fine', 'the project’s fine hook');
    await trustAll();
    const mem = await blockingHook(hooks, 'mem', 'mem');
    await symlink('/proc/self/mem', join(mem, 'scripts', 'data'));
    const fifo = await blockingHook(hooks, 'pipe', 'pipe');
    execFileSync('mkfifo', [join(fifo, 'scripts', 'queue')]);

    const result = await discover();
    expect(sources(result)).toEqual([
      ['guard', 'user'],
      ['fine', 'project'],
    ]);
    expect(await decide(result.hooks)).toBe('the user’s guard');
    expect(result.trustChecks.map((c) => [c.hook.name, c.status])).toEqual([['fine', 'trusted']]);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: join(mem, 'HOOK.md'),
        hookName: 'mem',
        severity: 'warning',
        code: 'unpinnable-hook',
        message: expect.stringContaining(`${join(mem, 'scripts', 'data')} cannot be read (EIO`),
      }),
      expect.objectContaining({
        file: join(fifo, 'HOOK.md'),
        hookName: 'pipe',
        code: 'unpinnable-hook',
        message: expect.stringMatching(/scripts\/queue is a FIFO, not a file, .*: remove it/),
      }),
    ]);
    await expect(hookMdFingerprint(result.manifests.find((m) => m.name === 'pipe')!)).rejects.toBeInstanceOf(TrustFingerprintError);
  }, 15_000);

  it('reads a HOOK.md that is a FIFO as a broken hook rather than waiting for a writer', async () => {
    const { hooks, discover } = await setup();
    await mkdir(join(hooks, 'stuck'));
    execFileSync('mkfifo', [join(hooks, 'stuck', 'HOOK.md')]);
    const result = await discover();
    expect(result.problems.map((p) => [p.hookName, p.code])).toEqual([
      ['stuck', 'unreadable'],
      ['stuck', 'no-entry'],
    ]);
  }, 15_000);

  it('serializes a value nested 100,000 levels deep, as JSON.stringify would with sorted keys', () => {
    let deep: unknown = { b: 1, a: [true, null, 'x'] };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const text = canonicalJson(deep);
    expect(text.length).toBe(200_000 + '{"a":[true,null,"x"],"b":1}'.length);
    // The same text as before, so that what a store already trusts stays trusted.
    const before = (value: unknown) =>
      JSON.stringify(value, (_key, v: unknown) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
        const sorted: Record<string, unknown> = {};
        for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
        return sorted;
      });
    for (const value of [
      { kind: 'HOOK.md', files: { 'scripts/run': 'ab +x', 'HOOK.md': 'cd' } },
      { z: [1, 2.5, -0, 1e21, Number.NaN, undefined, () => 1], '10': 'ten', '2': 'two', a: { y: undefined, x: 'é"\\\n' } },
      { event: 'PreToolUse', matcher: undefined, hook: { type: 'command', command: 'echo "hi" && exit 0', timeout: 5 } },
      [],
      'text',
    ]) {
      expect(canonicalJson(value)).toBe(before(value));
    }
  });
});

describe('regex analysis waits for trust', () => {
  // The engine the checker runs (the same object every time): watching it shows when a pattern is analysed.
  const recheck = loadRecheckEngine()!;
  // The patterns analysed, in order. A check that ran out of time for want of CPU (a busy machine) is made again at
  // once (see checkWithinCpuBudget): one analysis, several calls in a row.
  const analysed = (checker: { mock: { calls: unknown[][] } }) =>
    checker.mock.calls.map((call) => call[0]).filter((pattern, i, all) => i === 0 || all[i - 1] !== pattern);
  // Not simple by shape, and new to this process: only the checker can judge it.
  const fresh = (shape: (tag: string) => string) => shape(randomBytes(4).toString('hex').replace(/\d/g, 'q'));

  it('analyses no matcher of an untrusted project hook, and a trusted one’s once', async () => {
    const { hooks, discover, trustAll } = await setup();
    const pattern = fresh((tag) => `(curl|${tag})[^|]*\\|\\s*(ba)?sh`);
    await blockingHook(hooks, 'pipes', 'no piping into sh', { matcher: { pattern } });
    const checker = vi.spyOn(recheck, 'checkSync');

    const untrusted = await discover();
    expect(untrusted.trustChecks.map((c) => c.status)).toEqual(['untrusted']);
    expect(checker).not.toHaveBeenCalled();

    await trustAll();
    expect(checker).not.toHaveBeenCalled();
    const trusted = await discover();
    expect(analysed(checker)).toEqual([pattern]);
    expect(await decide(trusted.hooks)).toBe('no piping into sh');
  });

  it('costs nothing for a catastrophic pattern in an untrusted hook, and refuses it once trusted', async () => {
    const { hooks, discover, trustAll } = await setup();
    const pattern = fresh((tag) => `(\\w+${tag}+)+$`);
    await blockingHook(hooks, 'slow', 'slow', { matcher: { tool: pattern } });
    const checker = vi.spyOn(recheck, 'checkSync');
    expect((await discover()).problems.map((p) => p.code)).toEqual(['untrusted-hook']);
    expect(checker).not.toHaveBeenCalled();

    await trustAll();
    const trusted = await discover();
    expect(analysed(checker)).toEqual([pattern]);
    expect(trusted.hooks).toEqual([]);
    expect(trusted.problems.map((p) => [p.code, p.field])).toEqual([['unsafe-regex', 'matcher.tool']]);
  });
});

describe('a folder link under scripts/ is pinned by what it holds', () => {
  it('untrusts the hook when a file in the linked folder is edited after it was trusted', async () => {
    const { projectDir, hooks, discover, trustAll } = await setup();
    const shared = join(projectDir, 'tools', 'lib');
    await mkdir(shared, { recursive: true });
    await writeFile(join(shared, 'allow.sh'), 'exit 0\n');
    const dir = await blockingHook(hooks, 'guard', 'guarded');
    await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\ncat > /dev/null\n. "$(dirname "$0")/lib/allow.sh"\n');
    await symlink('../../../../tools/lib', join(dir, 'scripts', 'lib'));
    await trustAll();
    const trusted = await discover();
    expect(trusted.trustChecks[0]!.fingerprint.files).toMatchObject({ 'scripts/lib': 'link ../../../../tools/lib', 'scripts/lib/allow.sh': expect.any(String) });
    expect(await decide(trusted.hooks)).toBeUndefined();

    await writeFile(join(shared, 'allow.sh'), 'echo "now it blocks" >&2; exit 2\n');
    const edited = await discover();
    expect(edited.hooks).toEqual([]);
    expect(edited.trustChecks.map((c) => [c.status, c.changes])).toEqual([['changed', ['scripts/lib/allow.sh changed']]]);
    await appendFile(join(shared, 'new.sh'), 'exit 0\n');
    expect((await discover()).trustChecks[0]!.changes).toEqual(['scripts/lib/allow.sh changed', 'scripts/lib/new.sh added']);
  });

  it('pins a link cycle by where it points, and still pins what is in the folders it goes through', async () => {
    const { hooks, discover, trustAll } = await setup();
    const dir = await blockingHook(hooks, 'loop', 'loop blocks');
    await mkdir(join(dir, 'scripts', 'sub'));
    await writeFile(join(dir, 'scripts', 'sub', 'data'), '1\n');
    await symlink('.', join(dir, 'scripts', 'self'));
    await symlink('../..', join(dir, 'scripts', 'sub', 'up'));
    const first = await discover();
    expect(first.trustChecks[0]!.fingerprint.files).toEqual({
      'HOOK.md': expect.any(String),
      'scripts/run': expect.stringMatching(/ \+x$/),
      'scripts/self': 'link . (cycle)',
      'scripts/sub/data': expect.any(String),
      'scripts/sub/up': 'link ../..',
      'scripts/sub/up/HOOK.md': expect.any(String),
      'scripts/sub/up/scripts': 'folder (cycle)',
    });
    await trustAll();
    const trusted = await discover();
    expect(await decide(trusted.hooks)).toBe('loop blocks');
    await writeFile(join(dir, 'scripts', 'sub', 'data'), '2\n');
    expect((await discover()).trustChecks[0]!.changes).toEqual(['scripts/sub/data changed']);
  });
});
