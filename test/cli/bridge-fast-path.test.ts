/**
 * The bridge loads, for one call, only the HOOK.md hooks that may run on it; `bridge --install` narrows each tool
 * event's entry to the tools the hooks can match, `list` says when that matcher is outdated, and `--user` writes a
 * line that runs nothing of the project's. In-process, on temporary projects.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { discoverHooks } from '../../src/script/discover-hooks.js';
import { DiscoveryCache } from '../../src/script/internal/discovery-cache.js';
import { scriptHook, tempProject } from '../support/cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function project() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  return p;
}

async function cli(dir: string, args: readonly string[], input = ''): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_CACHE_DIR: 'off', CLAUDE_PROJECT_DIR: dir };
  const io = cliIO({ cwd: dir, env, out: (t) => out.push(t), err: (t) => err.push(t), interactive: false, readStdin: async () => input, flush: async () => undefined });
  const code = await main([...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const claudePre = (tool: string, command = 'ls') => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { command, file_path: 'a' } });

describe('the bridge’s discovery for one call', () => {
  it('never hashes, validates or reports a hook that cannot run on the call, and still reports one that could', async () => {
    const p = await project();
    await scriptHook(p.hooks, 'shell-guard', { trigger: 'pre-tool-call', matcher: { tool: '^Bash$' } }, 'echo "no" >&2; exit 2');
    await scriptHook(p.hooks, 'write-guard', { trigger: 'pre-tool-call', matcher: { tool: '^(Write|Edit)$' } });
    await scriptHook(p.hooks, 'on-stop', { trigger: 'Stop' });
    const hostEnv = { HOME: join(p.dir, 'home'), XDG_CONFIG_HOME: join(p.dir, 'xdg') };
    const found = await discoverHooks({ projectDir: p.dir, hostEnv, userDir: false, scope: { call: { event: 'PreToolUse', tool: 'Bash' } } });
    expect(found.trustChecks.map((c) => c.hook.name)).toEqual(['shell-guard']);
    expect(found.problems.map((pr) => pr.hookName)).toEqual(['shell-guard']);
    // Through the bridge: the untrusted hook that would have run is named to the user; the others are not.
    const bridged = await cli(p.dir, ['bridge', '--from', 'claude'], claudePre('Bash'));
    expect(bridged.code).toBe(0);
    expect(bridged.out).toContain('shell-guard');
    expect(bridged.out).not.toContain('write-guard');
    expect(bridged.err).not.toContain('on-stop');
    // Trusted, it runs and blocks; the call on another tool loads nothing.
    const trusted = await cli(p.dir, ['trust', '--all']);
    expect(trusted.code, trusted.err).toBe(0);
    const denied = await cli(p.dir, ['bridge', '--from', 'claude'], claudePre('Bash', 'rm -rf /'));
    expect(JSON.parse(denied.out).hookSpecificOutput.permissionDecision).toBe('deny');
    const other = await cli(p.dir, ['bridge', '--from', 'claude'], claudePre('Read'));
    expect(other).toMatchObject({ code: 0, out: '' });
  });

  it('keeps a hook named like another always loaded, so a project hook still takes the user’s hook’s place', async () => {
    const p = await project();
    await scriptHook(p.userHooks, 'guard', { trigger: 'pre-tool-call', matcher: { tool: '^Bash$' } });
    await scriptHook(p.hooks, 'guard', { trigger: 'Stop' });
    const hostEnv = { HOME: join(p.dir, 'home'), XDG_CONFIG_HOME: join(p.dir, 'xdg') };
    const found = await discoverHooks({ projectDir: p.dir, hostEnv, trust: 'all', scope: { call: { event: 'PreToolUse', tool: 'Bash' } } });
    expect(found.hooks.map((h) => [h.name, h.manifest.source])).toEqual([['guard', 'project']]);
  });

  it('reuses a frontmatter validated before only when it is byte for byte the same, at the same place', async () => {
    const p = await project();
    const dir = await scriptHook(p.hooks, 'guard', { trigger: 'pre-tool-call', matcher: { tool: '^Bash$' } });
    const file = join(p.dir, 'cache', 'discovery');
    const first = await discoverHooks({ projectDir: p.dir, userDir: false, trust: 'all', scope: { cache: new DiscoveryCache(file) } });
    expect(first.hooks).toHaveLength(1);
    // One file for the project's hooks folder, which holds its hooks' frontmatters.
    const [root, ...others] = await readdir(file);
    expect(others).toEqual([]);
    expect(JSON.parse(await readFile(join(file, root!), 'utf8'))).toMatchObject({ root: p.hooks });
    expect(JSON.parse(await readFile(join(file, root!), 'utf8')).entries).toHaveProperty([join(dir, 'HOOK.md')]);
    const again = await discoverHooks({ projectDir: p.dir, userDir: false, trust: 'all', scope: { cache: new DiscoveryCache(file) } });
    expect(again.hooks[0]!.manifest).toEqual(first.hooks[0]!.manifest);
    // Edited: validated afresh, and an invalid edit is reported, not hidden by the cache.
    await writeFile(join(dir, 'HOOK.md'), '---\nname: guard\ndescription: x\ntrigger: no-such-event\n---\n');
    const edited = await discoverHooks({ projectDir: p.dir, userDir: false, trust: 'all', scope: { cache: new DiscoveryCache(file) } });
    expect(edited.hooks).toHaveLength(0);
    expect(edited.problems.some((pr) => pr.code === 'unknown-trigger')).toBe(true);
  });
});

describe('bridge --install’s tool matchers', () => {
  it('writes the tools the hooks can match, none where one matches every tool, and list says when they are outdated', async () => {
    const p = await project();
    await mkdir(join(p.dir, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(p.dir, 'node_modules', '.bin', 'agent-hooks'), '');
    await scriptHook(p.hooks, 'shell-guard', { trigger: 'pre-tool-call', matcher: { tool: '^Bash$' } });
    await scriptHook(p.hooks, 'audit', { trigger: 'post-tool-call' });
    const installed = await cli(p.dir, ['bridge', '--install', 'claude']);
    expect(installed.code, installed.err).toBe(0);
    const settings = JSON.parse(await readFile(join(p.dir, '.claude', 'settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse[0].matcher.split('|')).toContain('Bash');
    expect(settings.hooks.PostToolUse[0]).not.toHaveProperty('matcher');
    expect((await cli(p.dir, ['list', '--trust-all'])).out).not.toContain('matcher is');
    // A hook on every tool makes the installed matcher too narrow: list says so; installing again removes it.
    await scriptHook(p.hooks, 'all-tools', { trigger: 'pre-tool-call' });
    expect((await cli(p.dir, ['list', '--trust-all'])).out).toMatch(/PreToolUse matcher is ".*Bash.*", the hooks now need none \(every tool\)/);
    expect((await cli(p.dir, ['bridge', '--install', 'claude'])).code).toBe(0);
    const again = JSON.parse(await readFile(join(p.dir, '.claude', 'settings.json'), 'utf8'));
    expect(again.hooks.PreToolUse).toHaveLength(1);
    expect(again.hooks.PreToolUse[0]).not.toHaveProperty('matcher');
    expect((await cli(p.dir, ['list', '--trust-all'])).out).not.toContain('matcher is');
  });

  it('--user writes the user-level file with this node and cli.js by absolute paths, no matcher, and refuses the project’s own copy', async () => {
    const p = await project();
    await scriptHook(p.hooks, 'shell-guard', { trigger: 'pre-tool-call', matcher: { tool: '^Bash$' } });
    const global = await project();
    const cliJs = join(global.dir, 'global', 'agent-hooks', 'dist', 'cli.js');
    await mkdir(join(cliJs, '..'), { recursive: true });
    await writeFile(cliJs, '');
    const argv1 = process.argv[1];
    try {
      process.argv[1] = cliJs;
      const done = await cli(p.dir, ['bridge', '--install', 'claude', '--user', '--events', 'PreToolUse']);
      expect(done.code, done.err).toBe(0);
      const settings = JSON.parse(await readFile(join(p.dir, 'home', '.claude', 'settings.json'), 'utf8'));
      const entry = settings.hooks.PreToolUse[0];
      expect(entry).not.toHaveProperty('matcher');
      expect(entry.hooks[0].command).toMatch(/^NODE_OPTIONS= NODE_COMPILE_CACHE= \/\S*node\S* \/\S+\/global\/agent-hooks\/dist\/cli\.js bridge --from claude$/);
      expect(entry.hooks[0].command).not.toContain('npx');
      // The project's own copy, run from its node_modules, is refused for a line every repository runs.
      const own = join(p.dir, 'node_modules', 'agent-hooks', 'dist', 'cli.js');
      await mkdir(join(own, '..'), { recursive: true });
      await writeFile(own, '');
      process.argv[1] = own;
      const refused = await cli(p.dir, ['bridge', '--install', 'gemini', '--user', '--events', 'BeforeTool']);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain("the project's own copy");
    } finally {
      process.argv[1] = argv1!;
    }
  });
});
