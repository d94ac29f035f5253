/**
 * The decisions a reviewer makes beyond approve and refuse: `respond` (an answer in place of the tool's: the tool does
 * not run), and the decisions a tool allows (`defineTool({ approval: { allowed } })`), checked before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, MemoryCheckpointer, RequireApprovalHook, ResumeError, ScriptedModel, defineTool, type ApprovalAnswer, type ApprovalRequest } from 'agent-hooks';

/** A deploy tool that counts the deploys it really made. */
function deployTool(allowed?: readonly ('approve' | 'edit' | 'reject' | 'respond')[]) {
  const deploys: string[] = [];
  const tool = defineTool({
    name: 'deploy',
    description: 'Deploys',
    input: z.object({ env: z.enum(['staging', 'production']) }),
    execute: ({ env }) => {
      deploys.push(env);
      return `deployed to ${env}`;
    },
    ...(allowed !== undefined ? { approval: { allowed } } : {}),
  });
  return { tool, deploys };
}

function agentWith(tool: ReturnType<typeof deployTool>['tool'], mode: { approver?: (r: ApprovalRequest) => ApprovalAnswer; batch?: boolean; checkpointer?: MemoryCheckpointer } = {}) {
  const events: string[] = [];
  const builder = AgentBuilder.new()
    .withModel(
      new ScriptedModel((request) =>
        request.messages.some((m) => m.role === 'tool')
          ? `done: ${request.messages.filter((m) => m.role === 'tool').map((m) => m.content).join(' / ')}`
          : { toolCalls: [{ name: 'deploy', args: { env: 'production' }, id: 'c1' }] },
      ),
    )
    .withTools(tool)
    .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: 'Deploy?' }))
    .onAfterToolUse((ctx) => void events.push(`PostToolUse ${ctx.toolCall.id}`))
    .onToolFailure((ctx) => void events.push(`PostToolUseFailure ${ctx.toolCall.id}`));
  if (mode.approver !== undefined) builder.withApprover(mode.approver, { batch: mode.batch === true });
  else builder.withApprovalInterrupts({ batch: mode.batch === true });
  if (mode.checkpointer !== undefined) builder.withCheckpointer(mode.checkpointer);
  return { agent: builder.build(), events };
}

describe('respond: the reviewer answers in place of the tool', () => {
  for (const batch of [false, true]) {
    it(`given to resume${batch ? ' (whole batches)' : ''}: the tool does not run, the model gets the answer, no PostToolUse fires`, async () => {
      const { tool, deploys } = deployTool();
      const first = agentWith(tool, { batch });
      const interrupted = await first.agent.run('Ship it');
      const [request] = interrupted.interruption!.pending;
      const second = agentWith(tool, { batch });
      const snapshot = JSON.parse(JSON.stringify(interrupted.interruption!.snapshot));
      const result = await second.agent.resume(snapshot, { [request!.id]: { respond: { env: 'production', skipped: 'frozen until Monday' } } });
      expect(deploys).toEqual([]);
      expect(result.status).toBe('completed');
      expect(result.text).toBe('done: {"env":"production","skipped":"frozen until Monday"}');
      expect(second.events).toEqual([]);
      const execution = result.steps[0]!.executions[0]!;
      expect(execution.isError).toBe(false);
      expect(execution.result).toEqual({ env: 'production', skipped: 'frozen until Monday' });
    });
  }

  it('from an approver inline: the same', async () => {
    const { tool, deploys } = deployTool();
    const inline = agentWith(tool, { approver: () => ({ respond: 'not today' }) });
    const result = await inline.agent.run('Ship it');
    expect(result.text).toBe('done: not today');
    expect(deploys).toEqual([]);
    expect(inline.events).toEqual([]);
  });

  it('given inline in a batch while another request of it waits, is kept in the snapshot and applied on resume', async () => {
    const { tool, deploys } = deployTool();
    const build = () =>
      AgentBuilder.new()
        .withModel(
          new ScriptedModel((request) =>
            request.messages.some((m) => m.role === 'tool')
              ? `done: ${request.messages.filter((m) => m.role === 'tool').map((m) => m.content).join(' / ')}`
              : { toolCalls: [{ name: 'deploy', args: { env: 'production' }, id: 'c1' }, { name: 'deploy', args: { env: 'staging' }, id: 'c2' }] },
          ),
        )
        .withTools(tool)
        .withHook(new RequireApprovalHook({ matcher: 'deploy' }))
        .withApprover((r) => (r.toolCall.id === 'c1' ? { respond: { answered: 'by hand' } } : { interrupt: true }), { batch: true })
        .build();
    const interrupted = await build().run('Ship it');
    expect(interrupted.interruption!.pending.map((p) => p.toolCall.id)).toEqual(['c2']);
    const snapshot = JSON.parse(JSON.stringify(interrupted.interruption!.snapshot));
    expect(snapshot.run.at.review[0]).toMatchObject({ kind: 'ask', decision: { respond: { answered: 'by hand' } } });
    const result = await build().resume(snapshot, { [interrupted.interruption!.pending[0]!.id]: true });
    expect(result.text).toBe('done: {"answered":"by hand"} / deployed to staging');
    expect(deploys).toEqual(['staging']);
  });

  it('is refused before anything runs when it has no result, or decides too', async () => {
    const { tool, deploys } = deployTool();
    const checkpointer = new MemoryCheckpointer();
    const { agent } = agentWith(tool, { checkpointer });
    const interrupted = await agent.run('Ship it', { checkpointId: 'r1' });
    const id = interrupted.interruption!.pending[0]!.id;
    for (const decision of [{ respond: undefined }, { respond: 'x', approved: true }]) {
      const error = await agent.resume('r1', { [id]: decision as never }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResumeError);
      expect((error as ResumeError).code).toBe('invalid-decision');
    }
    expect(deploys).toEqual([]);
    expect(await checkpointer.list()).toEqual(['r1']);
  });
});

describe('the decisions a tool allows', () => {
  it('are in the pending request, and a resume with another one is refused before anything runs, naming the tool and what it allows', async () => {
    const { tool, deploys } = deployTool(['approve', 'reject']);
    const checkpointer = new MemoryCheckpointer();
    const { agent } = agentWith(tool, { checkpointer });
    const interrupted = await agent.run('Ship it', { checkpointId: 'r1' });
    const [request] = interrupted.interruption!.pending;
    expect(request!.allowed).toEqual(['approve', 'reject']);
    for (const [decision, kind] of [
      [{ approved: true, updatedInput: { env: 'staging' } }, 'edit'],
      [{ respond: 'done by hand' }, 'respond'],
    ] as const) {
      const error = await agent.resume('r1', { [request!.id]: decision }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResumeError);
      expect((error as ResumeError).code).toBe('invalid-decision');
      expect((error as ResumeError).message).toContain(`is ${kind}, and deploy allows approve, reject only`);
    }
    expect(deploys).toEqual([]);
    // Nothing ran and the snapshot is still there: decided again with an allowed decision, the run goes on.
    const result = await agent.resume('r1', { [request!.id]: true });
    expect(result.status).toBe('completed');
    expect(deploys).toEqual(['production']);
  });

  it('an approver is told them, and answering another fails the run with what is allowed', async () => {
    const { tool, deploys } = deployTool(['approve', 'reject']);
    const seen: (readonly string[])[] = [];
    const { agent } = agentWith(tool, {
      approver: (request) => {
        seen.push(request.allowed);
        return { approved: true, updatedInput: { env: 'staging' } };
      },
    });
    await expect(agent.run('Ship it')).rejects.toThrow("The approver answered edit for deploy, and deploy allows approve, reject only");
    expect(seen).toEqual([['approve', 'reject']]);
    expect(deploys).toEqual([]);
  });

  it('every decision is allowed when the tool says none', async () => {
    const { tool } = deployTool();
    const { agent } = agentWith(tool);
    const interrupted = await agent.run('Ship it');
    expect(interrupted.interruption!.pending[0]!.allowed).toEqual(['approve', 'edit', 'reject', 'respond']);
  });

  it('defineTool refuses an allowed list that is empty or names something else', () => {
    const base = { name: 'deploy', execute: () => 'ok' };
    expect(() => defineTool({ ...base, approval: { allowed: [] } })).toThrow(/approval.allowed must be a non-empty list of approve, edit, reject, respond/);
    expect(() => defineTool({ ...base, approval: { allowed: ['approve', 'ignore'] as never } })).toThrow(/approval.allowed has "ignore"/);
  });
});
