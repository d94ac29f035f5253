/**
 * `agent-hooks bridge --install opencode` and `kilo`, through the built CLI: the plugin file each agent loads from its
 * project plugin folder, written once, never over a plugin of the project's own, and never a silent no-op when the
 * package it imports is missing. The plugin itself is proven inside the real binaries (test/agents/opencode.test.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli } from '../support/cli.js';

const project = cliProjects();

/** The project's `node_modules/agent-hooks`, as `npm install agent-hooks` leaves it (a package.json is what is looked for). */
async function withPackage(dir: string): Promise<void> {
  await mkdir(join(dir, 'node_modules', 'agent-hooks'), { recursive: true });
  await writeFile(join(dir, 'node_modules', 'agent-hooks', 'package.json'), '{"name":"agent-hooks"}\n');
}

describe('agent-hooks bridge --install opencode | kilo', () => {
  for (const [agent, file] of [
    ['opencode', '.opencode/plugin/agent-hooks.js'],
    ['kilo', '.kilo/plugin/agent-hooks.js'],
  ] as const) {
    it(`${agent}: writes ${file} once, with no hook in the project yet, and leaves it as it is the second time`, async () => {
      const { dir } = await project();
      await withPackage(dir);
      const first = await runCli(['bridge', '--install', agent], { cwd: dir });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe('');
      expect(first.stdout).toContain(`Added the agent-hooks plugin: ${join(dir, file)}`);
      const text = await readFile(join(dir, file), 'utf8');
      expect(text).toContain("import('agent-hooks/opencode')");
      expect(text).toContain('export const AgentHooks');
      const again = await runCli(['bridge', '--install', agent], { cwd: dir });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('already there');
      expect(await readFile(join(dir, file), 'utf8')).toBe(text);
    });
  }

  it('brings a plugin file of ours written by hand (the one-line re-export) up to date, keeping a backup', async () => {
    const { dir } = await project();
    await withPackage(dir);
    await mkdir(join(dir, '.opencode', 'plugin'), { recursive: true });
    const oneLine = "export { AgentHooks } from 'agent-hooks/opencode';\n";
    await writeFile(join(dir, '.opencode', 'plugin', 'agent-hooks.js'), oneLine);
    const result = await runCli(['bridge', '--install', 'opencode'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Brought the agent-hooks plugin up to date');
    expect(await readFile(join(dir, '.opencode', 'plugin', 'agent-hooks.js.bak'), 'utf8')).toBe(oneLine);
  });

  it('never writes over a plugin of the project’s own of the same name, and says what to do', async () => {
    const { dir } = await project();
    await withPackage(dir);
    await mkdir(join(dir, '.opencode', 'plugin'), { recursive: true });
    const own = 'export const Mine = async () => ({});\n';
    await writeFile(join(dir, '.opencode', 'plugin', 'agent-hooks.js'), own);
    const result = await runCli(['bridge', '--install', 'opencode'], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("is a plugin of the project's own");
    expect(result.stderr).toContain("export { AgentHooks } from 'agent-hooks/opencode';");
    expect(await readFile(join(dir, '.opencode', 'plugin', 'agent-hooks.js'), 'utf8')).toBe(own);
  });

  it('warns when the other plugin folder OpenCode reads (plugins/) already loads our plugin: every hook would run twice', async () => {
    const { dir } = await project();
    await withPackage(dir);
    await mkdir(join(dir, '.opencode', 'plugins'), { recursive: true });
    await writeFile(join(dir, '.opencode', 'plugins', 'hooks.ts'), "export { AgentHooks } from 'agent-hooks/opencode';\n");
    const result = await runCli(['bridge', '--install', 'opencode'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`WARNING: ${join(dir, '.opencode', 'plugins', 'hooks.ts')} loads the agent-hooks plugin too: OpenCode loads both files, and would run every hook twice.`);
  });

  it('warns when the project lacks the package the plugin imports', async () => {
    const { dir } = await project();
    const result = await runCli(['bridge', '--install', 'opencode'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("WARNING: OpenCode imports the plugin from the project's node_modules, where agent-hooks is not installed: run 'npm install --save-dev agent-hooks'");
  });

  it('refuses a timeout, a command and a user-level install, which a plugin has no use for, writing nothing', async () => {
    const { dir } = await project();
    for (const flags of [['--timeout', '5'], ['--command', 'true'], ['--user']]) {
      const result = await runCli(['bridge', '--install', 'opencode', ...flags], { cwd: dir, env: { HOME: join(dir, 'home') } });
      expect(result.code, flags.join(' ')).not.toBe(0);
      expect(result.stderr, flags.join(' ')).toContain('Nothing was changed');
    }
    await expect(readFile(join(dir, '.opencode', 'plugin', 'agent-hooks.js'), 'utf8')).rejects.toThrow();
  });

  it('bridge --from opencode refuses with the way to install the plugin', async () => {
    const { dir } = await project();
    const result = await runCli(['bridge', '--from', 'opencode'], { cwd: dir, input: JSON.stringify({ tool: 'bash', args: { command: 'ls' } }) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("npx agent-hooks bridge --install opencode");
  });
});
