/**
 * Codex CLI's rules for the answers of its own `.codex/hooks.json` hooks, shown by the real binary and by our agent
 * side by side: the same hooks file, run once by Codex headless and once by an agent-hooks agent loading the same
 * folder (`withHooksFrom({ codex: true })`), with the same script for the model. Each rule is a file the shell writes
 * (or does not), a marker the model sees, and an audit hook's log: both runs must agree, and agree with the rule as
 * written in docs/other-agents.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning } from '../../src/index.js';
import { codexDriver, writeConfig } from './drivers/codex.js';
import { bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

/** A PreToolUse hook that answers `json` on the commands holding `marker`, and nothing on the others. */
const answering = (marker: string, json: object) => ({ type: 'command', command: `if grep -q ${marker}; then echo '${JSON.stringify(json)}'; fi`, timeout: 30 });

const HOOKS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          // A deny whose hookEventName names another event.
          answering('wrong-event-denied', { hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny', permissionDecisionReason: 'RULE-WRONG-EVENT' } }),
          // Another event's name, even one without permissions (Stop), is taken; a name Codex does not know is refused.
          answering('stop-name', { hookSpecificOutput: { hookEventName: 'Stop', permissionDecision: 'deny', permissionDecisionReason: 'RULE-STOP-NAME' } }),
          answering('bogus-name', { hookSpecificOutput: { hookEventName: 'NotAnEvent', permissionDecision: 'deny', permissionDecisionReason: 'RULE-BOGUS-NAME' } }),
          answering('denied-then-audited', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'RULE-DENY' } }),
          // An audit hook after the guards: it logs every call it sees.
          { type: 'command', command: 'cat > /dev/null; echo seen >> audit.log', timeout: 30 },
        ],
      },
    ],
  },
};

const TURNS: readonly Turn[] = [{ shell: 'touch wrong-event-denied.txt' }, { shell: 'touch denied-then-audited.txt' }, { shell: 'touch allowed.txt' }, { shell: 'touch stop-name.txt' }, { shell: 'touch bogus-name.txt' }, { text: 'done' }];
const FILES = ['stop-name.txt', 'bogus-name.txt', 'wrong-event-denied.txt', 'denied-then-audited.txt', 'allowed.txt'];

interface Seen {
  readonly files: Readonly<Record<string, boolean>>;
  readonly audited: number;
  /** What the model was told after its first request. */
  readonly told: string;
}

const filesIn = (dir: string) => Object.fromEntries(FILES.map((f) => [f, existsSync(join(dir, f))]));
const auditedIn = (dir: string) => (existsSync(join(dir, 'audit.log')) ? readFileSync(join(dir, 'audit.log'), 'utf8').trim().split('\n').filter(Boolean).length : 0);

function projectWithHooks(): AgentProject {
  const project = makeProject([]);
  mkdirSync(join(project.dir, '.codex'), { recursive: true });
  writeFileSync(join(project.dir, '.codex', 'hooks.json'), `${JSON.stringify(HOOKS, null, 2)}\n`);
  return project;
}

/**
 * `turns` run by our agent in `project`: its folder loaded as Codex config (the user's `~/.codex` too with
 * `homeDir`), a `Bash` tool (the name Codex's hooks see). The script model, with every request, and the warnings.
 */
async function ourCodexRun(project: AgentProject, turns: readonly Turn[], homeDir: string | false = false): Promise<{ model: ScriptedModel; warnings: AgentWarning[] }> {
  const model = new ScriptedModel(turns.map((t) => ('shell' in t ? { toolCalls: [{ name: 'Bash', args: { command: t.shell } }] } : t.text)));
  const bash = defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir, userDir: false, codex: true, hookmd: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  const previous = process.cwd();
  process.chdir(project.dir);
  try {
    await agent.run('Touch the files.');
  } finally {
    process.chdir(previous);
  }
  return { model, warnings };
}

/** The same project, run by our agent (see {@link ourCodexRun}). */
async function runOurs(project: AgentProject): Promise<Seen & { warnings: AgentWarning[] }> {
  const { model, warnings } = await ourCodexRun(project, TURNS);
  return { files: filesIn(project.dir), audited: auditedIn(project.dir), told: model.requests.slice(1).map((r) => JSON.stringify(r.messages)).join('\n'), warnings };
}

describe(`codex ${pinOf('codex').version}: how it reads its PreToolUse hooks' answers, and how we do`, () => {
  let codex: { project: AgentProject; mock: MockServer; run: AgentRun; seen: Seen };
  let ours: Seen & { project: AgentProject; warnings: AgentWarning[] };

  beforeAll(async () => {
    const project = projectWithHooks();
    const mock = await startMockServer(codexDriver.api(), TURNS);
    writeConfig(project, mock);
    const run = await codexDriver.run(project, mock, 'Touch the files.', 90_000);
    codex = { project, mock, run, seen: { files: filesIn(project.dir), audited: auditedIn(project.dir), told: mock.mainRequests().slice(1).map((r) => bodyText(r.body)).join('\n') } };
    const mine = projectWithHooks();
    ours = { ...(await runOurs(mine)), project: mine };
  }, 200_000);

  afterAll(async () => {
    await codex?.mock.close();
    codex?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string =>
    `codex: exit ${codex.run.exitCode} after ${Math.round(codex.run.durationMs)} ms, ${JSON.stringify({ files: codex.seen.files, audited: codex.seen.audited })}\n--- stderr\n${codex.run.stderr.slice(-3000)}\n--- stdout\n${codex.run.stdout.slice(-5000)}\nours: ${JSON.stringify({ files: ours.files, audited: ours.audited })}, warnings ${JSON.stringify(ours.warnings.map((w) => w.message))}`;

  it('Codex ran the whole script', () => {
    expect(codex.run.timedOut, explain()).toBe(false);
    expect(codex.mock.remaining(), explain()).toBe(0);
    expect(codex.seen.files['allowed.txt'], explain()).toBe(true);
    expect(ours.files['allowed.txt'], explain()).toBe(true);
  });

  it('a deny whose hookEventName names another event still denies, and the model gets its reason', () => {
    expect(codex.seen.files['wrong-event-denied.txt'], explain()).toBe(false);
    expect(ours.files['wrong-event-denied.txt'], explain()).toBe(false);
    expect(codex.seen.told, explain()).toContain('RULE-WRONG-EVENT');
    expect(ours.told, explain()).toContain('RULE-WRONG-EVENT');
  });

  it('any of Codex’s event names will do (Stop too); a name it does not know makes the answer a failure, and the call runs', () => {
    expect(codex.seen.files['stop-name.txt'], explain()).toBe(false);
    expect(ours.files['stop-name.txt'], explain()).toBe(false);
    expect(codex.seen.files['bogus-name.txt'], explain()).toBe(true);
    expect(ours.files['bogus-name.txt'], explain()).toBe(true);
  });

  it('every hook of the call runs, a deny notwithstanding: the audit hook sees the denied calls too', () => {
    expect(codex.seen.files['denied-then-audited.txt'], explain()).toBe(false);
    expect(ours.files['denied-then-audited.txt'], explain()).toBe(false);
    expect(codex.seen.audited, explain()).toBe(5);
    expect(ours.audited, explain()).toBe(5);
  });
});

describe(`codex ${pinOf('codex').version}: a Stop hook that always blocks`, () => {
  const ALWAYS_BLOCKS = { hooks: { Stop: [{ hooks: [{ type: 'command', command: `cat > /dev/null; echo stop >> stops.log; echo '{"decision":"block","reason":"keep going"}'` }] }] } };
  const stopsIn = (dir: string): number => (existsSync(join(dir, 'stops.log')) ? readFileSync(join(dir, 'stops.log'), 'utf8').trim().split('\n').length : 0);
  const withStopHook = (): AgentProject => {
    const project = makeProject([]);
    mkdirSync(join(project.dir, '.codex'), { recursive: true });
    writeFileSync(join(project.dir, '.codex', 'hooks.json'), `${JSON.stringify(ALWAYS_BLOCKS, null, 2)}\n`);
    return project;
  };
  let codex: { project: AgentProject; mock: MockServer; run: AgentRun; stops: number };
  let ours: { project: AgentProject; stops: number; status: string; warnings: AgentWarning[] };
  beforeAll(async () => {
    const project = withStopHook();
    const mock = await startMockServer(codexDriver.api(), Array.from({ length: 200 }, (_, i) => ({ text: `answer ${i}` })));
    writeConfig(project, mock);
    // Bounded here: Codex would go on for as long as it is let.
    const run = await codexDriver.run(project, mock, 'Say hi.', 30_000);
    codex = { project, mock, run, stops: stopsIn(project.dir) };
    const mine = withStopHook();
    const model = new ScriptedModel(Array.from({ length: 200 }, (_, i) => `answer ${i}`));
    const agent = AgentBuilder.new().withModel(model).withHooksFrom({ projectDir: mine.dir, trust: 'all', homeDir: false, userDir: false, codex: true, hookmd: false }).build();
    const warnings: AgentWarning[] = [];
    agent.events.on('warning', (w) => warnings.push(w));
    const previous = process.cwd();
    process.chdir(mine.dir);
    try {
      const result = await agent.run('Say hi.');
      ours = { project: mine, stops: stopsIn(mine.dir), status: result.status, warnings };
    } finally {
      process.chdir(previous);
    }
  }, 200_000);
  afterAll(async () => {
    await codex?.mock.close();
    codex?.project.remove();
    ours?.project.remove();
  });

  it('keeps Codex working with no limit of its own; here the run ends after the stop-loop limit, with a warning', () => {
    const explain = `codex: exit ${codex.run.exitCode}, timed out ${codex.run.timedOut}, ${codex.stops} stops; ours: ${JSON.stringify({ ...ours, project: undefined })}`;
    // Still running when it was cut off, far past any limit of ours.
    expect(codex.run.timedOut, explain).toBe(true);
    expect(codex.stops, explain).toBeGreaterThan(20);
    // Ours: the default stop-loop limit of 8 continuations, then the run ends anyway.
    expect(ours.stops, explain).toBe(9);
    expect(ours.warnings.map((w) => w.message).join('\n'), explain).toMatch(/Stop/);
  });
});

describe(`codex ${pinOf('codex').version}: timeoutSec, PostToolUse's continue: false and a PreModelRequest answer, there and here`, () => {
  const LATER: object = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            // Four seconds, past the timeoutSec of 1 that Codex does not read: the deny stands.
            { type: 'command', command: 'if grep -q slow-sec; then sleep 4; echo RULE-SLOW-SEC >&2; exit 2; fi; exit 0', timeoutSec: 1 },
            // The same under `timeout`, which Codex reads: the hook is ended at 1 s, and the call runs.
            { type: 'command', command: 'if grep -q slow-timeout; then sleep 4; echo RULE-SLOW-TIMEOUT >&2; exit 2; fi; exit 0', timeout: 1 },
          ],
        },
      ],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `if grep -q post-stop; then echo '{"continue": false, "stopReason": "RULE-POST-STOP"}'; fi`, timeout: 30 }] }],
      PreModelRequest: [{ hooks: [{ type: 'command', command: `cat > /dev/null; echo '{"decision":"block","reason":"RULE-PMR-BLOCK"}'`, timeout: 30 }] }],
    },
  };
  const LATER_TURNS: readonly Turn[] = [{ shell: 'touch slow-sec.txt' }, { shell: 'touch slow-timeout.txt' }, { shell: 'echo post-stop-output' }, { shell: 'touch after.txt' }, { text: 'done' }];
  const LATER_FILES = ['slow-sec.txt', 'slow-timeout.txt', 'after.txt'];
  const project = (): AgentProject => {
    const p = makeProject([]);
    mkdirSync(join(p.dir, '.codex'), { recursive: true });
    writeFileSync(join(p.dir, '.codex', 'hooks.json'), `${JSON.stringify(LATER, null, 2)}\n`);
    return p;
  };
  type Ran = { files: Record<string, boolean>; told: string; requests: number };
  let codex: Ran & { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: Ran & { project: AgentProject; warnings: AgentWarning[] };
  beforeAll(async () => {
    const p = project();
    const mock = await startMockServer(codexDriver.api(), LATER_TURNS);
    writeConfig(p, mock);
    const run = await codexDriver.run(p, mock, 'Touch the files.', 90_000);
    const files = Object.fromEntries(LATER_FILES.map((f) => [f, existsSync(join(p.dir, f))]));
    codex = { project: p, mock, run, files, told: mock.mainRequests().map((r) => bodyText(r.body)).join('\n'), requests: mock.mainRequests().length };

    const mine = project();
    const { model, warnings } = await ourCodexRun(mine, LATER_TURNS);
    ours = { project: mine, warnings, files: Object.fromEntries(LATER_FILES.map((f) => [f, existsSync(join(mine.dir, f))])), told: model.requests.map((r) => JSON.stringify(r.messages)).join('\n'), requests: model.requests.length };
  }, 200_000);
  afterAll(async () => {
    await codex?.mock.close();
    codex?.project.remove();
    ours?.project.remove();
  });
  const explain = () => `codex: exit ${codex.run.exitCode}, ${JSON.stringify(codex.files)}\n${codex.run.stderr.slice(-2000)}\nours: ${JSON.stringify(ours.files)}, ${JSON.stringify(ours.warnings.map((w) => w.message))}`;

  it('timeoutSec is not read: the slow deny stands; under timeout the hook is ended and the call runs', () => {
    for (const side of [codex, ours]) {
      expect(side.files['slow-sec.txt'], explain()).toBe(false);
      expect(side.told, explain()).toContain('RULE-SLOW-SEC');
      expect(side.files['slow-timeout.txt'], explain()).toBe(true);
      expect(side.told).not.toContain('RULE-SLOW-TIMEOUT');
    }
    // Here the user is told that timeoutSec means nothing to Codex.
    expect(ours.warnings.map((w) => w.message).join('\n')).toContain('timeoutSec');
  });

  it('PostToolUse continue: false does not end the run: the model gets its reason, and goes on', () => {
    for (const side of [codex, ours]) {
      expect(side.told, explain()).toContain('RULE-POST-STOP');
      expect(side.files['after.txt'], explain()).toBe(true);
    }
  });

  it('a PreModelRequest answer is not read: its block reaches no model and stops nothing', () => {
    expect(codex.requests, explain()).toBe(LATER_TURNS.length);
    expect(ours.requests).toBe(LATER_TURNS.length);
    for (const side of [codex, ours]) expect(side.told).not.toContain('RULE-PMR-BLOCK');
  });
});

describe(`codex ${pinOf('codex').version}: a deny in the project's file, an audit hook in the user's`, () => {
  const PROJECT_HOOKS = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `if grep -q denied; then echo RULE-PROJECT-DENY >&2; exit 2; fi`, timeout: 30 }] }] } };
  const USER_HOOKS = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null; echo seen >> audit.log', timeout: 30 }] }] } };
  const CROSS_TURNS: readonly Turn[] = [{ shell: 'touch denied.txt' }, { shell: 'touch allowed.txt' }, { text: 'done' }];
  const setUp = (): AgentProject => {
    const p = makeProject([]);
    mkdirSync(join(p.dir, '.codex'), { recursive: true });
    mkdirSync(join(p.home, '.codex'), { recursive: true });
    writeFileSync(join(p.dir, '.codex', 'hooks.json'), JSON.stringify(PROJECT_HOOKS));
    writeFileSync(join(p.home, '.codex', 'hooks.json'), JSON.stringify(USER_HOOKS));
    return p;
  };
  type Ran = { denied: boolean; allowed: boolean; audited: number };
  const ranIn = (dir: string): Ran => ({ denied: existsSync(join(dir, 'denied.txt')), allowed: existsSync(join(dir, 'allowed.txt')), audited: auditedIn(dir) });
  let codex: Ran & { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: Ran & { project: AgentProject };
  beforeAll(async () => {
    const p = setUp();
    const mock = await startMockServer(codexDriver.api(), CROSS_TURNS);
    writeConfig(p, mock);
    const run = await codexDriver.run(p, mock, 'Touch the files.', 90_000);
    codex = { ...ranIn(p.dir), project: p, mock, run };

    const mine = setUp();
    await ourCodexRun(mine, CROSS_TURNS, mine.home);
    ours = { ...ranIn(mine.dir), project: mine };
  }, 200_000);
  afterAll(async () => {
    await codex?.mock.close();
    codex?.project.remove();
    ours?.project.remove();
  });

  it('the user’s audit hook sees the call the project’s hook denies, there and here', () => {
    const why = `codex: exit ${codex.run.exitCode}\n${codex.run.stderr.slice(-2000)}`;
    expect({ denied: codex.denied, allowed: codex.allowed, audited: codex.audited }, why).toEqual({ denied: false, allowed: true, audited: 2 });
    expect({ denied: ours.denied, allowed: ours.allowed, audited: ours.audited }).toEqual({ denied: false, allowed: true, audited: 2 });
  });
});
