/**
 * A tool matcher in an agent's own config file means what it means in that agent: the real Copilot CLI, Gemini CLI
 * and Codex CLI run one shell command with hooks of several matchers, each hook logging that it ran; an agent-hooks
 * agent loading the same file, whose shell tool has the agent's own name, must run the same hooks — the shared tool
 * vocabulary (`bash` = `Bash` = `run_shell_command`) is for HOOK.md and our API, not for their files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from '../../src/index.js';
import { codexDriver, writeConfig } from './drivers/codex.js';
import { copilotDriver } from './drivers/copilot.js';
import { geminiDriver, writeUserSettings } from './drivers/gemini.js';
import { makeProject, pinOf, type AgentDriver, type AgentName, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

const TURNS: readonly Turn[] = [{ shell: 'echo hello' }, { text: 'done' }];

/** A hook command that leaves `ran-LABEL` in the project when it runs. */
const logs = (label: string): string => `cat > /dev/null; touch ran-${label}`;

interface Case {
  readonly driver: AgentDriver;
  /** The file the agent reads, relative to the project, and what it holds. */
  readonly file: string;
  readonly config: (matchers: Readonly<Record<string, string>>) => object;
  /** The agent's own name for its shell tool, as its hooks see it. */
  readonly tool: string;
  /** Each label's matcher. */
  readonly matchers: Readonly<Record<string, string>>;
  /** The labels whose hooks the agent runs. */
  readonly runs: readonly string[];
  readonly sources: { readonly copilot?: true; readonly gemini?: true; readonly codex?: true };
  /** Writes what the agent needs besides the hook file (auth, trust, the mock as its model). */
  readonly prepare: (project: AgentProject, mock: MockServer) => void;
}

const CASES: readonly Case[] = [
  {
    driver: copilotDriver,
    file: '.github/hooks/matchers.json',
    config: (m) => ({ version: 1, hooks: { preToolUse: Object.entries(m).map(([label, matcher]) => ({ type: 'command', matcher, bash: logs(label) })) } }),
    tool: 'bash',
    matchers: { Bash: 'Bash', star: '*', empty: '', own: 'bash' },
    runs: ['own'],
    sources: { copilot: true },
    prepare: (project) => execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env }),
  },
  {
    driver: geminiDriver,
    file: '.gemini/settings.json',
    config: (m) => ({ hooks: { BeforeTool: Object.entries(m).map(([label, matcher]) => ({ matcher, hooks: [{ type: 'command', command: logs(label) }] })) } }),
    tool: 'run_shell_command',
    matchers: { Bash: 'Bash', Shell: 'Shell', own: 'run_shell_command' },
    runs: ['own'],
    sources: { gemini: true },
    prepare: (project) => writeUserSettings(project),
  },
  {
    driver: codexDriver,
    file: '.codex/hooks.json',
    config: (m) => ({ hooks: { PreToolUse: Object.entries(m).map(([label, matcher]) => ({ matcher, hooks: [{ type: 'command', command: logs(label), timeout: 30 }] })) } }),
    tool: 'Bash',
    matchers: { bash: 'bash', Shell: 'Shell', own: 'Bash' },
    runs: ['own'],
    sources: { codex: true },
    prepare: (project, mock) => writeConfig(project, mock),
  },
];

function projectFor(c: Case): AgentProject {
  const project = makeProject([]);
  mkdirSync(join(project.dir, c.file, '..'), { recursive: true });
  writeFileSync(join(project.dir, c.file), `${JSON.stringify(c.config(c.matchers), null, 2)}\n`);
  return project;
}

const ranIn = (dir: string, c: Case): string[] => Object.keys(c.matchers).filter((label) => existsSync(join(dir, `ran-${label}`)));

async function runOurs(c: Case, project: AgentProject): Promise<string[]> {
  const model = new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: c.tool, args: { command: t.shell } }] } : t.text)));
  const shell = defineTool({
    name: c.tool,
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(shell)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, hookmd: false, ...c.sources })
    .build();
  const previous = process.cwd();
  process.chdir(project.dir);
  try {
    await agent.run('Say hello.');
  } finally {
    process.chdir(previous);
  }
  return ranIn(project.dir, c);
}

for (const c of CASES) {
  const name: AgentName = c.driver.name;
  describe(`${name} ${pinOf(name).version}: a matcher in its own file matches its own tool names only, there and here`, () => {
    let theirs: { project: AgentProject; mock: MockServer; run: AgentRun; ran: string[] };
    let ours: { project: AgentProject; ran: string[] };
    beforeAll(async () => {
      const project = projectFor(c);
      const mock = await startMockServer(c.driver.api(), TURNS);
      c.prepare(project, mock);
      const run = await c.driver.run(project, mock, 'Say hello.', 90_000);
      theirs = { project, mock, run, ran: ranIn(project.dir, c) };
      const mine = projectFor(c);
      ours = { project: mine, ran: await runOurs(c, mine) };
    }, 200_000);
    afterAll(async () => {
      await theirs?.mock.close();
      theirs?.project.remove();
      ours?.project.remove();
    });

    const explain = (): string => `${name}: exit ${theirs.run.exitCode}, ran ${JSON.stringify(theirs.ran)}\n--- stderr\n${theirs.run.stderr.slice(-3000)}\nours: ran ${JSON.stringify(ours.ran)}`;

    it(`${name} ran the command, and only the hooks of ${c.runs.map((l) => JSON.stringify(c.matchers[l])).join(', ')}`, () => {
      expect(theirs.run.timedOut, explain()).toBe(false);
      expect(theirs.mock.remaining(), explain()).toBe(0);
      expect(theirs.ran, explain()).toEqual(c.runs);
    });

    it('so does an agent-hooks agent loading the same file', () => {
      expect(ours.ran, explain()).toEqual(c.runs);
    });
  });
}
