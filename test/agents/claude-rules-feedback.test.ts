/**
 * What Claude Code tells the model beside a tool's result when a hook answers on PostToolUse, recorded from the binary
 * (the exact text, as a message of role `system` after the tool result), and the same text from our agent and from a
 * Claude-dialect HOOK.md hook that Claude Code runs through the bridge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinOf } from './support/harness.js';
import { runClaudeScenario, runOurScenario, systemTextsIn, type ClaudeScenario, type ClaudeScenarioRun, type OurScenarioRun } from './support/claude-scenario.js';

const VERSION = pinOf('claude').version;

/** A Claude-dialect HOOK.md script that blocks the result of a command naming `post-block`. */
const POST_BLOCK = `#!/usr/bin/env node
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
if (String(input.tool_input.command).includes('post-block')) process.stdout.write(JSON.stringify({ decision: 'block', reason: 'RULE-POST-BLOCK-REASON' }));
`;

describe(`claude ${VERSION}: a Claude-dialect HOOK.md hook's PostToolUse block, through the bridge and in our agent`, () => {
  const scenario: ClaudeScenario = {
    hookmd: { 'post-block': { trigger: 'PostToolUse', run: POST_BLOCK, metadata: { dialect: 'claude' } } },
    bridged: ['PostToolUse'],
    turns: [{ shell: 'echo post-block-output' }, { text: 'done' }],
  };
  let claude: ClaudeScenarioRun;
  let ours: OurScenarioRun;
  beforeAll(async () => {
    claude = await runClaudeScenario(scenario);
    ours = await runOurScenario(scenario);
  }, 240_000);
  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  it('Claude Code gives the reason as the hook’s blocking error, worded by itself after the kept result; ours in the same words', () => {
    const after = claude.requests[1] ?? [];
    const told = systemTextsIn(after);
    // The bridge's command line stands where Claude Code quotes the hook's command.
    const feedback = told.find((t) => t.startsWith('PostToolUse:Bash hook blocking error from command: "'));
    expect(feedback ?? '', `${claude.explain()}\n--- system\n${JSON.stringify(told)}`).toMatch(/^PostToolUse:Bash hook blocking error from command: ".*agent-hooks.*bridge.*": RULE-POST-BLOCK-REASON$/s);
    expect(told.some((t) => t.includes('additional context')), JSON.stringify(told)).toBe(false);
    expect(JSON.stringify(after)).toContain('post-block-output');
    // Ours: the hook's name stands for its command.
    expect(systemTextsIn(ours.requests[1] ?? [])).toEqual(['PostToolUse:Bash hook blocking error from command: "post-block": RULE-POST-BLOCK-REASON']);
    expect(JSON.stringify(ours.requests[1])).toContain('post-block-output');
  });
});

describe(`claude ${VERSION}: a PostToolUse exit 2, and an asyncRewake hook under claude -p; ours in a plain run`, () => {
  const PLAIN = 'input=$(cat); case "$input" in *plain-two*) echo "RULE-PLAIN-EXIT2" >&2; exit 2;; esac; exit 0';
  // Slow on purpose: in the background its message could not be in the request right after the call.
  const REWAKE = 'input=$(cat); case "$input" in *rewake-me*) sleep 2; echo "RULE-REWAKE" >&2; exit 2;; esac; exit 0';
  const scenario: ClaudeScenario = {
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: PLAIN, timeout: 30 }, { type: 'command', command: REWAKE, asyncRewake: true, timeout: 30 }] }] } },
    turns: [{ shell: 'echo plain-two-out' }, { shell: 'echo rewake-me-out' }, { text: 'done' }],
  };
  let claude: ClaudeScenarioRun;
  let ours: OurScenarioRun;
  beforeAll(async () => {
    claude = await runClaudeScenario(scenario);
    ours = await runOurScenario(scenario, { plainRun: true });
  }, 240_000);
  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  /** The hooks' feedback among the system messages of request `index` (Claude Code's own environment text left out). */
  const feedbackIn = (requests: readonly (readonly unknown[])[], index: number): string[] => systemTextsIn(requests[index] ?? []).filter((t) => t.includes('hook blocking error'));

  it('each keeps the result and gives the model its stderr in the request right after the call, in the same words', () => {
    const plain = `PostToolUse:Bash hook blocking error from command: "${PLAIN}": [${PLAIN}]: RULE-PLAIN-EXIT2\n`;
    const rewake = `PostToolUse:Bash hook blocking error from command: "${REWAKE}": [${REWAKE}]: RULE-REWAKE\n`;
    expect(feedbackIn(claude.requests, 1), claude.explain()).toEqual([plain]);
    expect(feedbackIn(claude.requests, 2)).toEqual([plain, rewake]);
    expect(feedbackIn(ours.requests, 1)).toEqual([plain]);
    expect(feedbackIn(ours.requests, 2)).toEqual([plain, rewake]);
    for (const requests of [claude.requests, ours.requests]) expect(JSON.stringify(requests[2])).toContain('rewake-me-out');
    expect(ours.warnings).toEqual([]);
  });
});
