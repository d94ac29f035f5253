/**
 * GitHub Copilot CLI's rules for its own `.github/hooks/*.json`, shown by the real binary and by our agent side by
 * side: the same hook file, run once by Copilot headless and once by an agent-hooks agent loading the same folder
 * (`withHooksFrom({ copilot: true })`), with the same script for the model. Each rule is a file the shell writes (or
 * does not) and a hook's log: both runs must agree, and agree with the rule as written in docs/other-agents.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentWarning } from '../../src/index.js';
import { runShellAgent } from '../support/shell-agent.js';
import { copilotDriver } from './drivers/copilot.js';
import { bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { shellScript } from './support/shell-script.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

/** A hook file's `preToolUse` entries; each project gets them in `.github/hooks/rules.json`. */
type Entries = readonly Record<string, unknown>[];

/**
 * The guards of the first run. Each acts on one command only (it greps the payload for a marker), so the others run:
 * - a Claude-style group (`matcher` + `hooks`) whose command exits 2 on `group-denied`;
 * - an entry whose command is not found (exit 127) on `not-found-denied`;
 * - an audit entry that logs every call it sees.
 */
const GUARDS: Entries = [
  { matcher: 'bash', hooks: [{ type: 'command', command: 'if grep -q group-denied; then echo RULE-GROUP >&2; exit 2; fi' }] },
  { bash: 'if grep -q not-found-denied; then no-such-guard-command; fi' },
  { bash: 'cat >/dev/null; echo seen >> audit.log' },
];

/** The second run: a `powershell`-only entry (no command on Linux) before an audit entry. */
const POWERSHELL_ONLY: Entries = [{ powershell: 'Write-Output allowed' }, { bash: 'cat >/dev/null; echo seen >> audit.log' }];

const GUARD_TURNS: readonly Turn[] = [{ shell: 'touch group-denied.txt' }, { shell: 'touch not-found-denied.txt' }, { shell: 'touch allowed.txt' }, { text: 'done' }];
const POWERSHELL_TURNS: readonly Turn[] = [{ shell: 'touch powershell-denied.txt' }, { text: 'done' }];

const FILES = ['group-denied.txt', 'not-found-denied.txt', 'allowed.txt', 'powershell-denied.txt'];

/** What one run shows: which files the shell left, and how many calls the audit hook saw. */
interface Seen {
  readonly files: Readonly<Record<string, boolean>>;
  readonly audited: number;
}

const seenIn = (dir: string): Seen => {
  const log = join(dir, 'audit.log');
  return {
    files: Object.fromEntries(FILES.map((f) => [f, existsSync(join(dir, f))])),
    audited: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).length : 0,
  };
};

/** A project whose `.github/hooks/rules.json` holds `entries` under `preToolUse`, in Copilot's version 1 format. */
function projectWith(entries: Entries): AgentProject {
  const project = makeProject([]);
  // Copilot reads `.github/hooks/` from the repository's root.
  execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
  mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
  writeFileSync(join(project.dir, '.github', 'hooks', 'rules.json'), `${JSON.stringify({ version: 1, hooks: { preToolUse: entries } }, null, 2)}\n`);
  return project;
}

/** The same project, run by our agent: the folder loaded as Copilot config, a `bash` tool that runs the command. */
/** `inSession`: in a session, which fires sessionStart as Copilot's run does. */
async function runOurs(project: AgentProject, turns: readonly Turn[], inSession = false): Promise<Seen & { warnings: AgentWarning[] }> {
  const { warnings } = await runShellAgent({ dir: project.dir, env: project.env, tool: 'bash', ...shellScript(turns), from: { copilot: true, hookmd: false }, prompt: 'Touch the files.', inDir: true, inSession });
  return { ...seenIn(project.dir), warnings };
}

interface Both {
  copilot: { project: AgentProject; mock: MockServer; run: AgentRun; seen: Seen };
  ours: Seen & { project: AgentProject; warnings: AgentWarning[] };
}

async function runBoth(entries: Entries, turns: readonly Turn[]): Promise<Both> {
  const project = projectWith(entries);
  const mock = await startMockServer(copilotDriver.api(), turns);
  const run = await copilotDriver.run(project, mock, 'Touch the files.', 90_000);
  const mine = projectWith(entries);
  return { copilot: { project, mock, run, seen: seenIn(project.dir) }, ours: { ...(await runOurs(mine, turns)), project: mine } };
}

async function removeBoth(both: Both | undefined): Promise<void> {
  await both?.copilot.mock.close();
  both?.copilot.project.remove();
  both?.ours.project.remove();
}

const explain = (b: Both): string =>
  `copilot: exit ${b.copilot.run.exitCode} after ${Math.round(b.copilot.run.durationMs)} ms, ${JSON.stringify(b.copilot.seen)}\n--- stderr\n${b.copilot.run.stderr.slice(-3000)}\n--- log\n${copilotDriver.log?.(b.copilot.project).slice(-6000)}\nours: ${JSON.stringify({ files: b.ours.files, audited: b.ours.audited })}, warnings ${JSON.stringify(b.ours.warnings.map((w) => w.message))}`;

/** A hook command that prints `json` when the payload holds `marker`, and nothing else. */
const answers = (marker: string, json: object): string => `if grep -q ${marker}; then echo '${JSON.stringify(json)}'; fi`;

/** The third run: answers Copilot reads its own way, on several events. */
const ANSWERS = {
  version: 1,
  hooks: {
    preToolUse: [
      { bash: answers('top-decision', { decision: 'block', reason: 'RULE-TOP-DECISION' }) },
      { bash: answers('string-args', { permissionDecision: 'allow', modifiedArgs: JSON.stringify({ command: 'touch rewritten-from-string.txt' }) }) },
    ],
    postToolUse: [
      { bash: answers('bare-result', { modifiedResult: 'RULE-BARE-RESULT' }) },
      { bash: answers('object-result', { modifiedResult: { textResultForLlm: 'RULE-OBJECT-RESULT', resultType: 'success' } }) },
      { bash: 'if grep -q exit-two-post; then echo RULE-EXIT2-POST >&2; exit 2; fi' },
    ],
    userPromptSubmitted: [
      { bash: 'cat > /dev/null; echo \'{"modifiedPrompt":"RULE-MODIFIED-PROMPT: touch the files."}\'' },
      { bash: 'cat > /dev/null; echo RULE-PROMPT-EXIT2 >&2; exit 2' },
    ],
    agentStop: [{ bash: 'cat > /dev/null; echo RULE-STOP-EXIT2 >&2; exit 2' }, { bash: 'cat > /dev/null; echo \'{"decision":"block"}\'' }],
  },
};
const ANSWER_TURNS: readonly Turn[] = [
  { shell: 'touch top-decision.txt' },
  { shell: 'touch string-args.txt' },
  { shell: 'echo bare-result-$((40+2))' },
  { shell: 'echo exit-two-post-$((40+2))' },
  { shell: 'echo object-result-$((40+2))' },
  { text: 'done' },
  // Played only when a Stop hook kept the agent working.
  { text: 'kept working' },
];

describe(`copilot ${pinOf('copilot').version}: the answers it reads, and how we read them`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun; told: string; files: string[] };
  let ours: { project: AgentProject; told: string; files: string[]; requests: number; warnings: AgentWarning[] };
  const FILES = ['top-decision.txt', 'string-args.txt', 'rewritten-from-string.txt'];
  const present = (dir: string) => FILES.filter((f) => existsSync(join(dir, f)));
  const withFile = (): AgentProject => {
    const project = makeProject([]);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
    writeFileSync(join(project.dir, '.github', 'hooks', 'answers.json'), `${JSON.stringify(ANSWERS, null, 2)}\n`);
    return project;
  };
  beforeAll(async () => {
    const project = withFile();
    const mock = await startMockServer(copilotDriver.api(), ANSWER_TURNS);
    const run = await copilotDriver.run(project, mock, 'Touch the files.', 90_000);
    copilot = { project, mock, run, told: mock.mainRequests().map((r) => bodyText(r.body)).join('\n'), files: present(project.dir) };
    const mine = withFile();
    const { model, warnings, error } = await runShellAgent({ dir: mine.dir, env: mine.env, tool: 'bash', ...shellScript(ANSWER_TURNS), from: { copilot: true, hookmd: false }, prompt: 'Touch the files.', inDir: true, catchError: true });
    // A Stop hook that keeps the agent working runs the script out: the request count below tells.
    if (error !== undefined) warnings.push({ message: String(error) } as AgentWarning);
    ours = { project: mine, told: model.requests.map((r) => JSON.stringify(r.messages)).join('\n'), files: present(mine.dir), requests: model.requests.length, warnings };
  }, 200_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string =>
    `copilot: exit ${copilot.run.exitCode}, files ${JSON.stringify(copilot.files)}, ${copilot.mock.mainRequests().length} requests\n--- log\n${copilotDriver.log?.(copilot.project).slice(-5000)}\nours: files ${JSON.stringify(ours.files)}, ${ours.requests} requests, warnings ${JSON.stringify(ours.warnings.map((w) => w.message))}`;

  it('a top-level decision "block" on preToolUse is not read: the call runs', () => {
    expect(copilot.files, explain()).toContain('top-decision.txt');
    expect(ours.files, explain()).toContain('top-decision.txt');
  });

  it('modifiedArgs given as a JSON string is applied', () => {
    expect(copilot.files, explain()).toEqual(expect.arrayContaining(['rewritten-from-string.txt']));
    expect(copilot.files, explain()).not.toContain('string-args.txt');
    expect(ours.files, explain()).toEqual(expect.arrayContaining(['rewritten-from-string.txt']));
    expect(ours.files, explain()).not.toContain('string-args.txt');
  });

  it('a bare-string modifiedResult, and exit 2 on postToolUse, leave the output as it was', () => {
    for (const [who, told] of [['copilot', copilot.told], ['ours', ours.told]] as const) {
      expect(told.includes('bare-result-42'), `${who}\n${explain()}`).toBe(true);
      expect(told.includes('RULE-BARE-RESULT'), `${who}\n${explain()}`).toBe(false);
      expect(told.includes('exit-two-post-42'), `${who}\n${explain()}`).toBe(true);
      expect(told.includes('RULE-EXIT2-POST'), `${who}\n${explain()}`).toBe(false);
    }
  });

  it('a modifiedResult object replaces the output with its textResultForLlm', () => {
    for (const [who, told] of [['copilot', copilot.told], ['ours', ours.told]] as const) {
      expect(told.includes('RULE-OBJECT-RESULT'), `${who}\n${explain()}`).toBe(true);
      expect(told.includes('object-result-42'), `${who}\n${explain()}`).toBe(false);
    }
  });

  it('modifiedPrompt on userPromptSubmitted reaches the model; an exit 2 there refuses nothing', () => {
    expect(copilot.told, explain()).toContain('RULE-MODIFIED-PROMPT');
    expect(ours.told, explain()).toContain('RULE-MODIFIED-PROMPT');
  });

  it('exit 2 on agentStop, and a block without a reason, do not keep the agent working', () => {
    expect(copilot.mock.remaining(), explain()).toBe(1);
    expect(ours.requests, explain()).toBe(ANSWER_TURNS.length - 1);
  });
});

/** The fourth run: two files, fields Copilot reads its own way. */
const FIELDS_FILES: Readonly<Record<string, object>> = {
  'fields.json': {
    version: 1,
    hooks: {
      // `timeout` is Copilot's alias of `timeoutSec`: killed at 1 s, this guard fails open and the call runs.
      preToolUse: [{ bash: 'sleep 4; echo \'{"permissionDecision":"deny","permissionDecisionReason":"RULE-SLOW"}\'', timeout: 1 }],
      // A matcher on sessionStart, userPromptSubmitted or agentStop is not applied: the hook runs.
      sessionStart: [{ matcher: 'no-such-source', bash: 'cat > /dev/null; touch session-started.txt' }],
      userPromptSubmitted: [{ matcher: 'no-such-prompt', bash: 'cat > /dev/null; touch prompt-submitted.txt' }],
      agentStop: [{ matcher: 'no-such-stop', bash: 'cat > /dev/null; touch agent-stopped.txt' }],
    },
  },
  // A file of another version is not read at all: its guard does not run.
  'later.json': { version: 2, hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo \'{"permissionDecision":"deny","permissionDecisionReason":"RULE-V2"}\'' }] } },
};
const FIELDS_TURNS: readonly Turn[] = [{ shell: 'touch slow-guard.txt' }, { text: 'done' }];

describe(`copilot ${pinOf('copilot').version}: the fields it reads, and how we read them`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun; files: string[] };
  let ours: { project: AgentProject; files: string[]; warnings: AgentWarning[] };
  const FILES = ['slow-guard.txt', 'session-started.txt', 'prompt-submitted.txt', 'agent-stopped.txt'];
  const present = (dir: string) => FILES.filter((f) => existsSync(join(dir, f)));
  const withFiles = (): AgentProject => {
    const project = makeProject([]);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
    for (const [name, config] of Object.entries(FIELDS_FILES)) writeFileSync(join(project.dir, '.github', 'hooks', name), `${JSON.stringify(config, null, 2)}\n`);
    return project;
  };
  beforeAll(async () => {
    const project = withFiles();
    const mock = await startMockServer(copilotDriver.api(), FIELDS_TURNS);
    const run = await copilotDriver.run(project, mock, 'Touch the file.', 90_000);
    copilot = { project, mock, run, files: present(project.dir) };
    const mine = withFiles();
    const seen = await runOurs(mine, FIELDS_TURNS, true);
    ours = { project: mine, files: present(mine.dir), warnings: seen.warnings };
  }, 200_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string =>
    `copilot: exit ${copilot.run.exitCode}, files ${JSON.stringify(copilot.files)}\n--- log\n${copilotDriver.log?.(copilot.project).slice(-4000)}\nours: files ${JSON.stringify(ours.files)}, warnings ${JSON.stringify(ours.warnings.map((w) => w.message))}`;

  it('Copilot ran the whole script', () => {
    expect(copilot.run.timedOut, explain()).toBe(false);
    expect(copilot.mock.remaining(), explain()).toBe(0);
  });

  it('"timeout" is read as "timeoutSec", and a version 2 file is not read: the call runs', () => {
    expect(copilot.files, explain()).toContain('slow-guard.txt');
    expect(ours.files, explain()).toContain('slow-guard.txt');
  });

  it('a matcher on sessionStart, userPromptSubmitted or agentStop is not applied: the hook runs', () => {
    for (const file of ['session-started.txt', 'prompt-submitted.txt', 'agent-stopped.txt']) {
      expect(copilot.files, explain()).toContain(file);
      expect(ours.files, explain()).toContain(file);
    }
  });
});

describe(`copilot ${pinOf('copilot').version}: its rules for preToolUse guards, and ours, on the same hook file`, () => {
  describe('a Claude-style group, a command not found, and an audit hook', () => {
    let both: Both;
    beforeAll(async () => {
      both = await runBoth(GUARDS, GUARD_TURNS);
    }, 200_000);
    afterAll(() => removeBoth(both));

    it('Copilot ran the whole script', () => {
      expect(both.copilot.run.timedOut, explain(both)).toBe(false);
      expect(both.copilot.mock.remaining(), explain(both)).toBe(0);
      expect(both.copilot.seen.files['allowed.txt'], explain(both)).toBe(true);
      expect(both.ours.files['allowed.txt'], explain(both)).toBe(true);
    });

    it('a { matcher, hooks: [...] } group runs its hooks: its exit 2 denies the call', () => {
      expect(both.copilot.seen.files['group-denied.txt'], explain(both)).toBe(false);
      expect(both.ours.files['group-denied.txt'], explain(both)).toBe(false);
    });

    it('a guard whose command is not found (exit 127) denies the call', () => {
      expect(both.copilot.seen.files['not-found-denied.txt'], explain(both)).toBe(false);
      expect(both.ours.files['not-found-denied.txt'], explain(both)).toBe(false);
    });
  });

  describe('a powershell-only entry on Linux, before an audit hook', () => {
    let both: Both;
    beforeAll(async () => {
      both = await runBoth(POWERSHELL_ONLY, POWERSHELL_TURNS);
    }, 200_000);
    afterAll(() => removeBoth(both));

    it('Copilot ran the whole script', () => {
      expect(both.copilot.run.timedOut, explain(both)).toBe(false);
      expect(both.copilot.mock.remaining(), explain(both)).toBe(0);
    });

    it('denies the call, and the hooks after it do not run', () => {
      expect(both.copilot.seen.files['powershell-denied.txt'], explain(both)).toBe(false);
      expect(both.ours.files['powershell-denied.txt'], explain(both)).toBe(false);
      expect(both.copilot.seen.audited, explain(both)).toBe(0);
      expect(both.ours.audited, explain(both)).toBe(0);
    });
  });
});

/**
 * The fifth run: three files on preToolUse (written b, a, c), each logging its name; in a.json, after its log, a
 * guard that exits 2 and one that exits 1, each with a stderr the model must not see.
 */
const ORDER_FILES: Readonly<Record<string, object>> = {
  'b.json': { version: 1, hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo b >> order.log' }] } },
  'a.json': {
    version: 1,
    hooks: {
      preToolUse: [
        { bash: 'cat > /dev/null; echo a >> order.log' },
        { bash: 'if grep -q exit-two-guard; then echo RULE-STDERR-EXIT2 >&2; exit 2; fi' },
        { bash: 'if grep -q exit-one-guard; then echo RULE-STDERR-EXIT1 >&2; exit 1; fi' },
      ],
    },
  },
  'c.json': { version: 1, hooks: { preToolUse: [{ bash: 'cat > /dev/null; echo c >> order.log' }] } },
};
const ORDER_TURNS: readonly Turn[] = [{ shell: 'touch exit-two-guard.txt' }, { shell: 'touch exit-one-guard.txt' }, { text: 'done' }];

describe(`copilot ${pinOf('copilot').version}: several files on one event, and what the model is told of a failing guard`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun; told: string; order: string[] };
  let ours: { project: AgentProject; told: string; order: string[] };
  const orderIn = (dir: string): string[] => (existsSync(join(dir, 'order.log')) ? readFileSync(join(dir, 'order.log'), 'utf8').trim().split('\n') : []);
  const withFiles = (): AgentProject => {
    const project = makeProject([]);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
    for (const [name, config] of Object.entries(ORDER_FILES)) writeFileSync(join(project.dir, '.github', 'hooks', name), `${JSON.stringify(config, null, 2)}\n`);
    return project;
  };
  beforeAll(async () => {
    const project = withFiles();
    const mock = await startMockServer(copilotDriver.api(), ORDER_TURNS);
    const run = await copilotDriver.run(project, mock, 'Touch the files.', 90_000);
    copilot = { project, mock, run, told: mock.mainRequests().map((r) => bodyText(r.body)).join('\n'), order: orderIn(project.dir) };
    const mine = withFiles();
    const { model } = await runShellAgent({ dir: mine.dir, env: mine.env, tool: 'bash', ...shellScript(ORDER_TURNS), from: { copilot: true, hookmd: false }, prompt: 'Touch the files.', inDir: true });
    ours = { project: mine, told: model.requests.map((r) => JSON.stringify(r.messages)).join('\n'), order: orderIn(mine.dir) };
  }, 200_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string => `copilot: exit ${copilot.run.exitCode}, order ${JSON.stringify(copilot.order)}\n--- log\n${copilotDriver.log?.(copilot.project).slice(-4000)}\nours: order ${JSON.stringify(ours.order)}`;

  it('Copilot ran the whole script', () => {
    expect(copilot.run.timedOut, explain()).toBe(false);
    expect(copilot.mock.remaining(), explain()).toBe(0);
  });

  it('runs the files last name first (c, b, a), on every call', () => {
    expect(copilot.order, explain()).toEqual(['c', 'b', 'a', 'c', 'b', 'a']);
    expect(ours.order, explain()).toEqual(copilot.order);
  });

  it('tells the model "hook exited with code 2" for an exit 2, and that the hook errored for an exit 1 — not their stderr', () => {
    expect(copilot.told, explain()).toContain('hook exited with code 2');
    expect(copilot.told, explain()).toContain('(hook errored)');
    expect(ours.told, explain()).toContain('hook exited with code 2');
    expect(ours.told, explain()).toContain('hook errored');
    for (const told of [copilot.told, ours.told]) {
      expect(told, explain()).not.toContain('RULE-STDERR-EXIT2');
      expect(told, explain()).not.toContain('RULE-STDERR-EXIT1');
    }
  });
});
