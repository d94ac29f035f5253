import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  hookStackOf,
  loadAllHookConfigs,
  loadClaudeHooks,
  loadCopilotHooks,
  parseConfigJson,
  ToolCall,
  ToolHookContext,
  TrustStore,
  type ConfigLoadOptions,
  type LoadedConfigHooks,
} from 'agent-hooks';
import { loadRecheckEngine } from '../../src/script/internal/recheck-engine.js';
import { writeHook } from '../support/hook-folders.js';
import { sandbox } from './support.js';

const setup = sandbox();
afterEach(() => vi.restoreAllMocks());

/** A project and a home with its own trust store; `load` reads Claude Code's files of both. */
async function claudeProject() {
  const box = await setup();
  const store = TrustStore.forUser({ homeDir: box.home });
  const load = (options: ConfigLoadOptions = {}) => loadClaudeHooks({ projectDir: box.project, homeDir: box.home, ...options });
  const trustAll = async () => store.trust((await load()).trustChecks.map((c) => c.fingerprint));
  return { ...box, store, load, trustAll };
}

const settings = (command: string, matcher = 'Bash') => ({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command }] }] } });
const BLOCK = '#!/bin/sh\ncat > /dev/null\necho "blocked" >&2\nexit 2\n';
const ALLOW = '#!/bin/sh\ncat > /dev/null\nexit 0\n';

/** The reason of the hook that blocks a bash call, or `undefined` when none does. */
async function decide(loaded: LoadedConfigHooks): Promise<string | undefined> {
  const outcome = await hookStackOf(loaded.hooks).process(ToolHookContext.beforeToolUse(ToolCall.create('Bash', { command: 'ls' })));
  return outcome.isBlocked() ? outcome.reason : undefined;
}

const parts = (loaded: LoadedConfigHooks) => loaded.trustChecks.map((c) => Object.keys(c.fingerprint.files).filter((f) => f !== '#entry'));
const statuses = (loaded: LoadedConfigHooks) => loaded.trustChecks.map((c) => [c.status, c.changes]);

describe('a config hook’s command pins the files it really runs', () => {
  it('pins the file ./lib/../check.sh reaches when lib is a link, not the check.sh beside lib', async () => {
    const { project, write, script, load, trustAll } = await claudeProject();
    await mkdir(join(project, 'real', 'sub'), { recursive: true });
    await symlink('real/sub', join(project, 'lib'));
    await script('check.sh', ALLOW);
    await script('real/check.sh', ALLOW);
    await write(project, '.claude/settings.json', settings('sh ./lib/../check.sh'));
    expect(parts(await load())).toEqual([['real/check.sh']]);
    await trustAll();
    expect(await decide(await load())).toBeUndefined();

    // The file the shell runs is edited: the hook is no longer trusted, so the edit never runs.
    await script('real/check.sh', BLOCK);
    const after = await load();
    expect(statuses(after)).toEqual([['changed', ['real/check.sh changed']]]);
    expect(await decide(after)).toBeUndefined();
    expect(await decide(await load({ trust: 'all' }))).toBe('blocked');
  });

  it('pins every file of a folder a command runs as a program: node .claude/guard', async () => {
    const { project, write, script, load, trustAll } = await claudeProject();
    await script('.claude/guard/index.js', 'process.exit(0)\n');
    await script('.claude/guard/rules.js', 'module.exports = []\n');
    await write(project, '.claude/settings.json', settings('node .claude/guard'));
    expect(parts(await load())).toEqual([['.claude/guard/index.js', '.claude/guard/rules.js']]);
    await trustAll();
    await script('.claude/guard/rules.js', 'module.exports = ["everything"]\n');
    expect(statuses(await load())).toEqual([['changed', ['.claude/guard/rules.js changed']]]);
  });

  it('looks for the files of cd x && sh y in x, and pins what a glob matches', async () => {
    const { project, write, script, load, trustAll } = await claudeProject();
    await script('x/y', ALLOW);
    await script('hooks/a.sh', ALLOW);
    await write(project, '.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cd x && sh y' }, { type: 'command', command: 'for f in hooks/*.sh; do sh "$f"; done' }] }] },
    });
    expect(parts(await load())).toEqual([['x/y'], ['hooks/a.sh']]);
    await trustAll();

    await script('x/y', BLOCK);
    await script('hooks/b.sh', BLOCK);
    const after = await load();
    expect(statuses(after)).toEqual([
      ['changed', ['x/y changed']],
      ['changed', ['hooks/b.sh added']],
    ]);
    expect(await decide(after)).toBeUndefined();
  });

  it('pins a file an entry’s env names, such as BASH_ENV, which bash runs before the command', async () => {
    const { project, home, write, script } = await setup();
    const store = TrustStore.forUser({ homeDir: home });
    const load = () => loadCopilotHooks({ projectDir: project, homeDir: home, trust: store });
    await script('.github/hooks/env.sh', 'true\n');
    await write(project, '.github/hooks/guard.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'cat > /dev/null; exit 0', env: { BASH_ENV: './.github/hooks/env.sh' } }] } });
    expect(parts(await load())).toEqual([['.github/hooks/env.sh']]);
    await store.trust((await load()).trustChecks.map((c) => c.fingerprint));
    expect(await decide(await load())).toBeUndefined();

    await script('.github/hooks/env.sh', 'echo "sourced first" >&2; exit 2\n');
    const after = await load();
    expect(statuses(after)).toEqual([['changed', ['.github/hooks/env.sh changed']]]);
    expect(await decide(after)).toBeUndefined();
  });

  it('lists what a command names but trust does not pin, and leaves output files alone', async () => {
    const { project, write, script, load, trustAll } = await claudeProject();
    await script('log.txt', '');
    await write(project, '.claude/settings.json', settings('node ~/hooks/check.js "$TOOLS"/lint.sh /srv/shared/check.sh >> log.txt'));
    const loaded = await load();
    expect(parts(loaded)).toEqual([[]]);
    expect(loaded.trustChecks[0]!.fingerprint.unpinned).toEqual([
      '~/hooks/check.js (in the home folder, so not pinned)',
      '$TOOLS/lint.sh (built from a variable, so not pinned)',
      '/srv/shared/check.sh (outside the project, so not pinned)',
    ]);
    // What the command writes changes with every run: it must not untrust the hook.
    await trustAll();
    await writeFile(join(project, 'log.txt'), 'a line\n');
    expect(statuses(await load())).toEqual([['trusted', []]]);
  });

  it('skips a hook whose command names a FIFO, without hanging, and loads the others', async () => {
    const { project, home, write, script, store } = await claudeProject();
    await script('ok.sh', BLOCK);
    execFileSync('mkfifo', [join(project, 'pipe.sh')]);
    await write(project, '.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh ./pipe.sh' }, { type: 'command', command: 'sh ./ok.sh' }] }] },
    });
    const load = () => loadAllHookConfigs(project, { hostEnv: { HOME: home }, homeDir: home, userDir: false });
    await store.trust((await load()).trustChecks.map((c) => c.fingerprint));
    const loaded = await load();
    expect(loaded.hooks.map((h) => h.name)).toEqual(['sh ./ok.sh']);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ code: 'unpinnable-hook', field: 'hooks.PreToolUse[0].hooks[0]', message: expect.stringContaining(`${join(project, 'pipe.sh')} is a FIFO`) }),
    ]);
  }, 15_000);
});

describe('a project config file cannot cost the regex checker time before it is trusted', () => {
  // The engine the checker runs (the same object every time): watching it shows when a pattern is analysed.
  const recheck = loadRecheckEngine()!;
  // The patterns analysed, in order. A check that ran out of time for want of CPU (a busy machine) is made again at
  // once (see checkWithinCpuBudget): one analysis, several calls in a row.
  const analysed = (checker: { mock: { calls: unknown[][] } }) =>
    checker.mock.calls.map((call) => call[0]).filter((pattern, i, all) => i === 0 || all[i - 1] !== pattern);
  const tag = () => randomBytes(4).toString('hex').replace(/\d/g, 'q');

  it('analyses the matcher of an untrusted entry never, and of a trusted one once; a catastrophic one is refused then', async () => {
    const { project, home, write, load, trustAll } = await claudeProject();
    const piping = `(curl|${tag()})[^|]*\\|\\s*(ba)?sh`;
    const slow = `(\\w+${tag()}+)+$`;
    await write(project, '.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: piping, hooks: [{ type: 'command', command: 'echo piping' }] }, { matcher: slow, hooks: [{ type: 'command', command: 'echo slow' }] }] },
    });
    const userSlow = `(\\w+${tag()}+)+$`;
    await write(home, '.claude/settings.json', { hooks: { PreToolUse: [{ matcher: userSlow, hooks: [{ type: 'command', command: 'echo mine' }] }] } });
    const checker = vi.spyOn(recheck, 'checkSync');

    const untrusted = await load();
    // The user's own entries need no trust: theirs is analysed, and refused.
    expect(analysed(checker)).toEqual([userSlow]);
    expect(untrusted.problems.map((p) => [p.code, p.field])).toEqual([
      ['untrusted-hook', 'hooks.PreToolUse[0].hooks[0]'],
      ['untrusted-hook', 'hooks.PreToolUse[1].hooks[0]'],
      ['unsafe-regex', 'hooks.PreToolUse[0].matcher'],
    ]);

    await trustAll();
    checker.mockClear();
    const trusted = await load();
    expect(analysed(checker)).toEqual([piping, slow]);
    expect(trusted.hooks.map((h) => h.name)).toEqual(['echo piping']);
    expect(trusted.problems).toEqual([
      expect.objectContaining({ code: 'unsafe-regex', field: 'hooks.PreToolUse[0].matcher', file: join(home, '.claude', 'settings.json') }),
      expect.objectContaining({ code: 'unsafe-regex', field: 'hooks.PreToolUse[1].matcher', file: join(project, '.claude', 'settings.json') }),
    ]);
  });
});

describe('config files that are not files', () => {
  it('reports a project settings file that is a FIFO as unreadable instead of waiting for a writer', async () => {
    const { project, load } = await claudeProject();
    await mkdir(join(project, '.claude'));
    execFileSync('mkfifo', [join(project, '.claude', 'settings.json')]);
    const loaded = await load();
    expect(loaded.hooks).toEqual([]);
    expect(loaded.problems).toEqual([expect.objectContaining({ file: join(project, '.claude', 'settings.json'), code: 'unreadable', severity: 'error' })]);
  }, 15_000);
});

describe('deeply nested config files', () => {
  it('reports where JSON nested without end breaks off, without overflowing the stack', () => {
    const read = parseConfigJson(`{"hooks": ${'['.repeat(100_000)}`, '/p/settings.json');
    // The 1024th bracket, one level past what is followed, is where the scan stops: column 11 + 1023.
    expect(read).toMatchObject({ status: 'invalid', problem: { code: 'invalid-json', line: 1, column: 1034 } });
  });

  it('loads every other hook when a project file nests thousands of levels deep', async () => {
    const { project, home, write } = await setup();
    await writeHook(join(home, '.config', 'agents', 'hooks'), 'mine');
    const depth = 50_000;
    await write(project, '.claude/settings.json', `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","x":${'['.repeat(depth)}${']'.repeat(depth)}}]}]}}`);
    await write(project, '.cursor/hooks.json', { version: 1, hooks: { stop: [{ command: 'echo cursor' }] } });
    const env = { HOME: home };
    const loaded = await loadAllHookConfigs(project, { hostEnv: env, homeDir: home });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['mine']);
    // The deep entry is refused, with its file or alone; the other file's hook is checked as usual.
    expect(loaded.trustChecks.map((c) => [c.fingerprint.kind, c.status])).toContainEqual(['cursor', 'untrusted']);
    expect(loaded.problems).toContainEqual(expect.objectContaining({ file: join(project, '.claude', 'settings.json') }));
  });
});
