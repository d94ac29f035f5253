/**
 * What Claude Code tells the model beside a tool's result when a hook answers on PostToolUse, recorded from the binary
 * (the exact text, as a message of role `system` after the tool result), and the same text from our agent and from a
 * Claude-dialect HOOK.md hook that Claude Code runs through the bridge.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installBridge, pinOf, type AgentProject } from './support/harness.js';
import { startMockServer, type MockApi } from './support/mock-server.js';
import { claudeDriver } from './drivers/claude.js';
import { answerWith, shellToolOf } from './mock/anthropic.js';
import { AgentBuilder, ScriptedModel, defineTool } from '../../src/index.js';
import { judgingApi, runClaudeScenario, runOurScenario, scenarioProject, systemTextsIn, type ClaudeScenario, type ClaudeScenarioRun, type OurScenarioRun } from './support/claude-scenario.js';

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

describe(`claude ${VERSION}: a prompt hook's refusal on PreToolUse and PostToolUse, with and without continueOnBlock; ours`, () => {
  const PROMPT = 'RULE-JUDGE: refuse every command. $ARGUMENTS';
  const VERDICT = { ok: false, reason: 'RULE-JUDGE-REASON' };
  const CASES = [
    ['PreToolUse', false],
    ['PreToolUse', true],
    ['PostToolUse', false],
    ['PostToolUse', true],
  ] as const;
  const scenarioOf = (event: string, continueOnBlock: boolean): ClaudeScenario => ({
    settings: { hooks: { [event]: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: PROMPT, timeout: 30, ...(continueOnBlock ? { continueOnBlock } : {}) }] }] } },
    turns: [{ shell: 'touch judged.txt' }, { text: 'first answer' }, { text: 'second answer' }],
  });
  const runs = new Map<string, { claude: ClaudeScenarioRun; ours: { requests: number; ran: boolean; told: string; status: string } }>();

  /** Ours: the same settings, the agent's own model judging as the mock's judge does. */
  async function ours(scenario: ClaudeScenario) {
    const project = scenarioProject(scenario);
    let main = 0;
    const told: string[] = [];
    const model = new ScriptedModel((request) => {
      if (request.tools.length === 0) return JSON.stringify(VERDICT);
      told.push(JSON.stringify(request.messages));
      return ++main === 1 ? { toolCalls: [{ name: 'Bash', args: { command: 'touch judged.txt' } }] } : 'first answer';
    });
    let ran = false;
    const bash = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => ((ran = true), '') });
    const agent = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
    const result = await agent.run('Do as you are told.');
    project.remove();
    return { requests: main, ran, told: told.join('\n'), status: result.status };
  }

  beforeAll(async () => {
    for (const [event, cont] of CASES) {
      const scenario = scenarioOf(event, cont);
      runs.set(`${event} ${cont}`, { claude: await runClaudeScenario(scenario, 120_000, judgingApi('RULE-JUDGE', VERDICT)), ours: await ours(scenario) });
    }
  }, 400_000);
  afterAll(async () => {
    for (const { claude } of runs.values()) {
      await claude.mock.close();
      claude.project.remove();
    }
  });

  it.each(CASES)('%s, continueOnBlock %s', (event, cont) => {
    const { claude, ours: mine } = runs.get(`${event} ${cont}`)!;
    const ran = claude.file('judged.txt') !== undefined;
    // Without continueOnBlock the turn ends at the refusal; with it, the turn goes on to the model's next answer.
    expect(claude.requests.length, claude.explain()).toBe(cont ? 2 : 1);
    expect(mine.requests).toBe(claude.requests.length);
    expect(ran).toBe(event === 'PostToolUse');
    expect(mine.ran).toBe(ran);
    expect(mine.status).toBe(cont ? 'completed' : 'stopped');
    if (event === 'PostToolUse' && cont) {
      const feedback = `PostToolUse:Bash hook blocking error from command: "${PROMPT}": [${PROMPT}]: RULE-JUDGE-REASON`;
      expect(systemTextsIn(claude.requests[1] ?? [])).toContain(feedback);
      expect(mine.told).toContain(JSON.stringify(feedback).slice(1, -1));
    }
    if (event === 'PreToolUse' && cont) {
      expect(JSON.stringify(claude.requests[1])).toContain('RULE-JUDGE-REASON');
      expect(mine.told).toContain('RULE-JUDGE-REASON');
    }
  });
});

describe(`claude ${VERSION}: a Claude-dialect HOOK.md hook that defers the call, through the bridge`, () => {
  const DEFER = `#!/bin/sh
cat > /dev/null
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"needs the owner"}}'
`;
  const scenario: ClaudeScenario = {
    hookmd: { 'defer-all': { trigger: 'PreToolUse', run: DEFER, metadata: { dialect: 'claude' } } },
    bridged: ['PreToolUse'],
    turns: [{ shell: 'touch deferred.txt' }, { text: 'done' }],
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

  it('Claude Code reads the bridge’s answer as a defer: the tool does not run and the session ends (tool_deferred); ours ends there too', () => {
    expect(claude.file('deferred.txt'), claude.explain()).toBeUndefined();
    expect(claude.run.stdout, claude.explain()).toContain('"stop_reason":"tool_deferred"');
    expect(claude.mock.mainRequests()).toHaveLength(1);
    expect(ours.file('deferred.txt')).toBeUndefined();
    expect((ours.result as { status?: string } | undefined)?.status).toBe('stopped');
  });
});

describe(`claude ${VERSION}: updatedToolOutput on Read, as a string and as Read's own output object; ours`, () => {
  const SHAPES = {
    string: '"RULE-REPLACED-READ"',
    object: '{"type":"text","file":{"filePath":"notes.txt","content":"RULE-REPLACED-READ","numLines":1,"startLine":1,"totalLines":1}}',
  } as const;
  const settingsOf = (output: string) => ({
    hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":${output}}}'`, timeout: 30 }] }] },
  });
  /** What the model got back from Read (the call's result, as JSON): Claude Code, its file read by its own Read tool. */
  async function claudeRead(output: string | undefined, prepare?: (project: AgentProject) => void): Promise<string> {
    const project = scenarioProject({ ...(output === undefined ? {} : { settings: settingsOf(output) }), files: { 'notes.txt': 'ORIGINAL-NOTES\n' }, turns: [] });
    prepare?.(project);
    let calls = 0;
    const api: MockApi = {
      name: 'Anthropic Messages, reading a file',
      handle(request, res, next) {
        const body = request.body;
        if (request.method === 'POST' && request.path.split('?')[0]!.endsWith('/messages') && shellToolOf(body) !== undefined) {
          answerWith(res, body, ++calls === 1 ? [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: join(project.dir, 'notes.txt') } }] : [{ type: 'text', text: 'done' }]);
          return { main: true };
        }
        return claudeDriver.api().handle(request, res, next);
      },
    };
    const mock = await startMockServer(api, []);
    try {
      const run = await claudeDriver.run(project, mock, 'Read the notes.', 90_000);
      const after = mock.mainRequests()[1]?.body as { messages?: { content?: unknown }[] } | undefined;
      if (after === undefined) throw new Error(`claude: exit ${run.exitCode}, no second request\n${run.stderr.slice(-2000)}`);
      // The Read call's result, as the model got it.
      const blocks = (after.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string; tool_use_id?: string; content?: unknown }[]) : []));
      return JSON.stringify(blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_read')?.content ?? null);
    } finally {
      await mock.close();
      project.remove();
    }
  }
  /** The same, an agent built here with a Read tool of its own. */
  async function ourRead(output: string): Promise<{ result: string; warnings: string[] }> {
    const project = scenarioProject({ settings: settingsOf(output), files: { 'notes.txt': 'ORIGINAL-NOTES\n' }, turns: [] });
    try {
      const read = defineTool({ name: 'Read', input: z.object({ file_path: z.string() }), execute: ({ file_path }) => readFileSync(file_path, 'utf8') });
      const model = new ScriptedModel([{ toolCalls: [{ name: 'Read', args: { file_path: join(project.dir, 'notes.txt') } }] }, 'done']);
      const agent = AgentBuilder.new().withModel(model).withTools(read).withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
      const warnings: string[] = [];
      agent.events.on('warning', (w) => warnings.push(w.message));
      await agent.run('Read the notes.');
      return { result: model.requests[1]!.messages.find((m) => m.role === 'tool')!.content, warnings };
    } finally {
      project.remove();
    }
  }

  it('a string is ignored: the model sees the file', async () => {
    const told = await claudeRead(SHAPES.string);
    expect(told).toContain('ORIGINAL-NOTES');
    expect(told).not.toContain('RULE-REPLACED-READ');
    const ours = await ourRead(SHAPES.string);
    expect(ours.result).toBe('ORIGINAL-NOTES\n');
    expect(ours.warnings.join('\n')).toMatch(/updatedToolOutput for Read that is not Read's output object/);
  }, 120_000);

  it('through the bridge, a hook of ours that replaces Read’s output: the bridge writes Read’s object, and Claude Code takes it', async () => {
    // A module of in-process hooks (trusted, as the user would trust it) that redacts what Read returns.
    const module = `export default [{ priority: 100, hook: { name: 'redact-read', events: ['PostToolUse'], handle: (ctx, next) => next(ctx.toolCall.name === 'Read' ? ctx.withResult('RULE-REDACTED') : ctx) } }];\n`;
    const told = await claudeRead(undefined, (project) => {
      writeFileSync(join(project.dir, 'agent-hooks.config.mjs'), module);
      project.cli('trust', '--all');
      installBridge(project, 'claude', ['PostToolUse'], 30);
    });
    expect(told).toContain('RULE-REDACTED');
    expect(told).not.toContain('ORIGINAL-NOTES');
  }, 120_000);

  it('Read’s own output object replaces it: the model sees the new content', async () => {
    const told = await claudeRead(SHAPES.object);
    expect(told).toContain('RULE-REPLACED-READ');
    expect(told).not.toContain('ORIGINAL-NOTES');
    expect((await ourRead(SHAPES.object)).result).toBe('RULE-REPLACED-READ');
  }, 120_000);
});
