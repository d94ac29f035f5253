/**
 * Any sequence of interruptions and resumes ends as the same run with an approver deciding inline would: the same
 * trace, event for event, and the same outcome.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest, RunResult } from 'agent-hooks';
import { buildAgent, decisionOf, outcomeOf, type Scenario, type ScriptCall, type ScriptDecision } from './interrupt-support.js';

const call: fc.Arbitrary<ScriptCall> = fc.oneof(
  fc.constantFrom('a', 'b').map((env) => ({ tool: 'status' as const, args: { env } })),
  fc.constantFrom('staging', 'production').map((env) => ({ tool: 'deploy' as const, args: { env } })),
  fc.constant({ tool: 'worker' as const, args: { task: 'deploy it' } }),
);
const batch = fc.array(call, { minLength: 0, maxLength: 3 });
const decision: fc.Arbitrary<ScriptDecision> = fc.oneof(
  fc.constant({ kind: 'approve' as const }),
  fc.constantFrom('not now', 'you may retry later').map((reason) => ({ kind: 'deny' as const, reason })),
  fc.constant({ kind: 'edit' as const, input: { env: 'staging' } }),
  fc.constant({ kind: 'stop' as const, reason: 'frozen' }),
);

/** Runs with an approver that decides each ask inline, or interrupts, as `interrupts` says (in ask order). */
async function mixed(scenario: Scenario, interrupts: readonly boolean[], trace: string[]): Promise<RunResult> {
  let asked = 0;
  const approverOf = (): ((/* request */) => ApprovalDecision | { interrupt: true }) => () => {
    const index = asked++;
    if (interrupts[index % interrupts.length] === true) {
      asked--;
      return { interrupt: true };
    }
    return decisionOf(scenario.decisions[index] ?? { kind: 'approve' });
  };
  let result = await buildAgent(scenario, { kind: 'approver', approver: approverOf() }, trace).run('Ship it');
  let guard = 0;
  while (result.status === 'interrupted') {
    if (++guard > 50) throw new Error('too many interruptions');
    const { pending, snapshot } = result.interruption!;
    const d = decisionOf(scenario.decisions[asked++] ?? { kind: 'approve' });
    // A new agent each time, from the snapshot's JSON text, as a process that only has the text would.
    const text = JSON.stringify(snapshot);
    result = await buildAgent(scenario, { kind: 'approver', approver: approverOf() }, trace).resume(JSON.parse(text), { [pending[0]!.id]: d });
  }
  return result;
}

/** A decision that belongs to the call, not to the order it is asked in: in batch mode a request left for later is decided after the ones after it. */
const decisionFor = (decisions: readonly ScriptDecision[], agentId: string, callId: string): ApprovalDecision => {
  let hash = 0;
  for (const ch of `${agentId}/${callId}`) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return decisionOf(decisions[hash % decisions.length]!);
};

/** Batch mode: an approver that decides inline or leaves the request for later (as `interrupts` says, in ask order); every pending request of an interruption is decided at once. */
async function batched(scenario: Scenario, interrupts: readonly boolean[], trace: string[]): Promise<{ result: RunResult; sizes: number[] }> {
  let asked = 0;
  const approver = (request: ApprovalRequest): ApprovalDecision | { interrupt: true } =>
    interrupts[asked++ % interrupts.length] === true ? { interrupt: true } : decisionFor(scenario.decisions, request.state.agentId, request.toolCall.id);
  const build = () => buildAgent(scenario, { kind: 'approver', approver, batch: true }, trace);
  let result = await build().run('Ship it');
  const sizes: number[] = [];
  while (result.status === 'interrupted') {
    if (sizes.length > 50) throw new Error('too many interruptions');
    const { pending, snapshot } = result.interruption!;
    sizes.push(pending.length);
    const decisions = Object.fromEntries(pending.map((p) => [p.id, decisionFor(scenario.decisions, p.agentId, p.toolCall.id)]));
    result = await build().resume(JSON.parse(JSON.stringify(snapshot)), decisions);
  }
  return { result, sizes };
}

describe('interrupting and resuming', () => {
  it('gives the trace and outcome of inline approvals, for any run and any choice of which approvals interrupt', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(batch, { minLength: 1, maxLength: 4 }),
        fc.array(batch, { minLength: 0, maxLength: 2 }),
        fc.array(decision, { minLength: 8, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        async (steps, workerSteps, decisions, interrupts) => {
          const scenario: Scenario = { steps, workerSteps, decisions };
          const inlineTrace: string[] = [];
          const inline = await mixed(scenario, [false], inlineTrace);
          const trace: string[] = [];
          const result = await mixed(scenario, interrupts, trace);
          expect(trace).toEqual(inlineTrace);
          expect(outcomeOf(result)).toEqual(outcomeOf(inline));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('with whole batches, gives the trace and outcome of inline approvals, for any batches and any choice of which approvals wait', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(call, { minLength: 0, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        fc.array(batch, { minLength: 0, maxLength: 2 }),
        fc.array(decision, { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        async (steps, workerSteps, decisions, interrupts) => {
          const scenario: Scenario = { steps, workerSteps, decisions };
          const inlineTrace: string[] = [];
          const inline = await batched(scenario, [false], inlineTrace);
          const trace: string[] = [];
          const { result, sizes } = await batched(scenario, interrupts, trace);
          expect(trace).toEqual(inlineTrace);
          expect(outcomeOf(result)).toEqual(outcomeOf(inline.result));
          // An interruption waits for every request of its batch that the approver left: never fewer than one.
          for (const size of sizes) expect(size).toBeGreaterThan(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('with whole batches, interrupts once per batch whose calls ask, with every request of it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(call, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }), async (steps) => {
        const scenario: Scenario = { steps, decisions: [{ kind: 'approve' }] };
        const { result, sizes } = await batched(scenario, [true], []);
        expect(result.status).toBe('completed');
        // With every decision an approval, each batch runs whole: its deploys are asked together, once.
        const deploys = steps.map((b) => b.filter((c) => c.tool === 'deploy').length).filter((n) => n > 0);
        expect(sizes.slice(0, deploys.length)).toEqual(deploys);
      }),
      { numRuns: 100 },
    );
  });
});
