/**
 * Payload fields our table had left out, from Claude Code 2.1.332 itself: PostToolUseFailure's `is_interrupt` and
 * `duration_ms`, a headless PermissionRequest (no `tool_kind`: that is for an MCP server's skills), and SessionStart
 * on a resumed and a forked session (`source: "resume"` / `"fork"`, `seconds_since_last_response`, `context_tokens`,
 * `prompt_cache_likely_expired`, `estimated_cache_write_usd`) — the forked one through the bridge too. The recorded
 * payloads are the fixtures of test/agents/fixtures/claude/2.1.332/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeDriver } from './drivers/claude.js';
import { pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { runClaudeWith, runOurScenario, scenarioProject, type ClaudeScenario, type OurScenarioRun } from './support/claude-scenario.js';
import { startMockServer, type MockServer } from './support/mock-server.js';

const VERSION = pinOf('claude').version;

/** Every payload, one JSON document per line, in `payloads.jsonl`. */
const RECORD = { type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl', timeout: 30 };
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUseFailure', 'PermissionRequest'];

const payloadsIn = (file: (name: string) => string | undefined): Record<string, unknown>[] =>
  (file('payloads.jsonl') ?? '').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

describe(`claude ${VERSION}: payload fields of a failed call, a permission request, a resumed and a forked session; ours`, () => {
  const scenario: ClaudeScenario = {
    settings: { hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [RECORD] }]])) },
    // The fork's SessionStart reaches a Claude-dialect HOOK.md hook through the bridge, which records what it got.
    hookmd: { 'on-start': { trigger: 'SessionStart', run: '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/bridged-$(date +%s%N).json"\necho "RULE-BRIDGED-START"\n', metadata: { dialect: 'claude' } } },
    turns: [{ shell: 'exit 3' }, { shell: 'touch needs-permission.txt' }, { text: 'first done' }],
  };
  let project: AgentProject;
  let mock: MockServer;
  const runs: AgentRun[] = [];
  let ours: OurScenarioRun;
  const file = (name: string) => {
    try {
      return readFileSync(join(project.dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };

  beforeAll(async () => {
    project = scenarioProject(scenario);
    mock = await startMockServer(claudeDriver.api(), [...scenario.turns, { text: 'forked done' }, { text: 'resumed done' }]);
    await claudeDriver.configure(project, mock, { events: ['SessionStart'], timeoutSec: 60 });
    // Bash is allowed for `exit 3` only: `touch` asks for permission, which a headless run has nobody to give.
    runs.push(await runClaudeWith(project, mock, ['First.', '--allowedTools', 'Bash(exit *)']));
    const session = /"session_id":"([0-9a-f-]{36})"/.exec(runs[0]!.stdout)?.[1] ?? 'none';
    runs.push(await runClaudeWith(project, mock, ['Forked.', '--resume', session, '--fork-session']));
    runs.push(await runClaudeWith(project, mock, ['Resumed.', '--resume', session]));
    ours = await runOurScenario({ ...scenario, hookmd: undefined });
  }, 400_000);
  afterAll(async () => {
    await mock?.close();
    project?.remove();
    ours?.project.remove();
  });

  const explain = () => runs.map((r, i) => `run ${i}: exit ${r.exitCode}\n${r.stderr.slice(-1000)}`).join('\n');
  const claudeOf = (event: string, source?: string) => payloadsIn(file).filter((p) => p.hook_event_name === event && (source === undefined || p.source === source));

  it('PostToolUseFailure: is_interrupt and duration_ms, in Claude Code and here; ours sends no key Claude Code does not', () => {
    const [claude] = claudeOf('PostToolUseFailure');
    expect(claude, explain()).toMatchObject({ error: 'Exit code 3', is_interrupt: false });
    expect(typeof claude!.duration_ms).toBe('number');
    const [mine] = payloadsIn(ours.file).filter((p) => p.hook_event_name === 'PostToolUseFailure');
    expect(mine).toMatchObject({ is_interrupt: false });
    expect(typeof mine!.duration_ms).toBe('number');
    expect(Object.keys(mine!).filter((k) => !(k in claude!))).toEqual([]);
  });

  it('PermissionRequest fires headless with tool_name, tool_input and permission_suggestions; no tool_kind', () => {
    const [claude] = claudeOf('PermissionRequest');
    expect(claude, explain()).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'touch needs-permission.txt' } });
    expect(Array.isArray(claude!.permission_suggestions)).toBe(true);
    expect('tool_kind' in claude!).toBe(false);
  });

  it('SessionStart on --resume and --fork-session: the source, and how long ago and how large the resumed conversation was', () => {
    for (const source of ['fork', 'resume']) {
      const [start] = claudeOf('SessionStart', source);
      expect(Object.keys(start ?? {}).sort(), `${source}\n${explain()}`).toEqual(['context_tokens', 'cwd', 'estimated_cache_write_usd', 'hook_event_name', 'prompt_cache_likely_expired', 'seconds_since_last_response', 'session_id', 'source', 'transcript_path']);
    }
    // UserPromptSubmit carries no `source` nor `session_title` headless.
    for (const prompt of claudeOf('UserPromptSubmit')) expect(Object.keys(prompt).filter((k) => k === 'source' || k === 'session_title')).toEqual([]);
  });

  it('the forked session’s SessionStart through the bridge: a Claude-dialect hook gets it as sent, and its context reaches the model', () => {
    const [fork] = claudeOf('SessionStart', 'fork');
    const bridged = readdirSync(project.dir).filter((f) => f.startsWith('bridged-')).map((f) => JSON.parse(file(f)!) as Record<string, unknown>);
    expect(bridged.find((p) => p.source === 'fork'), explain()).toEqual(fork);
    const forkRequest = mock.mainRequests().find((r) => JSON.stringify(r.body).includes('Forked.'));
    expect(JSON.stringify(forkRequest?.body), explain()).toContain('RULE-BRIDGED-START');
  });
});
