import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookStack, ScriptedModel, ToolCall, ToolExecution, ToolHookContext, defineTool, loadClaudeHooks, type AgentWarning, type Message } from 'agent-hooks';
import { sandbox } from './support.js';

// Claude Code's asyncRewake hooks, as real processes: in a session, in the background, and when one exits 2 its output
// wakes the model — at the next model call of the run, or at the session's next turn; in a plain run, which no turn
// follows, in the foreground, as Claude Code runs them under `claude -p`.

const setup = sandbox();

const bash = defineTool({ name: 'Bash', description: 'Runs a command.', input: z.object({ command: z.string() }), execute: (input) => `ran ${input.command}` });
/** A tool that takes `ms` to answer: time for a background hook to finish. */
const wait = defineTool({ name: 'wait', input: z.object({ ms: z.number() }), execute: async ({ ms }) => (await new Promise((r) => setTimeout(r, ms)), 'waited') });

const rewake = (event: string, command: string, matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, asyncRewake: true, timeout: 20 }] }] },
});

const systemTexts = (messages: readonly Message[]): string[] => messages.filter((m) => m.role === 'system').map((m) => m.content);

async function agentWith(project: string, model: ScriptedModel) {
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash, wait)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  expect((await agent.ready()).problems).toEqual([]);
  return { agent, warnings };
}

describe('asyncRewake: a background hook whose exit 2 wakes the model', () => {
  it('in a session, does not hold the call up, and its stderr reaches the model at the run’s next model call, in Claude Code’s words', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', rewake('PostToolUse', 'cat >/dev/null; sleep 0.3; echo "lint found 2 errors" >&2; exit 2', 'Bash'));
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'Bash', args: { command: 'npm run build' } }] },
      { toolCalls: [{ name: 'wait', args: { ms: 1500 } }] },
      'Done.',
    ]);
    const { agent, warnings } = await agentWith(project, model);
    const session = agent.session();
    await session.run('go');
    await session.close();

    // The hook's 0.3 s did not delay the second model call: it was not there yet.
    expect(systemTexts(model.requests[1]!.messages)).toEqual([]);
    expect(systemTexts(model.requests[2]!.messages)).toEqual(['Stop hook blocking error from command "PostToolUse:Bash": lint found 2 errors']);
    expect(warnings).toEqual([]);
  });

  it('wakes the session’s next turn when it is done after the turn ended', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', rewake('Stop', 'cat >/dev/null; sleep 0.2; echo "the deploy failed" >&2; exit 2'));
    const model = new ScriptedModel(['First answer.', 'Second answer.']);
    const { agent, warnings } = await agentWith(project, model);
    const session = agent.session();
    await session.run('one');
    await agent.drain();
    await session.run('two');
    await session.close();

    const second = model.requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'system']);
    expect(second.at(-1)!.content).toBe('Stop hook blocking error from command "Stop": the deploy failed');
    // The second turn's Stop hook woke the model too, once the session was closed: no turn was left to tell.
    expect(warnings.map((w) => w.code)).toEqual(['wake-undelivered']);
  });

  it('wakes nothing on exit 0 or 1, nor when it is done after the session’s last turn (a warning says the message reached no model)', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', {
      hooks: {
        Stop: [
          { hooks: [{ type: 'command', command: 'cat >/dev/null; echo quiet >&2; exit 1', asyncRewake: true }] },
          { hooks: [{ type: 'command', command: 'cat >/dev/null; echo fine; exit 0', asyncRewake: true }] },
          { hooks: [{ type: 'command', command: 'cat >/dev/null; sleep 0.2; echo "too late" >&2; exit 2', asyncRewake: true }] },
        ],
      },
    });
    const { agent, warnings } = await agentWith(project, new ScriptedModel(['Done.']));
    const session = agent.session();
    await session.run('go');
    await session.close();
    // Exit 1 is a failed hook, reported as Claude Code reports it; exit 0 says nothing.
    expect(warnings.map((w) => w.code).sort()).toEqual(['exit-code', 'wake-undelivered']);
    expect(warnings.find((w) => w.code === 'wake-undelivered')!.message).toContain('Stop hook blocking error from command "Stop": too late');
  });

  it('dispatched where there is no model to wake, runs in the foreground as a plain hook, as Claude Code does under claude -p', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', rewake('PostToolUse', 'cat >/dev/null; echo "lint failed" >&2; exit 2', 'Bash'));
    const { hooks } = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all' });
    const stack = new HookStack().withAll(hooks);
    const call = ToolCall.create('Bash', { command: 'ls' });
    const outcome = await stack.process(ToolHookContext.afterToolUse(ToolExecution.success(call, 'out')));
    // The result stands, and the hook's stderr goes beside it as Claude Code words a PostToolUse exit 2.
    const command = 'cat >/dev/null; echo "lint failed" >&2; exit 2';
    expect(outcome.type).toBe('proceed');
    expect(outcome.additionalContext).toEqual([`PostToolUse:Bash hook blocking error from command: "${command}": [${command}]: lint failed\n`]);
  });

  it('in a plain run, which no turn follows, runs in the foreground as under claude -p: the model gets it beside the result', async () => {
    const { project, write } = await setup();
    const command = 'cat >/dev/null; sleep 0.5; echo "lint found 2 errors" >&2; exit 2';
    await write(project, '.claude/settings.json', rewake('PostToolUse', command, 'Bash'));
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'npm run build' } }] }, 'Done.']);
    const { agent, warnings } = await agentWith(project, model);
    await agent.run('go');
    await agent.drain();
    const after = model.requests[1]!.messages.slice(-2);
    expect(after[0]).toMatchObject({ role: 'tool', content: 'ran npm run build' });
    expect(after[1]).toEqual({ role: 'system', content: `PostToolUse:Bash hook blocking error from command: "${command}": [${command}]: lint found 2 errors\n` });
    expect(warnings).toEqual([]);
  });
});
