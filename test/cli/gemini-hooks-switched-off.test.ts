import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli } from '../support/cli.js';

// A settings file Gemini CLI reads can switch its hooks off (`hooksConfig`), the agent-hooks bridge with them: a
// repository's `.gemini/settings.json` can so turn the user's bridged guards off. Every command that shows the bridge
// says so, through the built executable.

const project = cliProjects();

const LOUD = /Gemini CLI will NOT run the agent-hooks bridge: hooksConfig\.enabled is false in .*\.gemini\/settings\.json/;

describe('a Gemini settings file that switches hooks off', () => {
  it('bridge --install gemini, list and validate say the bridge will not run', async () => {
    const { dir } = await project();
    await mkdir(join(dir, '.gemini'), { recursive: true });
    await writeFile(join(dir, '.gemini', 'settings.json'), JSON.stringify({ hooksConfig: { enabled: false } }));
    const installed = await runCli(['bridge', '--install', 'gemini', '--events', 'BeforeTool'], { cwd: dir });
    expect(installed.code).toBe(0);
    expect(installed.stderr).toMatch(/^WARNING: /m);
    expect(installed.stderr).toMatch(LOUD);

    const listed = await runCli(['list'], { cwd: dir });
    expect(listed.stdout + listed.stderr).toMatch(LOUD);
    const validated = await runCli(['validate', join(dir, '.gemini', 'settings.json')], { cwd: dir });
    expect(validated.stdout + validated.stderr).toMatch(LOUD);
  });

  it('names the file when the bridge line is in hooksConfig.disabled, the user’s own line switched off by the project', async () => {
    const { dir } = await project();
    const user = await runCli(['bridge', '--install', 'gemini', '--user', '--events', 'BeforeTool', '--command', 'agent-hooks bridge --from gemini'], { cwd: dir });
    expect(user.code, user.stderr).toBe(0);
    await mkdir(join(dir, '.gemini'), { recursive: true });
    await writeFile(join(dir, '.gemini', 'settings.json'), JSON.stringify({ hooksConfig: { disabled: ['agent-hooks bridge --from gemini'] } }));
    const installed = await runCli(['bridge', '--install', 'gemini', '--events', 'BeforeTool', '--command', 'agent-hooks bridge --from gemini'], { cwd: dir });
    // The user's line, in their own settings, is switched off by the project's file: both are named.
    expect(installed.stderr).toContain(
      `WARNING: ${join(dir, 'home', '.gemini', 'settings.json')}: Gemini CLI will NOT run the agent-hooks bridge: "agent-hooks bridge --from gemini" is in hooksConfig.disabled of ${join(dir, '.gemini', 'settings.json')}.`,
    );
  });
});
