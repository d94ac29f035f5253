/**
 * Claude Code's rules for its own command hooks, shown by the real binary and by our agent side by side: one
 * `.claude/settings.json` with small hooks written as published ones are (bash + jq, bash in strict mode, python3
 * stdlib, node), run once by Claude Code headless and once by an agent-hooks agent loading the same folder, with the
 * same script for the model. Each rule is a marker the model sees (or does not) and a file the shell writes (or does
 * not): both runs must agree, and agree with the rule as written in docs/other-agents.md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning } from '../../src/index.js';
import { claudeDriver } from './drivers/claude.js';
import { bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

const SETTINGS = new URL('./claude-rules/', import.meta.url).pathname;

/** What the model is scripted to do: six shell commands, then two answers (the first is held back by the Stop gate). */
const TURNS: readonly Turn[] = [
  { shell: 'rm -rf build' },
  { shell: 'echo curl > curl-ran.txt' },
  { shell: 'touch ignored.txt' },
  { shell: 'echo kept-output' },
  { shell: 'FOO=1 git status' },
  { shell: 'touch blocked.txt' },
  { text: 'done' },
  { text: 'all tests pass' },
];

/** What one run shows: which files the shell left, and what the model was told after its first request. */
interface Seen {
  readonly files: Readonly<Record<string, boolean>>;
  readonly told: string;
  /** What the hooks wrote: the commands the `if` hook ran on, the arguments the exec-form hook got. */
  readonly wrote: Readonly<Record<string, string | undefined>>;
}

const FILES = ['build/keep.txt', 'curl-ran.txt', 'ignored.txt', 'blocked.txt'];
const filesIn = (dir: string): Record<string, boolean> => Object.fromEntries(FILES.map((f) => [f, existsSync(join(dir, f))]));
/** A file a hook wrote, with the project's own path (which differs between the two runs) as `<project>`. */
const wroteIn = (project: AgentProject): Record<string, string | undefined> =>
  Object.fromEntries(
    ['if-ran.log', 'exec-args.txt', 'once.log'].map((f) => {
      const file = join(project.dir, f);
      return [f, existsSync(file) ? readFileSync(file, 'utf8').split(project.dir).join('<project>').split(project.home).join('<home>') : undefined];
    }),
  );

/** The same project, run by our agent: the settings folder loaded as Claude Code config, a Bash tool that runs the command. */
async function runOurs(project: AgentProject): Promise<Seen & { warnings: AgentWarning[] }> {
  const model = new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: 'Bash', args: { command: t.shell } }] } : t.text)));
  const bash = defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  const previous = process.cwd();
  process.chdir(project.dir);
  try {
    await agent.run('Clean up, fetch nothing, and say when the tests pass.');
  } finally {
    process.chdir(previous);
  }
  return { files: filesIn(project.dir), told: model.requests.slice(1).map((r) => JSON.stringify(r.messages)).join('\n'), wrote: wroteIn(project), warnings };
}

describe(`claude ${pinOf('claude').version}: its rules for command hooks, and ours, on the same settings`, () => {
  let claude: { project: AgentProject; mock: MockServer; run: AgentRun; seen: Seen };
  let ours: Seen & { project: AgentProject; warnings: AgentWarning[] };

  beforeAll(async () => {
    const project = makeProject([]);
    cpSync(SETTINGS, project.dir, { recursive: true });
    const mock = await startMockServer(claudeDriver.api(), TURNS);
    const run = await claudeDriver.run(project, mock, 'Clean up, fetch nothing, and say when the tests pass.', 90_000);
    const seen = { files: filesIn(project.dir), told: mock.mainRequests().slice(1).map((r) => bodyText(r.body)).join('\n'), wrote: wroteIn(project) };
    claude = { project, mock, run, seen };
    const mine = makeProject([]);
    cpSync(SETTINGS, mine.dir, { recursive: true });
    ours = { ...(await runOurs(mine)), project: mine };
  }, 150_000);

  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string =>
    `claude: exit ${claude.run.exitCode} after ${Math.round(claude.run.durationMs)} ms, files ${JSON.stringify(claude.seen.files)}, wrote ${JSON.stringify(claude.seen.wrote)}\n--- stderr\n${claude.run.stderr.slice(-3000)}\n--- stdout\n${claude.run.stdout.slice(-6000)}\nours: files ${JSON.stringify(ours.files)}, wrote ${JSON.stringify(ours.wrote)}, warnings ${JSON.stringify(ours.warnings.map((w) => w.message))}`;

  /** Asserts a rule on both runs: the marker's presence in what the model was told is `expected` in each. */
  const toldBoth = (marker: string, expected: boolean): void => {
    expect(claude.seen.told.includes(marker), `claude, ${marker}\n${explain()}`).toBe(expected);
    expect(ours.told.includes(marker), `ours, ${marker}\n${explain()}`).toBe(expected);
  };

  it('Claude Code ran the whole script', () => {
    expect(claude.run.timedOut, explain()).toBe(false);
    expect(claude.mock.remaining(), explain()).toBe(0);
  });

  it('exit 1 with a JSON deny on stdout denies (bash + jq); a comma list matcher names Bash exactly', () => {
    expect(claude.seen.files['build/keep.txt'], explain()).toBe(true);
    expect(ours.files['build/keep.txt'], explain()).toBe(true);
    toldBoth('RULE-EXIT1-JSON', true);
  });

  it('stdin ends with a newline: a set -euo pipefail hook reading it with read -r still guards', () => {
    expect(claude.seen.files['curl-ran.txt'], explain()).toBe(false);
    expect(ours.files['curl-ran.txt'], explain()).toBe(false);
  });

  it('exit 2 with a JSON reason: the model gets the JSON reason, not stderr', () => {
    toldBoth('RULE-JSON-WINS', true);
    toldBoth('RULE-STDERR', false);
  });

  it('a hookSpecificOutput that does not name its event is ignored: the command ran', () => {
    expect(claude.seen.files['ignored.txt'], explain()).toBe(true);
    expect(ours.files['ignored.txt'], explain()).toBe(true);
    toldBoth('RULE-NAMELESS', false);
  });

  it('a PostToolUse block gives the model its reason beside the kept output', () => {
    toldBoth('RULE-POST-BLOCK', true);
    toldBoth('kept-output', true);
  });

  it('a Stop gate reads the transcript file the payload names, and holds the agent back once', () => {
    toldBoth('RULE-STOP-TRANSCRIPT', true);
    // The gate read the transcript: it quoted the last answer, "done", from the file.
    toldBoth('(last: done)', true);
  });

  it('"if" runs a hook only on the commands its permission rule matches, an assignment before the command left out', () => {
    expect(claude.seen.wrote['if-ran.log'], explain()).toBe('FOO=1 git status\n');
    expect(ours.wrote['if-ran.log'], explain()).toBe(claude.seen.wrote['if-ran.log']);
  });

  it('the exec form gets its arguments as written, ${CLAUDE_PROJECT_DIR} filled in and $HOME not; onFailure "block" blocks on exit 3', () => {
    expect(claude.seen.wrote['exec-args.txt'], explain()).toBe('<project>|$HOME');
    expect(ours.wrote['exec-args.txt'], explain()).toBe(claude.seen.wrote['exec-args.txt']);
    expect(claude.seen.files['blocked.txt'], explain()).toBe(false);
    expect(ours.files['blocked.txt'], explain()).toBe(false);
  });

  it('"once" in a settings file runs the hook on every call, not once', () => {
    const calls = (w: Seen['wrote']) => (w['once.log'] ?? '').trim().split('\n').filter(Boolean).length;
    // Six commands, the denied ones too: the hook comes first in the file, so it runs before any hook that denies
    // (Claude Code runs an event's hooks in parallel, an agent-hooks stack in order).
    expect(calls(claude.seen.wrote), explain()).toBe(6);
    expect(calls(ours.wrote), explain()).toBe(6);
  });
});
