/**
 * Gemini CLI's switches for its own hooks, shown by the real binary and by our agent side by side: the same
 * `.gemini/settings.json`, run once by Gemini CLI headless and once by an agent-hooks agent loading the same folder
 * (`withHooksFrom({ gemini: true })`), with the same script for the model. Each rule is a file the shell writes (or
 * does not): both runs must agree, and agree with the rule as written in docs/other-agents.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning } from '../../src/index.js';
import { geminiDriver, writeUserSettings } from './drivers/gemini.js';
import { SHELL_TOOL_NAME } from './mock/gemini.js';
import { makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

/** A BeforeTool guard named `name` that denies (exit 2) the commands holding `marker`. */
const guard = (name: string, marker: string) => ({ type: 'command', name, command: `if grep -q ${marker}; then echo DENIED-BY-${name} >&2; exit 2; fi` });

/** The settings of each run: the hooks, and Gemini's `hooksConfig` switches. */
const DISABLED_BY_NAME = {
  hooksConfig: { disabled: ['my-guard'] },
  hooks: { BeforeTool: [{ matcher: SHELL_TOOL_NAME, hooks: [guard('my-guard', 'my-denied'), guard('other-guard', 'other-denied')] }] },
};
const ALL_DISABLED = {
  hooksConfig: { enabled: false },
  hooks: { BeforeTool: [{ matcher: SHELL_TOOL_NAME, hooks: [guard('my-guard', 'my-denied')] }] },
};

const TURNS: readonly Turn[] = [{ shell: 'touch my-denied.txt' }, { shell: 'touch other-denied.txt' }, { text: 'done' }];
const FILES = ['my-denied.txt', 'other-denied.txt'];

type Files = Readonly<Record<string, boolean>>;
const filesIn = (dir: string): Files => Object.fromEntries(FILES.map((f) => [f, existsSync(join(dir, f))]));

function projectWith(settings: object): AgentProject {
  const project = makeProject([]);
  mkdirSync(join(project.dir, '.gemini'), { recursive: true });
  writeFileSync(join(project.dir, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return project;
}

/** The same project, run by our agent: the folder loaded as Gemini config, a shell tool of Gemini's name. */
async function runOurs(project: AgentProject): Promise<{ files: Files; warnings: AgentWarning[] }> {
  const model = new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: SHELL_TOOL_NAME, args: { command: t.shell } }] } : t.text)));
  const shell = defineTool({
    name: SHELL_TOOL_NAME,
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(shell)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, gemini: true, hookmd: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  await agent.run('Touch the files.');
  return { files: filesIn(project.dir), warnings };
}

interface Both {
  gemini: { project: AgentProject; mock: MockServer; run: AgentRun; files: Files };
  ours: { project: AgentProject; files: Files; warnings: AgentWarning[] };
}

async function runBoth(settings: object): Promise<Both> {
  const project = projectWith(settings);
  writeUserSettings(project);
  const mock = await startMockServer(geminiDriver.api(), TURNS);
  const run = await geminiDriver.run(project, mock, 'Touch the files.', 90_000);
  const mine = projectWith(settings);
  return { gemini: { project, mock, run, files: filesIn(project.dir) }, ours: { ...(await runOurs(mine)), project: mine } };
}

async function removeBoth(both: Both | undefined): Promise<void> {
  await both?.gemini.mock.close();
  both?.gemini.project.remove();
  both?.ours.project.remove();
}

const explain = (b: Both): string =>
  `gemini: exit ${b.gemini.run.exitCode} after ${Math.round(b.gemini.run.durationMs)} ms, ${JSON.stringify(b.gemini.files)}\n--- stderr\n${b.gemini.run.stderr.slice(-3000)}\n--- stdout\n${b.gemini.run.stdout.slice(-3000)}\nours: ${JSON.stringify(b.ours.files)}, warnings ${JSON.stringify(b.ours.warnings.map((w) => w.message))}`;

describe(`gemini ${pinOf('gemini').version}: hooksConfig switches hooks off, there and here`, () => {
  describe('hooksConfig.disabled names a hook', () => {
    let both: Both;
    beforeAll(async () => {
      both = await runBoth(DISABLED_BY_NAME);
    }, 200_000);
    afterAll(() => removeBoth(both));

    it('Gemini CLI ran the whole script', () => {
      expect(both.gemini.run.timedOut, explain(both)).toBe(false);
      expect(both.gemini.mock.remaining(), explain(both)).toBe(0);
    });

    it('the named hook does not run; the others do', () => {
      expect(both.gemini.files['my-denied.txt'], explain(both)).toBe(true);
      expect(both.ours.files['my-denied.txt'], explain(both)).toBe(true);
      expect(both.gemini.files['other-denied.txt'], explain(both)).toBe(false);
      expect(both.ours.files['other-denied.txt'], explain(both)).toBe(false);
    });

    it('here, the user is told which hook a settings file switched off', () => {
      expect(both.ours.warnings.map((w) => w.message).join('\n'), explain(both)).toMatch(/my-guard[\s\S]*hooksConfig\.disabled/);
    });
  });

  describe('hooksConfig.enabled is false', () => {
    let both: Both;
    beforeAll(async () => {
      both = await runBoth(ALL_DISABLED);
    }, 200_000);
    afterAll(() => removeBoth(both));

    it('Gemini CLI ran the whole script', () => {
      expect(both.gemini.run.timedOut, explain(both)).toBe(false);
      expect(both.gemini.mock.remaining(), explain(both)).toBe(0);
    });

    it('no hook runs', () => {
      expect(both.gemini.files['my-denied.txt'], explain(both)).toBe(true);
      expect(both.ours.files['my-denied.txt'], explain(both)).toBe(true);
    });

    it('here, the user is told the settings file switched its hooks off', () => {
      expect(both.ours.warnings.map((w) => w.message).join('\n'), explain(both)).toMatch(/hooksConfig\.enabled/);
    });
  });
});

describe(`gemini ${pinOf('gemini').version}: a BeforeTool decision "ask" headless, there and here`, () => {
  const ASK_SETTINGS = {
    hooks: {
      BeforeTool: [
        {
          matcher: SHELL_TOOL_NAME,
          hooks: [{ type: 'command', name: 'asker', command: `if grep -q ask-me; then echo '{"decision":"ask","reason":"RULE-ASK","systemMessage":"RULE-ASK-MSG"}'; fi` }],
        },
      ],
    },
  };
  const ASK_TURNS: readonly Turn[] = [{ shell: 'touch first.txt' }, { shell: 'touch ask-me.txt' }, { shell: 'touch after.txt' }, { text: 'done' }];
  const present = (dir: string) => ['first.txt', 'ask-me.txt', 'after.txt'].filter((f) => existsSync(join(dir, f)));
  let gemini: { project: AgentProject; mock: MockServer; run: AgentRun; files: string[] };
  let ours: { project: AgentProject; files: string[]; requests: number; status: string; reason: string | undefined };
  beforeAll(async () => {
    const project = projectWith(ASK_SETTINGS);
    writeUserSettings(project);
    const mock = await startMockServer(geminiDriver.api(), ASK_TURNS);
    const run = await geminiDriver.run(project, mock, 'Touch the files.', 90_000);
    gemini = { project, mock, run, files: present(project.dir) };
    const mine = projectWith(ASK_SETTINGS);
    const model = new ScriptedModel(ASK_TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: SHELL_TOOL_NAME, args: { command: t.shell } }] } : t.text)));
    const shell = defineTool({
      name: SHELL_TOOL_NAME,
      description: 'Runs a shell command.',
      input: z.object({ command: z.string() }),
      execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: mine.dir, env: mine.env, encoding: 'utf8' }),
    });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(shell)
      .withHooksFrom({ projectDir: mine.dir, trust: 'all', homeDir: false, userDir: false, gemini: true, hookmd: false })
      .build();
    const result = await agent.run('Touch the files.');
    ours = { project: mine, files: present(mine.dir), requests: model.requests.length, status: result.status, reason: result.reason };
  }, 200_000);
  afterAll(async () => {
    await gemini?.mock.close();
    gemini?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string =>
    `gemini: exit ${gemini.run.exitCode}, files ${JSON.stringify(gemini.files)}, ${gemini.mock.remaining()} turns left\n--- stderr\n${gemini.run.stderr.slice(-2000)}\nours: ${JSON.stringify({ ...ours, project: undefined })}`;

  it('the run ends at the call: the tool is not run, and the model is not called again', () => {
    expect(gemini.run.timedOut, explain()).toBe(false);
    expect(gemini.files, explain()).toEqual(['first.txt']);
    expect(gemini.mock.remaining(), explain()).toBe(2);
    expect(ours.files, explain()).toEqual(['first.txt']);
    expect(ours.requests, explain()).toBe(2);
    expect(ours.status, explain()).toBe('stopped');
  });

  it('the user is shown the hook’s systemMessage', () => {
    expect(gemini.run.stderr, explain()).toContain('RULE-ASK-MSG');
    expect(ours.reason, explain()).toContain('RULE-ASK-MSG');
  });
});

describe(`gemini ${pinOf('gemini').version}: when PreCompress fires, there and here`, () => {
  const log = (event: string) => ({ type: 'command', name: `log-${event}`, command: `cat > /dev/null; echo ${event} >> events.log` });
  const SETTINGS = { hooks: { PreCompress: [{ hooks: [log('PreCompress')] }], BeforeModel: [{ hooks: [log('BeforeModel')] }] } };
  const COMPRESS_TURNS: readonly Turn[] = [{ shell: 'touch one.txt' }, { shell: 'touch two.txt' }, { text: 'done' }];
  const eventsIn = (dir: string): string[] => (existsSync(join(dir, 'events.log')) ? readFileSync(join(dir, 'events.log'), 'utf8').trim().split('\n') : []);
  let gemini: { project: AgentProject; mock: MockServer; run: AgentRun; events: string[] };
  let ours: { project: AgentProject; events: string[] };
  beforeAll(async () => {
    const project = projectWith(SETTINGS);
    writeUserSettings(project);
    const mock = await startMockServer(geminiDriver.api(), COMPRESS_TURNS);
    const run = await geminiDriver.run(project, mock, 'Touch the files.', 90_000);
    gemini = { project, mock, run, events: eventsIn(project.dir) };
    const mine = projectWith(SETTINGS);
    const model = new ScriptedModel(COMPRESS_TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: SHELL_TOOL_NAME, args: { command: t.shell } }] } : t.text)));
    const shell = defineTool({
      name: SHELL_TOOL_NAME,
      description: 'Runs a shell command.',
      input: z.object({ command: z.string() }),
      execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: mine.dir, env: mine.env, encoding: 'utf8' }),
    });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(shell)
      .withHooksFrom({ projectDir: mine.dir, trust: 'all', homeDir: false, userDir: false, gemini: true, hookmd: false })
      .build();
    const previous = process.cwd();
    process.chdir(mine.dir);
    try {
      await agent.run('Touch the files.');
    } finally {
      process.chdir(previous);
    }
    ours = { project: mine, events: eventsIn(mine.dir) };
  }, 200_000);
  afterAll(async () => {
    await gemini?.mock.close();
    gemini?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string => `gemini: exit ${gemini.run.exitCode}, ${JSON.stringify(gemini.events)}\n--- stderr\n${gemini.run.stderr.slice(-2000)}\nours: ${JSON.stringify(ours.events)}`;

  it('Gemini CLI ran the whole script', () => {
    expect(gemini.run.timedOut, explain()).toBe(false);
    expect(gemini.mock.remaining(), explain()).toBe(0);
  });

  it('fires before every model call, before BeforeModel, though nothing is compressed', () => {
    expect(gemini.events, explain()).toEqual(['PreCompress', 'BeforeModel', 'PreCompress', 'BeforeModel', 'PreCompress', 'BeforeModel']);
    expect(ours.events, explain()).toEqual(gemini.events);
  });
});

describe(`gemini ${pinOf('gemini').version}: two BeforeTool hooks of one event, one rewriting the command; there and here`, () => {
  // The first rewrites the command; the second writes down the command it was given.
  const REWRITE = { type: 'command', name: 'rewrite', command: `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"touch rewritten.txt"}}}'` };
  // The braced form: Gemini CLI replaces a plain $GEMINI_PROJECT_DIR in the text with the path already quoted.
  const RECORD = { type: 'command', name: 'record', command: 'cat > "${GEMINI_PROJECT_DIR}"/seen-by-record.json' };
  const settingsOf = (sequential: boolean) => ({ hooks: { BeforeTool: [{ matcher: SHELL_TOOL_NAME, ...(sequential ? { sequential: true } : {}), hooks: [REWRITE, RECORD] }] } });
  const RUN_TURNS: readonly Turn[] = [{ shell: 'touch original.txt' }, { text: 'done' }];
  type Seen = { command: unknown; ran: string[] };
  const seenIn = (dir: string): Seen => {
    const file = join(dir, 'seen-by-record.json');
    const payload = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { tool_input?: { command?: unknown } }) : undefined;
    return { command: payload?.tool_input?.command, ran: ['original.txt', 'rewritten.txt'].filter((f) => existsSync(join(dir, f))) };
  };
  async function gemini(sequential: boolean): Promise<Seen & { project: AgentProject; mock: MockServer; run: AgentRun }> {
    const project = projectWith(settingsOf(sequential));
    writeUserSettings(project);
    const mock = await startMockServer(geminiDriver.api(), RUN_TURNS);
    const run = await geminiDriver.run(project, mock, 'Touch the file.', 90_000);
    return { ...seenIn(project.dir), project, mock, run };
  }
  async function ours(sequential: boolean, parallel: boolean): Promise<Seen> {
    const project = projectWith(settingsOf(sequential));
    try {
      const model = new ScriptedModel([{ toolCalls: [{ name: SHELL_TOOL_NAME, args: { command: 'touch original.txt' } }] }, 'done']);
      const shell = defineTool({ name: SHELL_TOOL_NAME, input: z.object({ command: z.string() }), execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }) });
      const agent = AgentBuilder.new()
        .withModel(model)
        .withTools(shell)
        .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, gemini: true, hookmd: false, parallel })
        .build();
      await agent.run('Touch the file.');
      return seenIn(project.dir);
    } finally {
      project.remove();
    }
  }
  const runs: { sideBySide?: Awaited<ReturnType<typeof gemini>>; sequential?: Awaited<ReturnType<typeof gemini>> } = {};
  beforeAll(async () => {
    runs.sideBySide = await gemini(false);
    runs.sequential = await gemini(true);
  }, 200_000);
  afterAll(async () => {
    for (const run of [runs.sideBySide, runs.sequential]) {
      await run?.mock.close();
      run?.project.remove();
    }
  });

  it('Gemini CLI runs them side by side: the second is given the command as the model wrote it; the rewrite runs', async () => {
    const g = runs.sideBySide!;
    expect(g.command, `exit ${g.run.exitCode}\n${g.run.stderr.slice(-2000)}`).toBe('touch original.txt');
    expect(g.ran).toEqual(['rewritten.txt']);
    // Here, with parallel: true, the same; without it, in order, the second is given the rewrite.
    expect(await ours(false, true)).toEqual({ command: 'touch original.txt', ran: ['rewritten.txt'] });
    expect(await ours(false, false)).toEqual({ command: 'touch rewritten.txt', ran: ['rewritten.txt'] });
  });

  it('with sequential: true, Gemini CLI runs them in order: the second is given the rewrite, as here with or without parallel', async () => {
    const g = runs.sequential!;
    expect(g.command, `exit ${g.run.exitCode}\n${g.run.stderr.slice(-2000)}`).toBe('touch rewritten.txt');
    expect(g.ran).toEqual(['rewritten.txt']);
    expect(await ours(true, true)).toEqual({ command: 'touch rewritten.txt', ran: ['rewritten.txt'] });
  });
});
