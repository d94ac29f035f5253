/**
 * Whole batches (`{ batch: true }`): every call of a step's batch is reviewed before any of them runs, so one
 * interruption holds every request of the batch, decided per request id; interrupting and resuming fires exactly what
 * the same run with an approver deciding inline (in the same mode) fires.
 */
import { describe, expect, it } from 'vitest';
import { AgentBuilder, HookOutcome, ResumeError, ScriptedModel, defineTool, type ApprovalDecision, type RunResult, type RunSnapshot } from 'agent-hooks';
import { z } from 'zod';
import { buildAgent, decisionOf, outcomeOf, type Scenario, type ScriptDecision } from './interrupt-support.js';

const deployTo = (env: string) => ({ tool: 'deploy' as const, args: { env } });
const statusOf = (env: string) => ({ tool: 'status' as const, args: { env } });
const worker = { tool: 'worker' as const, args: { task: 'deploy it' } };

/** Runs interrupted in batch mode, deciding every pending request of each interruption by `decide`, in order. */
async function interrupted(scenario: Scenario, decide: (index: number) => ScriptDecision, trace: string[]) {
  let result: RunResult = await buildAgent(scenario, { kind: 'interrupt', batch: true }, trace).run('Ship it');
  const sizes: number[] = [];
  let asked = 0;
  while (result.status === 'interrupted') {
    const { pending, snapshot } = result.interruption!;
    sizes.push(pending.length);
    const decisions: Record<string, ApprovalDecision> = {};
    for (const p of pending) decisions[p.id] = decisionOf(decide(asked++));
    result = await buildAgent(scenario, { kind: 'interrupt', batch: true }, trace).resume(JSON.parse(JSON.stringify(snapshot)), decisions);
  }
  return { result, sizes };
}

async function inline(scenario: Scenario, trace: string[]) {
  return buildAgent(scenario, { kind: 'inline', decisions: scenario.decisions, batch: true }, trace).run('Ship it');
}

describe('whole batches', () => {
  it('one interruption holds every request of the batch; each is decided by its id; the events are an inline run’s', async () => {
    const scenario: Scenario = {
      steps: [[deployTo('production'), statusOf('a'), deployTo('staging'), deployTo('production')]],
      decisions: [{ kind: 'approve' }, { kind: 'deny', reason: 'not now' }, { kind: 'edit', input: { env: 'staging' } }],
    };
    const trace: string[] = [];
    const first = await buildAgent(scenario, { kind: 'interrupt', batch: true }, trace).run('Ship it');
    expect(first.status).toBe('interrupted');
    const { pending, snapshot } = first.interruption!;
    expect(pending.map((p) => [p.toolCall.id, p.reason])).toEqual([
      ['s0c0', 'Deploy to production?'],
      ['s0c2', 'Deploy to staging?'],
      ['s0c3', 'Deploy to production?'],
    ]);
    expect(new Set(pending.map((p) => p.id)).size).toBe(3);
    // Nothing ran: the status call between two requests waits for them, as the calls run in order.
    expect(first.messages.filter((m) => m.role === 'tool')).toEqual([]);
    expect(trace.map((l) => l.split(' | ')[0]).filter((e) => e === 'PreToolUse')).toHaveLength(4);
    // Decided out of order, by id: the third is edited, the second refused, the first approved.
    const decisions = { [pending[2]!.id]: decisionOf(scenario.decisions[2]!), [pending[1]!.id]: decisionOf(scenario.decisions[1]!), [pending[0]!.id]: true };
    const result = await buildAgent(scenario, { kind: 'interrupt', batch: true }, trace).resume(JSON.parse(JSON.stringify(snapshot)), decisions);
    expect(result.status).toBe('completed');
    const tools = result.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]);
    expect(tools).toEqual([
      ['s0c0', 'deployed to production'],
      ['s0c1', '{"env":"a","healthy":true}'],
      ['s0c2', 'Tool call refused: not now'],
      ['s0c3', 'deployed to staging'],
    ]);
    const inlineTrace: string[] = [];
    const reference = await inline(scenario, inlineTrace);
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(reference));
  });

  it('is off by default: each call of the batch interrupts on its own, after the calls before it ran', async () => {
    const scenario: Scenario = { steps: [[deployTo('production'), deployTo('staging')]], decisions: [] };
    const first = await buildAgent(scenario, { kind: 'interrupt' }).run('Ship it');
    expect(first.interruption!.pending.map((p) => p.toolCall.id)).toEqual(['s0c0']);
    expect(first.interruption!.snapshot.run.at!.review).toBeUndefined();
  });

  it('a subagent’s requests come from its run: gathered in their own interruption when its call runs, after the calls before it', async () => {
    const scenario: Scenario = {
      steps: [[deployTo('production'), worker, deployTo('staging')]],
      workerSteps: [[deployTo('production'), deployTo('staging')]],
      decisions: [{ kind: 'approve' }, { kind: 'approve' }, { kind: 'deny', reason: 'not now' }, { kind: 'approve' }],
    };
    const trace: string[] = [];
    // The parent's two requests together, then the worker's two together (its run starts once the first deploy ran).
    const { result, sizes } = await interrupted(scenario, (i) => scenario.decisions[i]!, trace);
    expect(sizes).toEqual([2, 2]);
    const inlineTrace: string[] = [];
    const reference = await inline(scenario, inlineTrace);
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(reference));
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['s0c0', 's0c1', 's0c2']);
  });

  it('a refusal that ends the run leaves the later calls of the batch unrun, though they were approved', async () => {
    const scenario: Scenario = {
      steps: [[deployTo('production'), deployTo('staging')]],
      decisions: [{ kind: 'stop', reason: 'frozen' }, { kind: 'approve' }],
    };
    const trace: string[] = [];
    const { result, sizes } = await interrupted(scenario, (i) => scenario.decisions[i]!, trace);
    expect(sizes).toEqual([2]);
    expect(result.stopReason).toBe('tool_rejected');
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'Tool call refused: frozen',
      'Not run: an earlier call of this step was refused and the run is ending.',
    ]);
    const inlineTrace: string[] = [];
    expect(outcomeOf(result)).toEqual(outcomeOf(await inline(scenario, inlineTrace)));
    expect(trace).toEqual(inlineTrace);
  });

  it('a call a hook refuses, and one with an input its tool refuses, keep their place in the batch', async () => {
    let deploys = 0;
    const deploy = defineTool({ name: 'deploy', description: 'Deploys', input: z.object({ env: z.enum(['staging', 'production']) }), execute: ({ env }) => `deployed to ${env} (${++deploys})` });
    const agent = AgentBuilder.new()
      .withModel(
        new ScriptedModel([
          {
            toolCalls: [
              { name: 'deploy', args: { env: 'production' }, id: 'c0' },
              { name: 'deploy', args: { env: 'moon' }, id: 'c1' },
              { name: 'deploy', args: { env: 'staging' }, id: 'c2' },
              { name: 'deploy', args: { env: 'staging' }, id: 'c3' },
            ],
          },
          'done',
        ]),
      )
      .withTools(deploy)
      .onBeforeToolUse((ctx) => (ctx.toolCall.id === 'c2' ? HookOutcome.block('not this one') : HookOutcome.ask('Deploy?')))
      .withApprovalInterrupts({ batch: true })
      .build();
    const first = await agent.run('Ship it');
    expect(first.interruption!.pending.map((p) => p.toolCall.id)).toEqual(['c0', 'c3']);
    expect(deploys).toBe(0);
    const [a, b] = first.interruption!.pending;
    const result = await agent.resume(first.interruption!.snapshot, { [a!.id]: true, [b!.id]: true });
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content.split(':')[0]])).toEqual([
      ['c0', 'deployed to production (1)'],
      ['c1', 'Error'],
      ['c2', 'Tool call blocked by a hook'],
      ['c3', 'deployed to staging (2)'],
    ]);
  });

  it('an approver decides some requests of the batch inline and leaves the others for one interruption', async () => {
    const scenario: Scenario = { steps: [[deployTo('production'), deployTo('staging'), deployTo('production')]], decisions: [] };
    const approver = (request: { toolCall: { id: string } }) => (request.toolCall.id === 's0c1' ? { approved: false, reason: 'no staging' } : { interrupt: true as const });
    const first = await buildAgent(scenario, { kind: 'approver', approver, batch: true }).run('Ship it');
    const { pending, snapshot } = first.interruption!;
    expect(pending.map((p) => p.toolCall.id)).toEqual(['s0c0', 's0c2']);
    const result = await buildAgent(scenario, { kind: 'approver', approver, batch: true }).resume(JSON.parse(JSON.stringify(snapshot)), { [pending[0]!.id]: true, [pending[1]!.id]: false });
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'deployed to production',
      'Tool call refused: no staging',
      'Tool call refused: the approver said no',
    ]);
  });

  it('refuses a snapshot whose pending list is not the batch’s requests', async () => {
    const scenario: Scenario = { steps: [[deployTo('production'), deployTo('staging')]], decisions: [] };
    const first = await buildAgent(scenario, { kind: 'interrupt', batch: true }).run('Ship it');
    const snapshot = JSON.parse(JSON.stringify(first.interruption!.snapshot)) as RunSnapshot;
    const dropped = { ...snapshot, pending: snapshot.pending.slice(0, 1) };
    const error = await buildAgent(scenario, { kind: 'interrupt', batch: true })
      .resume(dropped, { [snapshot.pending[0]!.id]: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect((error as ResumeError).code).toBe('invalid-snapshot');
  });

  it('streams every call of the batch before the interruption, and resumeStream each result after it', async () => {
    const scenario: Scenario = { steps: [[statusOf('a'), deployTo('production'), deployTo('staging')]], decisions: [] };
    const label = (event: { type: string; toolCall?: { id: string }; execution?: { toolCall: { id: string } } }) =>
      event.type === 'tool-call' ? `call ${event.toolCall!.id}` : event.type === 'tool-result' ? `result ${event.execution!.toolCall.id}` : event.type;
    const first: string[] = [];
    const stream = buildAgent(scenario, { kind: 'interrupt', batch: true }).stream('Ship it');
    for await (const event of stream) first.push(label(event as never));
    const interrupted = await stream.result;
    expect(first.filter((e) => e.startsWith('call') || e.startsWith('result'))).toEqual(['call s0c0', 'call s0c1', 'call s0c2']);
    const { snapshot, pending } = interrupted.interruption!;
    const rest: string[] = [];
    const resumed = buildAgent(scenario, { kind: 'interrupt', batch: true }).resumeStream(JSON.parse(JSON.stringify(snapshot)), { [pending[0]!.id]: true, [pending[1]!.id]: false });
    for await (const event of resumed) rest.push(label(event as never));
    expect(rest.filter((e) => e.startsWith('call') || e.startsWith('result'))).toEqual(['result s0c0', 'result s0c1', 'result s0c2']);
    expect((await resumed.result).status).toBe('completed');
  });

  it('a session’s turn waits for the whole batch, and session.resume decides it', async () => {
    const scenario: Scenario = { steps: [[deployTo('production'), deployTo('staging')]], decisions: [] };
    const session = buildAgent(scenario, { kind: 'interrupt', batch: true }).session({ id: 'chat-9' });
    const turn = await session.run('Ship it');
    expect(session.interruption?.pending.map((p) => p.toolCall.id)).toEqual(['s0c0', 's0c1']);
    const [a, b] = turn.interruption!.pending;
    const done = await session.resume({ [a!.id]: true, [b!.id]: { approved: false, reason: 'not staging' } });
    expect(done.status).toBe('completed');
    expect(done.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['deployed to production', 'Tool call refused: not staging']);
    await session.close();
  });

  it('refuses options that are not { batch: boolean }', () => {
    expect(() => AgentBuilder.new().withApprovalInterrupts({ batch: 'yes' } as never)).toThrow(/batch must be true or false/);
    expect(() => AgentBuilder.new().withApprovalInterrupts({ bacth: true } as never)).toThrow(/no option 'bacth'/);
    expect(() => AgentBuilder.new().withApprover(() => true, { batch: 1 } as never)).toThrow(/batch must be true or false/);
  });
});
