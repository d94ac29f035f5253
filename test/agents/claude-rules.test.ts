/**
 * Claude Code's rules for its own command hooks, shown by the real binary and by our agent side by side: one
 * `.claude/settings.json` with small hooks written as published ones are (bash + jq, bash in strict mode, python3
 * stdlib, node), run once by Claude Code headless and once by an agent-hooks agent loading the same folder, with the
 * same script for the model. Each rule is a marker the model sees (or does not) and a file the shell writes (or does
 * not): both runs must agree, and agree with the rule as written in docs/other-agents.md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning } from '../../src/index.js';
import { claudeDriver } from './drivers/claude.js';
import { bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { sendJson, startMockServer, type MockApi, type MockServer, type Turn } from './support/mock-server.js';

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

/** One more headless run of Claude Code, on settings written for it: the user's, the project's and the local file. */
interface Scenario {
  readonly user?: unknown;
  readonly project?: unknown;
  readonly local?: unknown;
  readonly turns: readonly Turn[];
}

interface ScenarioRun {
  readonly project: AgentProject;
  readonly mock: MockServer;
  readonly run: AgentRun;
  /** Every text the model was sent after its first request. */
  readonly told: string;
  /** The text of a file the hooks wrote in the project, or `undefined`. */
  file(name: string): string | undefined;
}

const writeJson = (file: string, value: unknown): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

/** Lays out `scenario`'s settings in a new project (its own HOME holds the user's); `prepare` adds what its hooks need. */
function scenarioProject(scenario: Scenario, prepare?: (project: AgentProject) => void): AgentProject {
  const project = makeProject([]);
  prepare?.(project);
  if (scenario.user !== undefined) writeJson(join(project.home, '.claude', 'settings.json'), scenario.user);
  if (scenario.project !== undefined) writeJson(join(project.dir, '.claude', 'settings.json'), scenario.project);
  if (scenario.local !== undefined) writeJson(join(project.dir, '.claude', 'settings.local.json'), scenario.local);
  return project;
}

const fileOf = (project: AgentProject) => (name: string): string | undefined => {
  const file = join(project.dir, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

async function runClaude(scenario: Scenario, prepare?: (project: AgentProject) => void): Promise<ScenarioRun> {
  const project = scenarioProject(scenario, prepare);
  const mock = await startMockServer(claudeDriver.api(), scenario.turns);
  const run = await claudeDriver.run(project, mock, 'Do as you are told.', 90_000);
  return { project, mock, run, told: mock.mainRequests().slice(1).map((r) => bodyText(r.body)).join('\n'), file: fileOf(project) };
}

/** The same scenario run by our agent: Claude Code's settings loaded, the user's from the project's own HOME. */
async function runOursOn(scenario: Scenario, prepare?: (project: AgentProject) => void): Promise<{ project: AgentProject; told: string; requests: unknown[]; warnings: AgentWarning[]; error: unknown; file(name: string): string | undefined; result: unknown }> {
  const project = scenarioProject(scenario, prepare);
  const model = new ScriptedModel(scenario.turns.map((t) => ('shell' in t ? { toolCalls: [{ name: 'Bash', args: { command: t.shell } }] } : t.text)));
  const bash = defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: project.home, userDir: false, claude: true, hookmd: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  let error: unknown;
  let result: unknown;
  // One session, as a headless Claude Code run is: SessionStart before the turn, SessionEnd when it closes.
  const session = agent.session();
  try {
    result = await session.run('Do as you are told.');
  } catch (e) {
    error = e;
  } finally {
    await session.close();
  }
  return { project, told: model.requests.slice(1).map((r) => JSON.stringify(r.messages)).join('\n'), requests: model.requests.map((r) => r.messages), warnings, error, file: fileOf(project), result };
}

/** Every string in `value`, however deep. */
const stringsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(stringsIn) : typeof value === 'object' && value !== null ? Object.values(value).flatMap(stringsIn) : [];

/** The text of every tool result in a request body (Anthropic's `tool_result` blocks, our `tool` messages). */
const toolResultsIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(toolResultsIn);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (record.type === 'tool_result' || record.role === 'tool') return stringsIn(record.content);
  return Object.values(record).flatMap(toolResultsIn);
};

const marker = (name: string) => ({ type: 'command', command: `echo ran >> "$CLAUDE_PROJECT_DIR"/${name}`, timeout: 30 });
const preBash = (...hooks: unknown[]) => ({ PreToolUse: [{ matcher: 'Bash', hooks }] });

describe(`claude ${pinOf('claude').version}: "disableAllHooks" in each settings file, and ours`, () => {
  /** Hooks in all three files; `disableAllHooks` set in the files named. */
  const layout = (off: { user?: boolean; project?: boolean; local?: boolean }): Scenario => ({
    user: { ...(off.user !== undefined ? { disableAllHooks: off.user } : {}), hooks: preBash(marker('user-ran.log')) },
    project: { ...(off.project !== undefined ? { disableAllHooks: off.project } : {}), hooks: preBash(marker('project-ran.log')) },
    local: { ...(off.local !== undefined ? { disableAllHooks: off.local } : {}), hooks: preBash(marker('local-ran.log')) },
    turns: [{ shell: 'echo hello' }, { text: 'done' }],
  });
  const CASES = [
    ['the project file', { project: true }],
    ['the local file', { local: true }],
    ['the user file', { user: true }],
    ['the user file, and false in the project file', { user: true, project: false }],
  ] as const;
  const runs = new Map<string, { claude: ScenarioRun; ours: Awaited<ReturnType<typeof runOursOn>> }>();

  beforeAll(async () => {
    for (const [name, off] of CASES) runs.set(name, { claude: await runClaude(layout(off)), ours: await runOursOn(layout(off)) });
  }, 400_000);

  afterAll(async () => {
    for (const { claude, ours } of runs.values()) {
      await claude.mock.close();
      claude.project.remove();
      ours.project.remove();
    }
  });

  const ran = (r: { file(name: string): string | undefined }) => ['user-ran.log', 'project-ran.log', 'local-ran.log'].filter((f) => r.file(f) !== undefined);

  it.each(CASES)('set in %s: Claude Code runs none of the hooks, and neither do we', (name) => {
    const { claude, ours } = runs.get(name)!;
    expect(claude.mock.remaining(), `${claude.run.stderr.slice(-2000)}\n${claude.run.stdout.slice(-3000)}`).toBe(0);
    const expected = name.includes('false in the project') ? ['user-ran.log', 'project-ran.log', 'local-ran.log'] : [];
    expect(ran(claude), name).toEqual(expected);
    expect(ran(ours), name).toEqual(expected);
    if (expected.length === 0) expect(ours.warnings.map((w) => w.message).join('\n')).toMatch(/disableAllHooks/);
  });
});

/**
 * One node script for every hook of the next run: what it does depends on the event and the command, and it records
 * what it got in `<event>.json` in the project.
 */
const RULES_HOOK = `
const { appendFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
let data = '';
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => {
  const input = JSON.parse(data);
  const dir = process.env.CLAUDE_PROJECT_DIR;
  const event = input.hook_event_name;
  const command = String(input.tool_input?.command ?? '');
  const mode = process.argv[2];
  if (mode === 'record') return writeFileSync(join(dir, event + '.json'), data);
  if (mode === 'if') return appendFileSync(join(dir, 'if-ran.log'), command + '\\n');
  if (mode === 'bad-json' && command.startsWith('touch bad-json')) return process.stdout.write('{not json');
  if (mode === 'post' && command.includes('post-block')) return process.stdout.write(JSON.stringify({ decision: 'block', reason: 'RULE-POST-BLOCK-REASON' }));
  if (mode === 'post' && command.includes('out-string')) return process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'REPLACED-STRING' } }));
  if (mode === 'post' && command.includes('out-object')) return process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'REPLACED-OBJECT', stderr: '', interrupted: false, isImage: false } } }));
  if (mode === 'defer' && command.startsWith('touch deferred')) return process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } }));
});
`;

const node = (mode: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: `node "$CLAUDE_PROJECT_DIR"/rules-hook.cjs ${mode}`, timeout: 30, ...extra });
const placeHook = (project: AgentProject): void => writeFileSync(join(project.dir, 'rules-hook.cjs'), RULES_HOOK);

describe(`claude ${pinOf('claude').version}: "if" on quoted names, invalid JSON, PostToolUse answers, session payloads; and ours`, () => {
  const COMMANDS = ['"rm" -rf q1', '\\rm -rf q2', 'timeout 5 rm -rf q3', 'command rm -rf q4', 'env rm -rf q5', '/bin/rm -rf q6', 'rm -rf q7', "'rm' -rf q8", 'r"m" -rf q9'];
  const scenario: Scenario = {
    project: {
      hooks: {
        SessionStart: [{ hooks: [node('record')] }],
        SessionEnd: [{ hooks: [node('record')] }, { matcher: 'other', hooks: [marker('end-other.log')] }],
        MessageDisplay: [{ hooks: [node('record')] }],
        UserPromptSubmit: [{ hooks: [node('record')] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [node('if', { if: 'Bash(rm *)' }), node('bad-json', { onFailure: 'block' })] }],
        PostToolUse: [{ matcher: 'Bash', hooks: [node('post')] }],
      },
    },
    turns: [
      ...COMMANDS.map((shell) => ({ shell })),
      { shell: 'touch bad-json.txt' },
      { shell: 'echo post-block-output' },
      { shell: 'echo out-string-original' },
      { shell: 'echo out-object-original' },
      { text: 'done' },
    ],
  };
  let claude: ScenarioRun;
  let ours: Awaited<ReturnType<typeof runOursOn>>;

  beforeAll(async () => {
    claude = await runClaude(scenario, placeHook);
    ours = await runOursOn(scenario, placeHook);
  }, 300_000);

  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string => `claude: exit ${claude.run.exitCode}\n--- stderr\n${claude.run.stderr.slice(-2000)}\n--- stdout\n${claude.run.stdout.slice(-4000)}`;

  it('Claude Code ran the whole script', () => {
    expect(claude.mock.remaining(), explain()).toBe(0);
  });

  it('"if": Bash(rm *) runs on a quoted or escaped rm, not behind a wrapper or a path', () => {
    const expected = '"rm" -rf q1\n\\rm -rf q2\nrm -rf q7\n\'rm\' -rf q8\nr"m" -rf q9\n';
    expect(claude.file('if-ran.log'), explain()).toBe(expected);
    expect(ours.file('if-ran.log')).toBe(expected);
  });

  it('onFailure "block" and a hook that prints invalid JSON: the call runs', () => {
    expect(existsSync(join(claude.project.dir, 'bad-json.txt')), explain()).toBe(true);
    expect(existsSync(join(ours.project.dir, 'bad-json.txt'))).toBe(true);
  });

  it('a PostToolUse block reaches the model as the hook\'s blocking error, naming the event, the tool and the command', () => {
    const feedback = `PostToolUse:Bash hook blocking error from command: "node \"$CLAUDE_PROJECT_DIR\"/rules-hook.cjs post": RULE-POST-BLOCK-REASON`;
    expect(claude.mock.mainRequests().some((r) => stringsIn(r.body).some((t) => t.includes(feedback))), explain()).toBe(true);
    expect(ours.requests.some((r) => stringsIn(r).some((t) => t.includes(feedback))), ours.told.slice(-3000)).toBe(true);
  });

  it('updatedToolOutput: a string on Bash is ignored, the object shape replaces the output', () => {
    const claudeResults = claude.mock.mainRequests().flatMap((r) => toolResultsIn(r.body));
    const oursResults = ours.requests.flatMap((r) => toolResultsIn(r));
    for (const [who, results] of [['claude', claudeResults], ['ours', oursResults]] as const) {
      const text = results.join('\n');
      expect(text, `${who}: ${text}`).toContain('out-string-original');
      expect(text, who).not.toContain('REPLACED-STRING');
      expect(text, who).toContain('REPLACED-OBJECT');
      expect(text, who).not.toContain('out-object-original');
    }
  });

  it('SessionStart and SessionEnd payloads: only the keys Claude Code sends, reason "other" at the end', () => {
    const payload = (r: { file(name: string): string | undefined }, name: string) => JSON.parse(r.file(`${name}.json`) ?? '{}') as Record<string, unknown>;
    const [start, end] = [payload(claude, 'SessionStart'), payload(claude, 'SessionEnd')];
    expect(Object.keys(start).sort(), explain()).toEqual(['cwd', 'hook_event_name', 'session_id', 'source', 'transcript_path']);
    expect(start.source).toBe('startup');
    expect(Object.keys(end).sort()).toEqual(['cwd', 'hook_event_name', 'prompt_id', 'reason', 'session_id', 'transcript_path']);
    expect(end.reason).toBe('other');
    expect(claude.file('end-other.log')).toBe('ran\n');
    const [oursStart, oursEnd] = [payload(ours, 'SessionStart'), payload(ours, 'SessionEnd')];
    expect(Object.keys(oursStart).filter((k) => !(k in start))).toEqual([]);
    expect(Object.keys(oursEnd).filter((k) => !(k in end))).toEqual([]);
    expect(oursStart.source).toBe('startup');
    expect(oursEnd.reason).toBe('other');
    expect(ours.file('end-other.log')).toBe('ran\n');
  });

  it('MessageDisplay fires in a headless run; UserPromptSubmit carries the prompt', () => {
    const display = JSON.parse(claude.file('MessageDisplay.json') ?? '{}') as Record<string, unknown>;
    const prompt = JSON.parse(claude.file('UserPromptSubmit.json') ?? '{}') as Record<string, unknown>;
    expect(display.hook_event_name, explain()).toBe('MessageDisplay');
    expect(Object.keys(display).sort()).toEqual(['cwd', 'delta', 'final', 'hook_event_name', 'index', 'message_id', 'prompt_id', 'session_id', 'transcript_path', 'turn_id']);
    expect(display).toMatchObject({ delta: 'done', final: true, index: 0 });
    expect(prompt.prompt).toBe('Do as you are told.');
  });
});

/** The Messages API failing every request of the main loop with HTTP 400, as an API that refuses the request does. */
const failingApi = (): MockApi => {
  const api = claudeDriver.api();
  return {
    name: 'Anthropic Messages, failing',
    handle(request, res, next) {
      const body = request.body as { tools?: { name?: string }[] } | undefined;
      if (request.method === 'POST' && request.path.split('?')[0]!.endsWith('/messages') && (body?.tools ?? []).some((t) => t.name === 'Bash')) {
        sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'RULE-API-ERROR: this request is refused' } });
        return { main: true };
      }
      return api.handle(request, res, next);
    },
  };
};

/** Whether `file` exists and holds a whole JSON document. */
const isJson = (file: string): boolean => {
  try {
    JSON.parse(readFileSync(file, 'utf8'));
    return true;
  } catch {
    return false;
  }
};

describe(`claude ${pinOf('claude').version}: StopFailure on an API error (HTTP 400)`, () => {
  let project: AgentProject;
  let mock: MockServer;
  let run: AgentRun;
  beforeAll(async () => {
    // A shell, not node, ignoring SIGTERM: Claude Code exits right after it fires StopFailure, ending the hook's
    // processes with SIGTERM at once and SIGKILL 1.5 s later.
    const record = { type: 'command', command: `trap '' TERM; cat > "$CLAUDE_PROJECT_DIR"/StopFailure.json`, timeout: 30 };
    project = scenarioProject({ project: { hooks: { StopFailure: [{ hooks: [record] }], Stop: [{ hooks: [marker('stop-ran.log')] }] } }, turns: [] }, placeHook);
    mock = await startMockServer(failingApi(), [{ text: 'never' }]);
    // Claude Code exits right after it fires StopFailure, and may cut even `cat` short, leaving the file empty or
    // partial (what the docs tell a StopFailure hook to expect): the run is tried up to three times for a whole payload.
    const file = join(project.dir, 'StopFailure.json');
    for (let attempt = 1; ; attempt++) {
      rmSync(file, { force: true });
      run = await claudeDriver.run(project, mock, 'Do as you are told.', 90_000);
      if (attempt === 3 || isJson(file)) break;
    }
  }, 300_000);
  afterAll(async () => {
    await mock?.close();
    project?.remove();
  });

  it('fires StopFailure, not Stop, with error "unknown" and the API error text as last_assistant_message', () => {
    const file = join(project.dir, 'StopFailure.json');
    expect(existsSync(file), `${run.stderr.slice(-2000)}\n${run.stdout.slice(-3000)}`).toBe(true);
    const payload = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    console.log('StopFailure payload:', JSON.stringify(payload));
    expect(payload.error).toBe('unknown');
    expect(String(payload.last_assistant_message)).toContain('RULE-API-ERROR');
    expect('error_details' in payload).toBe(false);
    expect('permission_mode' in payload).toBe(false);
    expect(existsSync(join(project.dir, 'stop-ran.log'))).toBe(false);
  });
});

describe(`claude ${pinOf('claude').version}: permissionDecision "defer" headless`, () => {
  let claude: ScenarioRun;
  let ours: Awaited<ReturnType<typeof runOursOn>>;
  const scenario: Scenario = {
    project: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [node('defer')] }] } },
    turns: [{ shell: 'touch deferred.txt' }, { text: 'done' }],
  };
  beforeAll(async () => {
    claude = await runClaude(scenario, placeHook);
    ours = await runOursOn(scenario, placeHook);
  }, 150_000);
  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  it('the tool does not run, and the session ends with stop_reason "tool_deferred"', () => {
    expect(existsSync(join(claude.project.dir, 'deferred.txt'))).toBe(false);
    expect(claude.run.stdout).toContain('"stop_reason":"tool_deferred"');
    expect(claude.mock.mainRequests()).toHaveLength(1);
    // Ours, without approval interrupts: the run ends at the call, the tool not run.
    expect(existsSync(join(ours.project.dir, 'deferred.txt'))).toBe(false);
    expect((ours.result as { status?: string } | undefined)?.status).toBe('stopped');
  });
});
