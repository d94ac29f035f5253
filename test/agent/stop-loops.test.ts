/**
 * Stop loops and runaway hooks, with real script hooks in each dialect: a Stop gate that never lets go is ended by the
 * stop-loop cap, each script is told whether it is already keeping the agent working, and a hook that refuses every
 * tool call cannot push a run past its step limit.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineSubagent, defineTool, type StopForcedInfo, type ToolBlockedInfo } from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

type Dialect = 'hookmd' | 'claude' | 'vscode' | 'copilot' | 'gemini' | 'cursor' | 'codex';
const DIALECTS: readonly Dialect[] = ['hookmd', 'claude', 'vscode', 'copilot', 'gemini', 'cursor', 'codex'];

/** How a script of each dialect keeps the agent working at Stop (or SubagentStop), as that agent documents it. */
const KEEP_WORKING: Record<Dialect, string> = {
  hookmd: `echo '{"decision":"block","reason":"keep working"}'`,
  claude: `echo '{"decision":"block","reason":"keep working"}'`,
  vscode: `echo '{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"keep working"}}'`,
  copilot: `echo '{"decision":"block","reason":"keep working"}'`,
  gemini: `echo '{"decision":"deny","reason":"keep working"}'`,
  cursor: `echo '{"followup_message":"keep working"}'`,
  codex: `echo '{"decision":"block","reason":"keep working"}'`,
};

/** How a script of each dialect refuses a tool call. */
const DENY_TOOL: Record<Dialect, string> = {
  hookmd: `echo '{"decision":"deny","reason":"no tools"}'`,
  claude: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no tools"}}'`,
  vscode: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no tools"}}'`,
  copilot: `echo '{"permissionDecision":"deny","permissionDecisionReason":"no tools"}'`,
  gemini: `echo '{"decision":"deny","reason":"no tools"}'`,
  cursor: `echo '{"permission":"deny","agent_message":"no tools"}'`,
  codex: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no tools"}}'`,
};

/** The payload field that says whether a stop hook is already keeping the agent working. */
function loopField(dialect: Dialect, payload: Record<string, unknown>): unknown {
  if (dialect === 'copilot') {
    // Copilot CLI 1.0's name, and the older one its earlier hooks read: both say the same.
    expect(payload.stopHookActive).toBe(payload.stop_hook_active);
    return payload.stop_hook_active;
  }
  if (dialect === 'cursor') return payload.loop_count;
  return payload.stop_hook_active;
}

/**
 * A project with one HOOK.md hook in `dialect` for `trigger`, whose script appends its stdin to `payloads.jsonl` and
 * then runs `answer`.
 */
async function project(dialect: Dialect, trigger: string, answer: string): Promise<{ dir: string; payloads: () => Promise<Record<string, unknown>[]> }> {
  const { dir, cleanup } = await tempDir('agent-hooks-stop-');
  cleanups.push(cleanup);
  const folder = join(dir, '.agents', 'hooks', 'gate');
  await mkdir(join(folder, 'scripts'), { recursive: true });
  const metadata = dialect === 'hookmd' ? '' : `metadata:\n  dialect: ${dialect}\n`;
  await writeFile(join(folder, 'HOOK.md'), `---\nname: gate\ndescription: a gate that never lets go\ntrigger: ${trigger}\n${metadata}---\n# gate\n`);
  const log = join(dir, 'payloads.jsonl');
  await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\ncat >> "${log}"\necho >> "${log}"\n${answer}\n`);
  return {
    dir,
    payloads: async () =>
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const noop = () => defineTool({ name: 'noop', description: 'does nothing', input: z.object({}), execute: () => 'ok' });

describe.each(DIALECTS)('a %s Stop gate that always blocks', (dialect) => {
  it('ends after the stop-loop cap with stop:forced, told on each Stop whether it is already looping', async () => {
    const { dir, payloads } = await project(dialect, 'Stop', KEEP_WORKING[dialect]);
    const model = new ScriptedModel(() => 'done');
    const agent = AgentBuilder.new()
      .withModel(model)
      .withMaxSteps(20)
      .withOptions({ stopLoopLimit: 3 })
      .withHooksFrom({ projectDir: dir, userDir: false, trust: 'all' })
      .build();
    const forced: StopForcedInfo[] = [];
    agent.events.on('stop:forced', (info) => forced.push(info));
    const result = await agent.run('finish the job');

    expect(result).toMatchObject({ status: 'completed', stopReason: 'no_tool_calls' });
    // Three continuations honoured, the fourth block overridden.
    expect(model.callCount).toBe(4);
    expect(forced).toHaveLength(1);
    expect(forced[0]!.blocks).toBe(4);
    expect(forced[0]!.reason).toContain('keep working');
    const seen = (await payloads()).map((p) => loopField(dialect, p));
    expect(seen).toEqual(dialect === 'cursor' ? [0, 1, 2, 3] : [false, true, true, true]);
  });
});

describe.each(DIALECTS)('a %s PreToolUse hook that refuses every tool call', (dialect) => {
  it('cannot keep the run past maxSteps: it ends there with max_steps', async () => {
    const { dir, payloads } = await project(dialect, 'PreToolUse', DENY_TOOL[dialect]);
    const model = new ScriptedModel((_request, call) => ({ text: `try ${call}`, toolCalls: [{ name: 'noop', args: {} }] }));
    const tool = noop();
    const agent = AgentBuilder.new().withModel(model).withTools(tool).withMaxSteps(5).withHooksFrom({ projectDir: dir, userDir: false, trust: 'all' }).build();
    const blocked: ToolBlockedInfo[] = [];
    agent.events.on('tool:blocked', (info) => blocked.push(info));
    const result = await agent.run('use the tool');

    expect(result).toMatchObject({ status: 'completed', stopReason: 'max_steps' });
    expect(model.callCount).toBe(5);
    expect(result.steps).toHaveLength(5);
    expect(blocked).toHaveLength(5);
    expect(blocked.every((b) => b.by === 'hook' && b.reason.includes('no tools'))).toBe(true);
    expect(await payloads()).toHaveLength(5);
  });
});

describe('a SubagentStop gate that always blocks', () => {
  it('is capped like Stop: the subagent ends after the cap, and the parent run goes on', async () => {
    const { dir, payloads } = await project('claude', 'SubagentStop', KEEP_WORKING.claude);
    const childModel = new ScriptedModel(() => 'child done');
    const parentModel = new ScriptedModel((_request, call) => (call === 0 ? { toolCalls: [{ name: 'helper', args: { task: 'help' } }] } : 'parent done'));
    const agent = AgentBuilder.new()
      .withModel(parentModel)
      .withSubagents(defineSubagent({ name: 'helper', description: 'helps', model: childModel }))
      .withOptions({ stopLoopLimit: 2 })
      .withHooksFrom({ projectDir: dir, userDir: false, trust: 'all' })
      .build();
    const forced: StopForcedInfo[] = [];
    agent.events.on('stop:forced', (info) => forced.push(info));
    const result = await agent.run('delegate');

    expect(result).toMatchObject({ status: 'completed', text: 'parent done' });
    expect(childModel.callCount).toBe(3);
    expect(forced).toEqual([expect.objectContaining({ blocks: 3 })]);
    expect((await payloads()).map((p) => [p.hook_event_name, p.stop_hook_active])).toEqual([
      ['SubagentStop', false],
      ['SubagentStop', true],
      ['SubagentStop', true],
    ]);
  });
});

describe('Cursor\'s own loop_limit', () => {
  it('stops honouring follow-ups at loop_limit even when the agent\'s cap is higher', async () => {
    const { dir, payloads } = await project('cursor', 'Stop', KEEP_WORKING.cursor);
    const model = new ScriptedModel(() => 'done');
    const agent = AgentBuilder.new().withModel(model).withOptions({ stopLoopLimit: 8 }).withHooksFrom({ projectDir: dir, userDir: false, trust: 'all' }).build();
    const forced: StopForcedInfo[] = [];
    agent.events.on('stop:forced', (info) => forced.push(info));
    await agent.run('finish');
    // Cursor's default loop_limit is 5: five follow-ups, then the sixth is ignored and the run ends on its own.
    expect(model.callCount).toBe(6);
    expect(forced).toEqual([]);
    expect((await payloads()).map((p) => p.loop_count)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
