import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllHookConfigs } from '../../src/agents/load-all.js';
import { cliProjects, runCli } from '../support/cli.js';

// Factory Droid takes an event's hooks, in one folder, from hooks.json alone once that file hooks the event (else
// from hooks/hooks.json, else settings.json). `bridge --install droid` writes hooks.json: the hooks the project ran
// for that event from the other files must not stop guarding because the bridge arrived.

const project = cliProjects();
const guard = { matcher: 'Execute', hooks: [{ type: 'command', command: './guard.sh' }] };
const write = async (file: string, value: unknown): Promise<void> => {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
};

describe('agent-hooks bridge --install droid', () => {
  it('carries an event’s hooks from settings.json into hooks.json before the bridge, and says so, so they keep running', async () => {
    const { dir } = await project();
    const settings = join(dir, '.factory', 'settings.json');
    await write(settings, { model: 'x', hooks: { PreToolUse: [guard], Stop: [{ hooks: [{ type: 'command', command: './gate.sh' }] }] } });
    const run = await runCli(['bridge', '--install', 'droid', '--events', 'PreToolUse,PostToolUse'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`WARNING: Factory Droid runs the PreToolUse hooks of ${join(dir, '.factory', 'hooks.json')} alone once it has some, so the 1 group(s) of PreToolUse in ${settings} were copied there`);
    const hooks = JSON.parse(await readFile(join(dir, '.factory', 'hooks.json'), 'utf8')) as Record<string, { hooks: { command: string }[] }[]>;
    expect(hooks.PreToolUse!.map((g) => g.hooks[0]!.command)).toEqual(['./guard.sh', expect.stringContaining('bridge --from droid')]);
    expect(hooks.PostToolUse!.map((g) => g.hooks[0]!.command)).toEqual([expect.stringContaining('bridge --from droid')]);
    // Loaded as Factory Droid reads the folder: the guard runs (from hooks.json), settings.json's Stop still does (the
    // bridge's own lines are never loaded as hooks).
    const { hooks: loaded } = await loadAllHookConfigs(dir, { homeDir: false, userDir: false, trust: 'all', droid: true, hookmd: false });
    expect(loaded.map((h) => `${h.events.join()} ${h.name}`)).toEqual(['Stop ./gate.sh', 'PreToolUse ./guard.sh']);
  });

  it('starts a new hooks.json from the older hooks/hooks.json, which Factory Droid stops reading once hooks.json exists, and says so', async () => {
    const { dir } = await project();
    await write(join(dir, '.factory', 'settings.json'), { hooks: { PreToolUse: [guard], PostToolUse: [{ hooks: [{ type: 'command', command: './settings-post.sh' }] }] } });
    const legacy = join(dir, '.factory', 'hooks', 'hooks.json');
    await write(legacy, { PostToolUse: [{ hooks: [{ type: 'command', command: './post.sh' }] }], Stop: [{ hooks: [{ type: 'command', command: './gate.sh' }] }] });
    const run = await runCli(['bridge', '--install', 'droid', '--events', 'PreToolUse,PostToolUse'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const file = join(dir, '.factory', 'hooks.json');
    const hooks = JSON.parse(await readFile(file, 'utf8')) as Record<string, { hooks: { command: string }[] }[]>;
    expect(Object.fromEntries(Object.entries(hooks).map(([event, groups]) => [event, groups.map((g) => g.hooks[0]!.command.replace(/^.*bridge --from droid$/, 'bridge'))]))).toEqual({
      PostToolUse: ['./post.sh', 'bridge'],
      Stop: ['./gate.sh'],
      PreToolUse: ['./guard.sh', 'bridge'],
    });
    expect(run.stderr).toContain(`WARNING: Factory Droid reads ${legacy} only while ${file} does not exist: its hooks were copied into ${file}`);
    expect(run.stderr.match(/WARNING/g)).toHaveLength(2);
  });
});
