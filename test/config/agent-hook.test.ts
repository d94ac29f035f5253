import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, loadClaudeHooks, type AgentWarning, type ModelRequest, type ScriptedStep } from 'agent-hooks';
import { toolMessages } from '../agent/support.js';
import { sandbox } from './support.js';

// Claude Code's `type: "agent"` hooks, verified by the agent's own model in a bounded sub-run.

const setup = sandbox();

const bash = defineTool({ name: 'Bash', description: 'Runs a command.', input: z.object({ command: z.string() }), execute: (input) => `ran ${input.command}` });

const isVerifier = (request: ModelRequest): boolean => request.tools.some((t) => t.name === 'StructuredOutput');
const verdict = (ok: boolean, reason?: string): ScriptedStep => ({ toolCalls: [{ name: 'StructuredOutput', args: { ok, ...(reason !== undefined ? { reason } : {}) } }] });

/** A model that plays `main` for the agent and `verifier` for its agent hooks, and records what each was asked. */
function twoRoles(main: readonly ScriptedStep[], verifier: readonly ScriptedStep[]) {
  const asked: { main: ModelRequest[]; verifier: ModelRequest[] } = { main: [], verifier: [] };
  let m = 0;
  let v = 0;
  const model = new ScriptedModel((request) => {
    if (isVerifier(request)) {
      asked.verifier.push(request);
      return verifier[v++] ?? 'out of script';
    }
    asked.main.push(request);
    return main[m++] ?? 'out of script';
  });
  return { model, asked };
}

async function agentWith(project: string, model: ScriptedModel) {
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  return { agent, warnings, problems: (await agent.ready()).problems };
}

const agentHook = (event: string, prompt: string, extra: Record<string, unknown> = {}, matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'agent', prompt, ...extra }] }] },
});

describe('Claude Code’s agent hooks, verified by the agent’s model', () => {
  it('a Stop verifier that answers not ok keeps the agent working with Claude Code’s words; it is given the event and one tool to answer with', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', agentHook('Stop', 'Verify that the tests ran. Event: $ARGUMENTS', { model: 'claude-haiku' }));
    const { model, asked } = twoRoles(['Done.', 'Ran the tests: all pass.'], ['Let me look.', verdict(false, 'no test run in the last message'), verdict(true, 'tests ran')]);
    const { agent, problems, warnings } = await agentWith(project, model);
    expect(problems).toEqual([]);
    const result = await agent.run('Fix the bug');

    expect(result.text).toBe('Ran the tests: all pass.');
    expect(asked.main[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Agent hook condition was not met: no test run in the last message' });
    const first = asked.verifier[0]!;
    expect(first.system).toContain('You are verifying a stop condition');
    expect(first.tools.map((t) => t.name)).toEqual(['StructuredOutput']);
    const prompt = first.messages[0]!.content;
    expect(prompt.startsWith('Verify that the tests ran. Event: {')).toBe(true);
    expect(JSON.parse(prompt.slice(prompt.indexOf('{')))).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'Done.' });
    // An answer without the tool is sent back with a reminder: the second turn holds it.
    expect(asked.verifier[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(asked.verifier[1]!.messages.at(-1)!.content).toBe('Return your result using the StructuredOutput tool, always with a reason.');
    expect(warnings).toEqual([]);
  });

  it('a PreToolUse verifier refuses the call it judges not ok, and lets the others run', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', agentHook('PreToolUse', 'Is this command safe? $ARGUMENTS', {}, 'Bash'));
    const { model, asked } = twoRoles(
      [{ toolCalls: [{ name: 'Bash', args: { command: 'rm -rf /' } }] }, { toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] }, 'Done.'],
      [verdict(false, 'it deletes everything'), verdict(true)],
    );
    const { agent } = await agentWith(project, model);
    const result = await agent.run('Clean up');
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['Tool call blocked by a hook: Agent hook condition was not met: it deletes everything', 'ran ls']);
    expect(asked.verifier[0]!.system).toContain('You are evaluating a PreToolUse hook');
  });

  it('tells a verifier that calls another tool there is none, and takes a verdict written as JSON text', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', agentHook('PreToolUse', 'Check $ARGUMENTS', {}, 'Bash'));
    const { model, asked } = twoRoles([{ toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] }, 'Done.'], [{ toolCalls: [{ name: 'Read', args: { file_path: 'x' } }] }, '{"ok": false, "reason": "no"}']);
    const { agent } = await agentWith(project, model);
    const result = await agent.run('go');
    expect(toolMessages(asked.verifier[1]!)).toEqual([expect.objectContaining({ content: 'There is no tool Read here: return your result with StructuredOutput.' })]);
    expect(toolMessages(result.messages)[0]!.content).toBe('Tool call blocked by a hook: Agent hook condition was not met: no');
  });

  it("tells a verifier whose verdict zod cannot name (a reason whose constructor's name has no prototype) what to return, and takes the next", async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', agentHook('PreToolUse', 'Check $ARGUMENTS', {}, 'Bash'));
    const odd = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: { name: Object.create(null) } });
    const { model, asked } = twoRoles([{ toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] }, 'Done.'], [{ toolCalls: [{ name: 'StructuredOutput', args: { ok: false, reason: odd } }] }, verdict(false, 'no')]);
    const { agent } = await agentWith(project, model);
    const result = await agent.run('go');
    expect(toolMessages(asked.verifier[1]!)[0]!.content).toMatch(/^The result needs "ok" \(true or false\) and may have "reason" \(a string\): Invalid input: expected string/);
    expect(toolMessages(result.messages)[0]!.content).toBe('Tool call blocked by a hook: Agent hook condition was not met: no');
  });

  it('lets the action go on, with a warning, when the verifier gives no verdict within its turns or its time', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Never decides. $ARGUMENTS' }] },
          { matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Too slow. $ARGUMENTS', timeout: 1 }] },
        ],
      },
    });
    let verifierCalls = 0;
    const model = new ScriptedModel(async (request, call) => {
      if (!isVerifier(request)) return call === 0 ? { toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] } : 'Done.';
      verifierCalls++;
      const task = request.messages[0]!.content;
      if (task.startsWith('Too slow')) await new Promise((r) => setTimeout(r, 3000));
      return 'Thinking it over.';
    });
    const { agent, warnings } = await agentWith(project, model);
    const result = await agent.run('go');
    expect(toolMessages(result.messages)[0]!.content).toBe('ran ls');
    // Claude Code's bound: 50 turns without a verdict.
    expect(verifierCalls).toBe(51);
    expect(warnings.map((w) => w.code)).toEqual(['no-verdict', 'timeout']);
  });

  it('is not loaded on PermissionRequest, as Claude Code refuses it there, nor without a model', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { PermissionRequest: [{ hooks: [{ type: 'agent', prompt: 'Allow it?' }] }], Stop: [{ hooks: [{ type: 'agent', prompt: 'Done?' }] }] } });
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(hooks).toEqual([]);
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['hooks.PermissionRequest[0].hooks[0].type', 'unsupported-hook-type'],
      ['hooks.Stop[0].hooks[0]', 'agent-hook-needs-model'],
    ]);
  });
});
