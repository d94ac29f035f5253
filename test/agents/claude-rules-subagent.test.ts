/**
 * What Claude Code 2.1.332 sends the hooks of a subagent's run, recorded from the binary: the mock model calls the
 * Agent tool (in the foreground), the subagent runs one Bash call and answers. Its PreToolUse, PostToolUse,
 * PostToolBatch and SubagentStop name it with `agent_id` and `agent_type`, as SubagentStart does; the parent's own
 * calls do not. Our agent, running a subagent of its own, sends the same keys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineSubagent, defineTool } from '../../src/index.js';
import { pinOf } from './support/harness.js';
import { runClaudeScenario, scenarioProject, type ClaudeScenario, type ClaudeScenarioRun } from './support/claude-scenario.js';
import { answerWith, type Block } from './mock/anthropic.js';
import { sendJson, type MockApi } from './support/mock-server.js';

const VERSION = pinOf('claude').version;

const EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolBatch', 'SubagentStart', 'SubagentStop'];
/** Every payload, one JSON document per line, in `payloads.jsonl`. */
const RECORD = { type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/payloads.jsonl', timeout: 30 };
const SETTINGS = { hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ ...(e.startsWith('P') && e !== 'PostToolBatch' ? { matcher: '*' } : {}), hooks: [RECORD] }]])) };

type Payload = Record<string, unknown>;
const payloadsIn = (text: string | undefined): Payload[] => (text ?? '').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Payload);

interface Body {
  readonly tools?: readonly { readonly name?: string }[];
  readonly messages?: readonly { readonly role?: string; readonly content?: unknown }[];
}

/**
 * The Messages API, playing a delegation: the main loop calls the Agent tool with a task naming `SUB-TASK`; the
 * subagent (whose first message holds it) calls Bash once, then answers; then the main loop answers.
 */
function delegatingApi(): MockApi {
  let id = 0;
  return {
    name: 'Anthropic Messages, delegating',
    handle(request, res, next) {
      const path = request.path.split('?')[0] ?? '';
      if (path.endsWith('/count_tokens')) return (sendJson(res, 200, { input_tokens: 100 }), { main: false });
      if (!path.endsWith('/messages')) return (sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: path } }), { main: false });
      const body = (request.body ?? {}) as Body;
      const messages = body.messages ?? [];
      // Claude Code may send a system message after the tool's result: any result in the conversation counts.
      const afterResult = messages.some((m) => Array.isArray(m.content) && m.content.some((b) => (b as { type?: unknown }).type === 'tool_result'));
      const tool = (name: string, input: Record<string, unknown>): Block => ({ type: 'tool_use', id: `toolu_${++id}`, name, input });
      if (JSON.stringify(messages[0] ?? '').includes('SUB-TASK')) {
        answerWith(res, body, afterResult ? [{ type: 'text', text: 'SUB-ANSWER' }] : [tool('Bash', { command: 'echo sub-ran', description: 'Echo' })]);
        return { main: false };
      }
      if (!(body.tools ?? []).some((t) => t.name === 'Agent')) return (answerWith(res, body, [{ type: 'text', text: 'ok' }]), { main: false });
      const turn = next();
      const delegate = tool('Agent', { description: 'Run one command', prompt: 'SUB-TASK: run echo.', subagent_type: 'general-purpose', run_in_background: false });
      answerWith(res, body, 'shell' in turn ? [delegate] : [{ type: 'text', text: turn.text }]);
      return { main: true, turn };
    },
  };
}

describe(`claude ${VERSION}: agent_id and agent_type on the hooks of a subagent's run; ours`, () => {
  const scenario: ClaudeScenario = { settings: SETTINGS, turns: [{ shell: 'delegate' }, { text: 'main done' }] };
  let claude: ClaudeScenarioRun;
  let claudePayloads: Payload[];
  let ours: Payload[];

  beforeAll(async () => {
    claude = await runClaudeScenario(scenario, 120_000, delegatingApi());
    claudePayloads = payloadsIn(claude.file('payloads.jsonl'));
    // Ours: a subagent of type general-purpose, named as the model calls it, with the same settings.
    const project = scenarioProject(scenario);
    const bash = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => 'sub-ran' });
    const worker = defineSubagent({ name: 'worker', type: 'general-purpose', tools: [bash], model: new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'echo sub-ran' } }] }, 'SUB-ANSWER']) });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'worker', args: { task: 'SUB-TASK: run echo.' } }] }, 'main done']);
    const agent = AgentBuilder.new().withModel(model).withTools(bash).withSubagents(worker).withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
    const previous = process.cwd();
    process.chdir(project.dir);
    try {
      await agent.run('Do as you are told.');
    } finally {
      process.chdir(previous);
    }
    ours = payloadsIn(readFileSync(join(project.dir, 'payloads.jsonl'), 'utf8'));
    project.remove();
  }, 240_000);
  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
  });

  /** Each payload as `event tool: agent_id? agent_type?`. */
  const named = (payloads: readonly Payload[]) => payloads.map((p) => `${String(p.hook_event_name)}${typeof p.tool_name === 'string' ? ` ${p.tool_name}` : ''}: ${'agent_id' in p ? 'agent_id' : '-'} ${String(p.agent_type ?? '-')}`);

  it('Claude Code names the subagent on every event of its run, and on none of the parent’s', () => {
    expect(named(claudePayloads), claude.explain()).toEqual([
      'PreToolUse Agent: - -',
      'SubagentStart: agent_id general-purpose',
      'PreToolUse Bash: agent_id general-purpose',
      'PostToolUse Bash: agent_id general-purpose',
      'PostToolBatch: agent_id general-purpose',
      'SubagentStop: agent_id general-purpose',
      'PostToolUse Agent: - -',
      'PostToolBatch: - -',
    ]);
    // One id for the subagent, from its start to its stop.
    expect(new Set(claudePayloads.filter((p) => 'agent_id' in p).map((p) => p.agent_id)).size).toBe(1);
  });

  it('ours: the same events carry the same keys, the subagent named as our SubagentStart names it', () => {
    expect(named(ours)).toEqual(named(claudePayloads).map((line) => line.replace(' Agent:', ' worker:')));
    expect(new Set(ours.filter((p) => 'agent_id' in p).map((p) => p.agent_id))).toEqual(new Set(['worker']));
    const inner = (payloads: readonly Payload[]) => payloads.find((p) => p.hook_event_name === 'PreToolUse' && p.tool_name === 'Bash')!;
    // Claude Code's own extras (prompt_id, effort) aside, the subagent's PreToolUse has the same keys in both.
    const keys = (p: Payload) => Object.keys(p).filter((k) => !['prompt_id', 'effort'].includes(k));
    expect(keys(inner(ours))).toEqual(keys(inner(claudePayloads)));
  });
});
