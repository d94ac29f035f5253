/**
 * The rows of the event table a headless Claude Code 2.1.332 can be made to fire, checked with the binary: PreCompact
 * (`/compact` as the prompt: with nothing to compact yet, it fires and no PostCompact follows), StopFailure and
 * MessageDisplay (the model answers HTTP 400), and SubagentStart's keys (test/agents/claude-rules-subagent.test.ts
 * runs the subagent). The payloads are the fixtures of test/agents/fixtures/claude/2.1.332/; ours are held to their
 * keys.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompactHookContext, SubagentHookContext, type AnyHookContext } from '../../src/index.js';
import { claudeDialect } from '../../src/dialects/claude.js';
import { installBridge, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { claudeDriver } from './drivers/claude.js';
import { runClaudeScenario, scenarioProject, type ClaudeScenarioRun } from './support/claude-scenario.js';
import { sendJson, startMockServer, type MockApi, type MockServer } from './support/mock-server.js';

const VERSION = pinOf('claude').version;
const FIXTURES = join(import.meta.dirname, 'fixtures', 'claude', VERSION);

const EVENTS = ['SessionStart', 'PreCompact', 'PostCompact', 'StopFailure', 'MessageDisplay', 'Notification', 'SessionEnd'];
// SIGTERM ignored: Claude Code ends a StopFailure hook's processes with it as it exits, and SIGKILL only 1.5 s later.
const RECORD = { type: 'command', command: `trap '' TERM; cat >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl`, timeout: 30 };
const SETTINGS = { hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [RECORD] }]])) };

type Payload = Record<string, unknown>;
/** The payloads recorded, the session's start and end left out. */
const payloadsOf = (run: ClaudeScenarioRun): Payload[] =>
  (run.file('payloads.jsonl') ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Payload)
    .filter((p) => p.hook_event_name !== 'SessionStart' && p.hook_event_name !== 'SessionEnd');
const fixture = (name: string): Payload => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Payload;

/** Claude Code's own keys that an agent here has nothing for (see docs/other-agents.md). */
const CLAUDE_ONLY = new Set(['prompt_id', 'effort']);
const keysOf = (payload: object): string[] => Object.keys(payload).filter((k) => !CLAUDE_ONLY.has(k));
const ours = (ctx: AnyHookContext): Payload => claudeDialect.payload(ctx, { eventName: ctx.event, workDir: process.cwd(), hookName: 'h' }) as Payload;

/** The Messages API refusing every request of the main loop with HTTP 400. */
function refusingApi(): MockApi {
  return {
    name: 'Anthropic Messages, refusing',
    handle(_request, res) {
      sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'RULE-BAD-REQUEST' } });
      return { main: false };
    },
  };
}

describe(`claude ${VERSION}: PreCompact, StopFailure and MessageDisplay headless; ours`, () => {
  let compact: ClaudeScenarioRun;
  let failed: ClaudeScenarioRun;
  beforeAll(async () => {
    compact = await runClaudeScenario({ settings: SETTINGS, turns: [], prompt: '/compact' });
    failed = await runClaudeScenario({ settings: SETTINGS, turns: [] }, 120_000, refusingApi());
  }, 240_000);
  afterAll(async () => {
    for (const run of [compact, failed]) {
      await run?.mock.close();
      run?.project.remove();
    }
  });

  it('/compact fires PreCompact (trigger manual, custom_instructions null, no permission_mode) and, with nothing to compact, no PostCompact', () => {
    const payloads = payloadsOf(compact);
    expect(payloads.map((p) => p.hook_event_name), compact.explain()).toEqual(['PreCompact']);
    expect(compact.run.stdout).toContain('Not enough messages to compact.');
    const [pre] = payloads;
    expect(keysOf(pre!)).toEqual(keysOf(fixture('PreCompact')));
    expect(pre).toMatchObject({ trigger: 'manual', custom_instructions: null });
    // Ours: the same keys, and null where no instructions were given.
    const mine = ours(CompactHookContext.before({ trigger: 'manual', messagesBefore: [] }));
    expect(keysOf(mine)).toEqual(keysOf(pre!));
    expect(mine).toMatchObject({ trigger: 'manual', custom_instructions: null });
  });

  it('a model error fires MessageDisplay (the error as shown) and StopFailure; no Notification', () => {
    const payloads = payloadsOf(failed);
    expect(payloads.map((p) => p.hook_event_name), failed.explain()).toEqual(['MessageDisplay', 'StopFailure']);
    const [display, failure] = payloads;
    expect(display).toMatchObject({ index: 0, final: true, delta: 'API Error: 400 RULE-BAD-REQUEST' });
    expect(keysOf(display!)).toEqual(keysOf(fixture('MessageDisplay')));
    expect(failure).toMatchObject({ error: 'unknown', last_assistant_message: 'API Error: 400 RULE-BAD-REQUEST' });
    expect(keysOf(failure!)).toEqual(keysOf(fixture('StopFailure')));
  });

  it('SubagentStart: ours has the recorded keys (no permission_mode)', () => {
    const mine = ours(SubagentHookContext.onStart({ name: 'worker', type: 'general-purpose', task: 't' }));
    expect(keysOf(mine)).toEqual(keysOf(fixture('SubagentStart')));
  });
});

describe(`claude ${VERSION}: a StopFailure HOOK.md hook through the bridge, which Claude Code does not wait for`, () => {
  // A hook that starts a runtime, and takes a second more: far longer than Claude Code stays once it fired StopFailure.
  const SLOW_RECORD = `#!/usr/bin/env node
const fs = require('node:fs');
const input = fs.readFileSync(0, 'utf8');
setTimeout(() => fs.writeFileSync(require('node:path').join(process.env.AGENT_HOOKS_PROJECT_DIR, 'failure.json'), input), 1000);
`;
  const scenario = { hookmd: { 'record-failure': { trigger: 'StopFailure', run: SLOW_RECORD } }, turns: [] };
  type Run = { project: AgentProject; mock: MockServer; line: string; exited: AgentRun };
  /** The line --install writes for StopFailure: the shell kept, the bridge in the background of a subshell, on the payload. */
  const DETACHED = /^trap '' TERM HUP INT; exec 3<&0; \( (NODE_OPTIONS= NODE_COMPILE_CACHE= )(?:\S*setsid )?(.* bridge --from claude) --detached <&3 3<&- & \)$/;
  let detached: Run;
  let inGroup: Run;

  /** The scenario run by Claude Code with the bridge installed for StopFailure, its line first given to `line`. */
  async function runWith(line: (installed: string) => string): Promise<Run> {
    const project = scenarioProject(scenario);
    const mock = await startMockServer(refusingApi(), []);
    installBridge(project, 'claude', ['StopFailure'], 30);
    const file = join(project.dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: { StopFailure: { hooks: { command: string }[] }[] } };
    const entry = settings.hooks.StopFailure[0]!.hooks[0]!;
    entry.command = line(entry.command);
    writeFileSync(file, JSON.stringify(settings));
    const exited = await claudeDriver.run(project, mock, 'Do as you are told.', 90_000);
    return { project, mock, line: entry.command, exited };
  }
  /** What the hook wrote, waited for a while after Claude Code exited; `undefined` when it wrote nothing. */
  async function recorded(run: Run): Promise<Payload | undefined> {
    const file = join(run.project.dir, 'failure.json');
    for (let waited = 0; waited < 10_000; waited += 250) {
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Payload;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return undefined;
  }
  beforeAll(async () => {
    detached = await runWith((installed) => installed);
    // The line as written before: the bridge among the processes Claude Code ends as it exits.
    inGroup = await runWith((installed) => installed.replace(DETACHED, '$1$2'));
  }, 240_000);
  afterAll(async () => {
    for (const run of [detached, inGroup]) {
      await run?.mock.close();
      run?.project.remove();
    }
  });

  // Claude Code signals the hook's group less than 50 ms after starting it, as it exits: a line whose shell has not
  // yet run its `trap` by then (a loaded machine) is ended before the bridge starts, and no line can prevent that
  // (docs/bridge.md; under six busy loops on two cores, 1 run of 62 lost its hook so). So the detached line gets up to
  // three runs, each a new project; the line as written before, which the next test runs, must never record.
  it('the line --install writes starts the bridge out of the hook’s group: the hook runs to its end after Claude Code exited', async () => {
    expect(detached.line).toMatch(DETACHED);
    let payload = await recorded(detached);
    for (let tries = 1; payload === undefined && tries < 3; tries++) {
      await detached.mock.close();
      detached.project.remove();
      detached = await runWith((installed) => installed);
      payload = await recorded(detached);
    }
    expect(payload, `exit ${detached.exited.exitCode}\n${detached.exited.stderr.slice(-2000)}`).toMatchObject({ event_type: 'StopFailure' });
  }, 120_000);

  it('the line as written before, the bridge among the hook’s processes: ended with them before its hook writes anything (what the binary does)', async () => {
    expect(inGroup.line).toMatch(/^NODE_OPTIONS= NODE_COMPILE_CACHE= \S+ bridge --from claude$/);
    expect(await recorded(inGroup)).toBeUndefined();
  }, 30_000);
});

describe(`claude ${VERSION}: the events with no counterpart here that a headless run fires`, () => {
  const HEADLESS = ['InstructionsLoaded', 'UserPromptExpansion', 'PreSkillShellCommand'];
  let run: ClaudeScenarioRun;
  beforeAll(async () => {
    run = await runClaudeScenario({
      settings: { hooks: Object.fromEntries(HEADLESS.map((e) => [e, [{ hooks: [RECORD] }]])) },
      files: {
        'CLAUDE.md': '# Notes\nBe brief.\n',
        // A slash command whose text runs a shell line (`!` and the command in backquotes) as it is expanded.
        '.claude/commands/hello.md': '---\ndescription: Say hello\nallowed-tools: Bash(echo:*)\n---\nSay hello. Today: !`echo RULE-SKILL-SHELL`\n',
      },
      turns: [{ text: 'Hello.' }],
      prompt: '/hello',
    });
  }, 120_000);
  afterAll(async () => {
    await run?.mock.close();
    run?.project.remove();
  });

  it('CLAUDE.md loads (InstructionsLoaded), a slash command expands (UserPromptExpansion) and its shell line is about to run (PreSkillShellCommand)', () => {
    const payloads = payloadsOf(run).filter((p) => HEADLESS.includes(String(p.hook_event_name)));
    // Each once. Claude Code runs the InstructionsLoaded hook beside the prompt's handling, not before it, so which
    // record lands first in the file is a race (seen both ways under load): the order is not asserted.
    expect(payloads.map((p) => p.hook_event_name).sort(), run.explain()).toEqual([...HEADLESS].sort());
    const [loaded, expansion, shell] = HEADLESS.map((event) => payloads.find((p) => p.hook_event_name === event));
    expect(loaded).toMatchObject({ memory_type: 'Project', load_reason: 'session_start', file_path: join(run.project.dir, 'CLAUDE.md') });
    expect(expansion).toMatchObject({ expansion_type: 'slash_command', command_name: 'hello', command_args: '', command_source: 'projectSettings', prompt: '/hello' });
    expect(shell).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo RULE-SKILL-SHELL' }, command_name: 'hello', command_source: 'projectSettings', invoked_by: 'user' });
    // The line ran, and its output went into the prompt the model got.
    expect(JSON.stringify(run.mock.mainRequests()[0]?.body)).toContain('RULE-SKILL-SHELL');
  });
});
