/**
 * The rows of the event table a headless Claude Code 2.1.332 can be made to fire, checked with the binary: PreCompact
 * (`/compact` as the prompt: with nothing to compact yet, it fires and no PostCompact follows), StopFailure and
 * MessageDisplay (the model answers HTTP 400), and SubagentStart's keys (test/agents/claude-rules-subagent.test.ts
 * runs the subagent). The payloads are the fixtures of test/agents/fixtures/claude/2.1.332/; ours are held to their
 * keys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompactHookContext, SubagentHookContext, type AnyHookContext } from '../../src/index.js';
import { claudeDialect } from '../../src/dialects/claude.js';
import { pinOf } from './support/harness.js';
import { runClaudeScenario, type ClaudeScenarioRun } from './support/claude-scenario.js';
import { sendJson, type MockApi } from './support/mock-server.js';

const VERSION = pinOf('claude').version;
const FIXTURES = join(import.meta.dirname, 'fixtures', 'claude', VERSION);

const EVENTS = ['SessionStart', 'PreCompact', 'PostCompact', 'StopFailure', 'MessageDisplay', 'Notification', 'SessionEnd'];
const RECORD = { type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl', timeout: 30 };
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
