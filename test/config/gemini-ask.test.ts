import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from 'agent-hooks';
import { sandbox } from './support.js';

// `decision: "ask"` from a Gemini CLI BeforeTool hook: headless (yolo), Gemini CLI 0.61.0 runs no tool and ends the run
// there (test/agents/gemini-rules.test.ts). Here it is a deferred ask: the run pauses at the call with approval
// interrupts (to be resumed with a decision), and ends with the tool not run without them — the model is not called
// again to work around it. Real settings, real processes.

const setup = sandbox();

const ASK = `cat >/dev/null; printf '{"decision":"ask","reason":"a reviewer decides","systemMessage":"Run the deploy?"}'`;

async function agentOn(interrupts: boolean, ran: string[], model: ScriptedModel) {
  const { project, write } = await setup();
  await write(project, '.gemini/settings.json', { hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: ASK, timeout: 20_000 }] }] } });
  const shell = defineTool({ name: 'run_shell_command', description: 'Runs a command.', input: z.object({ command: z.string() }), execute: (input) => (ran.push(input.command), 'ran') });
  let builder = AgentBuilder.new().withModel(model).withTools(shell).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true, hookmd: false });
  if (interrupts) builder = builder.withApprovalInterrupts();
  return builder.build();
}

const script = () => new ScriptedModel([{ toolCalls: [{ name: 'run_shell_command', args: { command: 'deploy' } }] }, 'worked around it', 'done']);

describe('a Gemini BeforeTool hook\'s decision "ask"', () => {
  it('without approval interrupts: the run ends at the call, the tool not run, the model not called again', async () => {
    const ran: string[] = [];
    const model = script();
    const result = await (await agentOn(false, ran, model)).run('go');
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(result.status).toBe('stopped');
    expect(result.reason).toMatch(/run_shell_command \(Run the deploy\?\).*the tool not run/);
  });

  it('with approval interrupts: the run pauses at the call, and resumes with the decision made later', async () => {
    const ran: string[] = [];
    const agent = await agentOn(true, ran, script());
    const first = await agent.run('go');
    expect(first.status).toBe('interrupted');
    expect(ran).toEqual([]);
    const { snapshot, pending } = first.interruption!;
    expect(pending.map((p) => [p.toolCall.name, p.reason])).toEqual([['run_shell_command', 'Run the deploy?']]);
    const done = await agent.resume(snapshot, { [pending[0]!.id]: { approved: true } });
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['deploy']);
  });
});
