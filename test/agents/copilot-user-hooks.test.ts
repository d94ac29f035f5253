/**
 * GitHub Copilot CLI's user-level hook files (`~/.copilot/hooks/*.json`) beside the project's (`.github/hooks/*.json`)
 * on the same event, with hooks written inline in its settings files (`~/.copilot/settings.json`,
 * `.github/copilot/settings.json`): Copilot runs them all — the user's files, the user's settings, the project's
 * files, the project's settings, each folder's files last name first — and an agent-hooks agent loading the same
 * places (`withHooksFrom({ copilot: true })`) runs them in the same order. `~/.copilot/config.json` is not read.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
import { copilotDriver } from './drivers/copilot.js';
import { makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { shellScript } from './support/shell-script.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

/** A hook file whose preToolUse hooks each append their name to `order.log` in the project. */
const logging = (...names: string[]): object => ({ version: 1, hooks: { preToolUse: names.map((n) => ({ bash: `cat > /dev/null; echo ${n} >> order.log` })) } });

const USER_FILES: Readonly<Record<string, object>> = { 'a.json': logging('user-a'), 'c.json': logging('user-c1', 'user-c2') };
const PROJECT_FILES: Readonly<Record<string, object>> = { 'b.json': logging('project-b'), 'a.json': logging('project-a1', 'project-a2') };
/** Settings files with hooks inline, and a file Copilot does not read hooks from. */
const SETTINGS: Readonly<Record<string, object>> = {
  'home/.copilot/settings.json': { hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo user-settings >> order.log' }] } },
  'home/.copilot/config.json': { hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo user-config >> order.log' }] } },
  'project/.github/copilot/settings.json': { hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo project-settings >> order.log' }] } },
};
const TURNS: readonly Turn[] = [{ shell: 'touch one.txt' }, { text: 'done' }];

function withFiles(): AgentProject {
  const project = makeProject([]);
  execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
  for (const [dir, files] of [[join(project.home, '.copilot', 'hooks'), USER_FILES], [join(project.dir, '.github', 'hooks'), PROJECT_FILES]] as const) {
    mkdirSync(dir, { recursive: true });
    for (const [name, config] of Object.entries(files)) writeFileSync(join(dir, name), `${JSON.stringify(config, null, 2)}\n`);
  }
  for (const [path, config] of Object.entries(SETTINGS)) {
    mkdirSync(join(project.root, path, '..'), { recursive: true });
    writeFileSync(join(project.root, path), `${JSON.stringify(config, null, 2)}\n`);
  }
  return project;
}

const orderIn = (dir: string): string[] => (existsSync(join(dir, 'order.log')) ? readFileSync(join(dir, 'order.log'), 'utf8').trim().split('\n') : []);

describe(`copilot ${pinOf('copilot').version}: the user's hook files and the project's on one event, and ours`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun; order: string[] };
  let ours: { project: AgentProject; order: string[] };
  beforeAll(async () => {
    const project = withFiles();
    const mock = await startMockServer(copilotDriver.api(), TURNS);
    const run = await copilotDriver.run(project, mock, 'Touch the file.', 120_000);
    copilot = { project, mock, run, order: orderIn(project.dir) };
    const mine = withFiles();
    await runShellAgent({ dir: mine.dir, env: mine.env, tool: 'bash', ...shellScript(TURNS), from: { homeDir: mine.home, copilot: true, hookmd: false }, prompt: 'Touch the file.', inDir: true });
    ours = { project: mine, order: orderIn(mine.dir) };
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string => `copilot: exit ${copilot.run.exitCode}, order ${JSON.stringify(copilot.order)}\n--- log\n${copilotDriver.log?.(copilot.project).slice(-3000)}\nours: order ${JSON.stringify(ours.order)}`;

  it('Copilot ran the whole script', () => {
    expect(copilot.run.timedOut, explain()).toBe(false);
    expect(copilot.mock.remaining(), explain()).toBe(0);
  });

  it('runs them all: the user’s files, the user’s settings, the project’s files, the project’s settings; each folder last name first', () => {
    expect(copilot.order, explain()).toEqual(['user-c1', 'user-c2', 'user-a', 'user-settings', 'project-b', 'project-a1', 'project-a2', 'project-settings']);
    expect(ours.order, explain()).toEqual(copilot.order);
  });
});
