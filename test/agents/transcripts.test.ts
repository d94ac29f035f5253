/**
 * `transcript_path`, as Gemini CLI and Codex CLI fill it (and Copilot CLI its agentStop's `transcriptPath`), and as an agent-hooks agent loading the same file does: a hook
 * that reads the transcript as a hook of that agent would (support/last-answer.cjs) finds the last answer, there and
 * here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from '../../src/index.js';
import { codexDriver, writeConfig } from './drivers/codex.js';
import { copilotDriver } from './drivers/copilot.js';
import { geminiDriver, writeUserSettings } from './drivers/gemini.js';
import { makeProject, pinOf, type AgentDriver, type AgentName, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

const READER = fileURLToPath(new URL('./support/last-answer.cjs', import.meta.url));
const TURNS: readonly Turn[] = [{ shell: 'echo hello' }, { text: 'All done.' }];

interface Case {
  readonly driver: AgentDriver;
  readonly file: string;
  readonly event: string;
  readonly timeout: number;
  readonly tool: string;
  readonly sources: { readonly gemini?: true; readonly codex?: true; readonly copilot?: true };
  /** The hook file's content for `command`. */
  readonly config?: (command: string) => object;
  readonly prepare: (project: AgentProject, mock: MockServer) => void;
  /**
   * The file the agent names may not be written yet when the hook runs: Copilot CLI 1.0.102 names its session's
   * `events.jsonl`, which in most runs here did not exist yet at agentStop, and in others held the session's first
   * events but not yet this turn's answer (it writes its session events as it goes, apart from the hook).
   */
  readonly notYetWritten?: RegExp;
}

const CASES: readonly Case[] = [
  // Gemini's timeout is in milliseconds, Codex's in seconds.
  { driver: geminiDriver, file: '.gemini/settings.json', event: 'AfterAgent', timeout: 30_000, tool: 'run_shell_command', sources: { gemini: true }, prepare: (p) => writeUserSettings(p) },
  { driver: codexDriver, file: '.codex/hooks.json', event: 'Stop', timeout: 30, tool: 'Bash', sources: { codex: true }, prepare: (p, mock) => writeConfig(p, mock) },
  {
    driver: copilotDriver,
    file: '.github/hooks/stop.json',
    event: 'agentStop',
    timeout: 30,
    tool: 'bash',
    sources: { copilot: true },
    config: (command) => ({ version: 1, hooks: { agentStop: [{ bash: command, timeoutSec: 30 }] } }),
    notYetWritten: /ENOENT[^\n]*\.copilot\/session-state\/[\w-]+\/events\.jsonl/,
    prepare: (p) => execFileSync('git', ['init', '-q'], { cwd: p.dir, env: p.env }),
  },
];

const answersIn = (dir: string): string[] =>
  existsSync(join(dir, 'last-answer.log')) ? readFileSync(join(dir, 'last-answer.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string) : [];

for (const c of CASES) {
  const name: AgentName = c.driver.name;
  describe(`${name} ${pinOf(name).version}: a hook reading transcript_path, there and here`, () => {
    const withHook = (): AgentProject => {
      const project = makeProject([]);
      mkdirSync(join(project.dir, c.file, '..'), { recursive: true });
      const hook = { type: 'command', command: `node '${READER}'`, timeout: c.timeout };
      writeFileSync(join(project.dir, c.file), `${JSON.stringify(c.config?.(hook.command) ?? { hooks: { [c.event]: [{ hooks: [hook] }] } }, null, 2)}\n`);
      return project;
    };
    let theirs: { project: AgentProject; mock: MockServer; run: AgentRun; answers: string[] } | undefined;
    let ours: { project: AgentProject; answers: string[] };
    beforeAll(async () => {
      const project = withHook();
      const mock = await startMockServer(c.driver.api(), TURNS);
      c.prepare(project, mock);
      const run = await c.driver.run(project, mock, 'Say hello.', 120_000);
      theirs = { project, mock, run, answers: answersIn(project.dir) };
      const mine = withHook();
      const shell = defineTool({
        name: c.tool,
        description: 'Runs a shell command.',
        input: z.object({ command: z.string() }),
        execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: mine.dir, env: mine.env, encoding: 'utf8' }),
      });
      const agent = AgentBuilder.new()
        .withModel(new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: c.tool, args: { command: t.shell } }] } : t.text))))
        .withTools(shell)
        .withHooksFrom({ projectDir: mine.dir, trust: 'all', homeDir: false, userDir: false, hookmd: false, ...c.sources })
        .build();
      const previous = process.cwd();
      process.chdir(mine.dir);
      try {
        await agent.run('Say hello.');
      } finally {
        process.chdir(previous);
      }
      ours = { project: mine, answers: answersIn(mine.dir) };
    }, 200_000);
    afterAll(async () => {
      await theirs?.mock.close();
      theirs?.project.remove();
      ours?.project.remove();
    });

    it(`the ${c.event} hook finds the last answer in the transcript`, () => {
      if (theirs === undefined) throw new Error(`${name} did not run`);
      const failed = join(theirs.project.dir, 'last-answer.err');
      const hookError = existsSync(failed) ? readFileSync(failed, 'utf8') : '';
      const explain = `${name}: exit ${theirs.run.exitCode}, ${JSON.stringify(theirs.answers)}\n${hookError}${theirs.run.stderr.slice(-2000)}\nours: ${JSON.stringify(ours.answers)}`;
      if (c.notYetWritten !== undefined && (theirs.answers.length === 0 || (theirs.answers.length === 1 && theirs.answers[0] === ''))) {
        // The agent named a file it had not written yet, or not this far: what a hook finds there is no answer, and
        // ours is at least there.
        if (theirs.answers.length === 0) expect(hookError, explain).toMatch(c.notYetWritten);
        expect(ours.answers, explain).toEqual(['All done.']);
        return;
      }
      expect(theirs.answers, explain).toEqual(['All done.']);
      expect(ours.answers, explain).toEqual(theirs.answers);
    });
  });
}
