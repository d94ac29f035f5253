import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookStack,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  TrustStore,
  defineTool,
  discoverHooks,
  loadAllHookConfigs,
  projectHooksDir,
  type Hook,
} from 'agent-hooks';
import { tempDir, writeHook } from '../support/script-fixture.js';

// `env` is what a hook's process is given; `hostEnv` is where agent-hooks reads XDG_CONFIG_HOME, HOME and
// AGENT_HOOKS_TRUST from. Neither stands in for the other.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Sets variables of this process for one test; they are put back after it. */
function setProcessEnv(vars: Record<string, string>): void {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]] as const));
  Object.assign(process.env, vars);
  cleanups.push(async () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/** A project, and a user config home (`xdg`) and home (`home`) of its own. */
async function setup() {
  const { dir, cleanup } = await tempDir('agent-hooks-host-env-');
  cleanups.push(cleanup);
  const project = join(dir, 'project');
  const xdg = join(dir, 'xdg');
  const home = join(dir, 'home');
  await Promise.all([mkdir(projectHooksDir(project), { recursive: true }), mkdir(xdg), mkdir(home)]);
  return { dir, project, xdg, home, out: join(dir, 'env.bin') };
}

/** A hook script that writes its whole environment to `out`. */
const printEnv = (out: string) => `cat > /dev/null; env -0 > "${out}"`;

async function envWritten(out: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const pair of (await readFile(out, 'utf8')).split('\0')) {
    const at = pair.indexOf('=');
    if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

const fire = (hooks: readonly (Hook & { priority: number })[]) =>
  new HookStack(hooks.map((hook) => ({ hook, priority: hook.priority }))).process(ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' })));

describe('discoverHooks: env is for the hooks, hostEnv for finding them', () => {
  it('finds the user hooks of process.env\'s XDG_CONFIG_HOME when env only holds variables for the hooks', async () => {
    const { project, xdg, out } = await setup();
    await writeHook(join(xdg, 'agents', 'hooks'), 'mine', printEnv(out));
    setProcessEnv({ XDG_CONFIG_HOME: xdg });
    const { hooks } = await discoverHooks({ projectDir: project, env: { FOO: 'x' } });
    expect(hooks.map((h) => [h.name, h.manifest.source])).toEqual([['mine', 'user']]);
    await fire(hooks);
    expect((await envWritten(out)).FOO).toBe('x');
  });

  it('finds the user hooks of hostEnv, and does not hand hostEnv to the hooks', async () => {
    const { project, xdg, out } = await setup();
    await writeHook(join(xdg, 'agents', 'hooks'), 'mine', printEnv(out));
    const { hooks } = await discoverHooks({ projectDir: project, hostEnv: { XDG_CONFIG_HOME: xdg, HOST_ONLY: 'host' }, env: { FOO: 'x' } });
    expect(hooks.map((h) => h.name)).toEqual(['mine']);
    await fire(hooks);
    const env = await envWritten(out);
    expect(env.FOO).toBe('x');
    expect(env.HOST_ONLY).toBeUndefined();
  });

  it('does not move the user hooks for an env holding XDG_CONFIG_HOME or HOME: the hook gets them, nothing more', async () => {
    const { project, xdg, home, out } = await setup();
    await writeHook(join(xdg, 'agents', 'hooks'), 'mine', printEnv(out));
    const elsewhere = join(home, 'elsewhere');
    await writeHook(join(elsewhere, 'agents', 'hooks'), 'not-mine', 'exit 0');
    const { hooks } = await discoverHooks({ projectDir: project, hostEnv: { XDG_CONFIG_HOME: xdg }, env: { XDG_CONFIG_HOME: elsewhere, HOME: home } });
    expect(hooks.map((h) => h.name)).toEqual(['mine']);
    await fire(hooks);
    expect(await envWritten(out)).toMatchObject({ XDG_CONFIG_HOME: elsewhere, HOME: home });
  });

  it('reads AGENT_HOOKS_TRUST and the trust store from hostEnv alone, not from env or process.env', async () => {
    const { project, home } = await setup();
    await writeHook(projectHooksDir(project), 'guard', 'exit 0');
    const load = (options: Parameters<typeof discoverHooks>[0]) => discoverHooks({ projectDir: project, userDir: false, ...options });
    // Trust is off only when the host says so.
    expect((await load({ hostEnv: { HOME: home, AGENT_HOOKS_TRUST: 'all' } })).hooks.map((h) => h.name)).toEqual(['guard']);
    expect((await load({ hostEnv: { HOME: home }, env: { AGENT_HOOKS_TRUST: 'all' } })).hooks).toEqual([]);
    setProcessEnv({ AGENT_HOOKS_TRUST: 'all' });
    expect((await load({ hostEnv: { HOME: home } })).hooks).toEqual([]);
    expect((await load({})).hooks.map((h) => h.name)).toEqual(['guard']);

    // The store is hostEnv's, whatever env says.
    const store = TrustStore.forUser({ hostEnv: { HOME: home } });
    await store.trust((await load({ hostEnv: { HOME: home } })).trustChecks.map((c) => c.fingerprint));
    expect((await load({ hostEnv: { HOME: home }, env: { HOME: join(home, 'other') } })).hooks.map((h) => h.name)).toEqual(['guard']);
  });
});

describe('loadAllHookConfigs and withHooksFrom: one place for the user\'s files', () => {
  it('withHooksFrom with env finds the user hooks of process.env\'s XDG_CONFIG_HOME and gives the hooks env', async () => {
    const { project, xdg, out } = await setup();
    await writeHook(join(xdg, 'agents', 'hooks'), 'mine', printEnv(out));
    setProcessEnv({ XDG_CONFIG_HOME: xdg });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'noop', args: {} }] }, 'done']))
      .withTools(defineTool({ name: 'noop', input: z.object({}), execute: () => 'ok' }))
      .withHooksFrom({ projectDir: project, env: { FOO: 'x' } })
      .build();
    expect((await agent.ready()).problems).toEqual([]);
    await agent.run('go');
    expect((await envWritten(out)).FOO).toBe('x');
  });

  it('finds the config files of hostEnv\'s HOME', async () => {
    const { project, home } = await setup();
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } }));
    const { hooks, files } = await loadAllHookConfigs(project, { hostEnv: { HOME: home }, claude: true, hookmd: true });
    expect(files).toContain(join(home, '.claude', 'settings.json'));
    expect(hooks.map((h) => h.name)).toEqual(['echo user']);
  });

  it('finds the user\'s HOOK.md hooks, config files and trust store under homeDir, whatever process.env says', async () => {
    const { project, xdg, home } = await setup();
    await writeHook(join(home, '.config', 'agents', 'hooks'), 'sandboxed', 'exit 0');
    await writeHook(join(xdg, 'agents', 'hooks'), 'real-user', 'exit 0');
    await writeHook(projectHooksDir(project), 'guard', 'exit 0');
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } }));
    setProcessEnv({ XDG_CONFIG_HOME: xdg });
    const load = () => loadAllHookConfigs(project, { homeDir: home, claude: true, hookmd: true });
    const before = await load();
    expect(before.hooks.map((h) => h.name)).toEqual(['sandboxed', 'echo user']);
    await TrustStore.forUser({ homeDir: home }).trust(before.trustChecks.map((c) => c.fingerprint));
    expect((await load()).hooks.map((h) => h.name)).toEqual(['sandboxed', 'guard', 'echo user']);
  });
});
