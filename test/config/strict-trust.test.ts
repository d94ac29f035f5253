/**
 * `strict` loads refuse a project hook left out for want of trust, as they refuse a definition that is an error: a
 * guard the project ships that would silently not run is not a warning there.
 */
import { describe, expect, it } from 'vitest';
import { HookLoadError, TrustStore, UntrustedHooksError, loadAllHookConfigs, loadClaudeHooks } from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();
const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] }] } };

describe('a strict load with an untrusted project hook', () => {
  it('throws an UntrustedHooksError naming the hook, its file and the fix, from loadAllHookConfigs and from a config loader', async () => {
    const { project, home, write, script } = await setup();
    await script('.agents/hooks/guard/scripts/run', '#!/bin/sh\nexit 2\n');
    const hookMd = await write(project, '.agents/hooks/guard/HOOK.md', '---\nname: guard\ndescription: Guards.\ntrigger: pre-tool-call\n---\n');
    const claude = await write(project, '.claude/settings.json', settings);
    const options = { homeDir: home, hostEnv: { HOME: home }, userDir: false as const, hookmd: true, claude: true };

    const all = await loadAllHookConfigs(project, { ...options, strict: true }).then(() => undefined, (e: unknown) => e);
    expect(all).toBeInstanceOf(UntrustedHooksError);
    expect(all).toBeInstanceOf(HookLoadError);
    const message = (all as Error).message;
    expect(message).toContain(`'guard' (${hookMd}), not trusted yet`);
    expect(message).toContain(`(${claude} hooks.PreToolUse[0].hooks[0]), not trusted yet`);
    expect(message).toContain(`'npx agent-hooks trust' in ${project}`);
    expect((all as UntrustedHooksError).skipped.map((p) => p.code)).toEqual(['untrusted-hook', 'untrusted-hook']);

    await expect(loadClaudeHooks({ projectDir: project, homeDir: home, strict: true })).rejects.toBeInstanceOf(UntrustedHooksError);
    // Without strict, the same load skips them with warnings, as before.
    const lenient = await loadAllHookConfigs(project, options);
    expect(lenient.hooks).toEqual([]);
    expect(lenient.problems.map((p) => [p.code, p.severity])).toEqual([
      ['untrusted-hook', 'warning'],
      ['untrusted-hook', 'warning'],
    ]);
  });

  it('loads once the hooks are trusted', async () => {
    const { project, home, write } = await setup();
    await write(project, '.claude/settings.json', settings);
    const options = { homeDir: home, hostEnv: { HOME: home }, userDir: false as const, claude: true, hookmd: false };
    const { trustChecks } = await loadAllHookConfigs(project, options);
    await TrustStore.forUser({ homeDir: home }).trust(trustChecks.map((c) => c.fingerprint));
    const loaded = await loadAllHookConfigs(project, { ...options, strict: true });
    expect(loaded.hooks).toHaveLength(1);
  });
});
