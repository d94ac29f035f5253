/**
 * Approvals that interrupt a run: the run resolves `interrupted` with a JSON snapshot, and a newly built agent resumes
 * it; together the two parts fire exactly what one uninterrupted run with an approver deciding the same fires.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  FileCheckpointer,
  MemoryCheckpointer,
  RequireApprovalHook,
  ResumeError,
  ScriptedModel,
  ToolCallLimitHook,
  defineTool,
  type RunSnapshot,
} from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';
import { buildAgent, outcomeOf, runInterrupted, type Scenario } from './interrupt-support.js';

const deployTo = (env: string) => ({ tool: 'deploy' as const, args: { env } });
const statusOf = (env: string) => ({ tool: 'status' as const, args: { env } });

/** The same scenario run inline (approver) and interrupted at every approval: traces and outcomes must be equal. */
async function both(scenario: Scenario) {
  const inlineTrace: string[] = [];
  const inline = await buildAgent(scenario, { kind: 'inline', decisions: scenario.decisions }, inlineTrace).run('Ship it');
  const trace: string[] = [];
  const { result, interruptions } = await runInterrupted(scenario, trace);
  return { inline, inlineTrace, result, trace, interruptions };
}

const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('an approval that interrupts the run', () => {
  it('resolves interrupted with the pending call, its reason, an id, and a JSON snapshot; ends nothing', async () => {
    const trace: string[] = [];
    const scenario: Scenario = { steps: [[statusOf('prod'), deployTo('production'), statusOf('staging')]], decisions: [{ kind: 'approve' }] };
    const result = await buildAgent(scenario, { kind: 'interrupt' }, trace).run('Ship it');
    expect(result.status).toBe('interrupted');
    const { pending, snapshot, id } = result.interruption!;
    expect(pending).toEqual([
      { id: expect.stringMatching(/^apr_/), toolCall: { id: 's0c1', name: 'deploy', args: { env: 'production' } }, reason: 'Deploy to production?', agentId: 'deployer', subagentPath: [], allowed: ['approve', 'edit', 'reject', 'respond'] },
    ]);
    expect(snapshot.id).toBe(id);
    expect(snapshot.format).toBe('agent-hooks/run-snapshot');
    expect(snapshot.version).toBe(1);
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    // The batch as it stood: the first call ran, the second waits, the third has not started.
    expect(snapshot.run.at).toMatchObject({ stepIndex: 0, callIndex: 1, phase: 'approval', reason: 'Deploy to production?' });
    expect(snapshot.run.at!.executions.map((e) => e.toolCall.id)).toEqual(['s0c0']);
    expect(snapshot.run.metadata).toMatchObject({ started: 'yes', 'seen.s0c0': 'status', [ToolCallLimitHook.metadataKey]: { total: 2 } });
    const events = trace.map((line) => line.split(' | ')[0]);
    expect(events.slice(-3)).toEqual(['PreToolUse', 'PermissionRequest', 'Notification']);
    for (const ending of ['AfterStep', 'Stop', 'AfterStop', 'AfterAgent', 'ExecutionEnd', 'PostToolBatch']) expect(events).not.toContain(ending);
    // The waiting call and the one after it have no answer yet: the resumed run gives them theirs.
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['s0c0']);
  });

  it('resumed on a new agent from JSON, fires what one uninterrupted run with the same approvals fires, event for event', async () => {
    const { inline, inlineTrace, result, trace, interruptions } = await both({
      steps: [[statusOf('prod'), deployTo('production'), statusOf('staging')], [deployTo('staging')]],
      decisions: [{ kind: 'approve' }, { kind: 'approve' }],
    });
    expect(interruptions).toBe(2);
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(inline));
    expect(result.status).toBe('completed');
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toContain('deployed to production');
  });

  it('a refusal with a reason fires PermissionDenied and tells the model the reason', async () => {
    const { inline, inlineTrace, result, trace } = await both({
      steps: [[deployTo('production')]],
      decisions: [{ kind: 'deny', reason: 'no production deploys on Fridays' }],
    });
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(inline));
    expect(trace.some((l) => l.startsWith('PermissionDenied | proceed') && l.includes('no production deploys on Fridays'))).toBe(true);
    expect(result.messages.find((m) => m.toolCallId === 's0c0')?.content).toBe('Tool call refused: no production deploys on Fridays');
  });

  it('a refusal that stops the run ends it with tool_rejected, the rest of the batch not run', async () => {
    const { inline, inlineTrace, result, trace } = await both({
      steps: [[deployTo('production'), statusOf('prod')]],
      decisions: [{ kind: 'stop', reason: 'frozen' }],
    });
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(inline));
    expect(result.stopReason).toBe('tool_rejected');
    expect(result.messages.find((m) => m.toolCallId === 's0c1')?.content).toMatch(/^Not run/);
  });

  it('an edited input is what the tool runs on, checked by its schema again, without the call’s hooks again', async () => {
    const { inline, inlineTrace, result, trace } = await both({ steps: [[deployTo('production')]], decisions: [{ kind: 'edit', input: { env: 'staging' } }] });
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(inline));
    expect(result.messages.find((m) => m.toolCallId === 's0c0')?.content).toBe('deployed to staging');
    expect(trace.filter((l) => l.startsWith('PreToolUse')).length).toBe(1);
    expect(trace.find((l) => l.startsWith('PostToolUse'))).toContain('s0c0 deploy {"env":"staging"}');
  });

  it('an edited input the tool refuses: a ResumeError before anything runs, the snapshot still resumable', async () => {
    const scenario: Scenario = { steps: [[deployTo('production')]], decisions: [] };
    const checkpointer = new MemoryCheckpointer();
    const first = await buildAgent(scenario, { kind: 'interrupt', checkpointer }).run('Ship it');
    const { snapshot, pending } = first.interruption!;
    const trace: string[] = [];
    const agent = buildAgent(scenario, { kind: 'interrupt', checkpointer }, trace);
    const error = await agent.resume(snapshot, { [pending[0]!.id]: { approved: true, updatedInput: { env: 'moon' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect(error).toMatchObject({ code: 'invalid-decision' });
    expect((error as Error).message).toMatch(/updatedInput is not an input deploy takes: env: /);
    expect(trace).toEqual([]);
    expect(await checkpointer.list()).toEqual([snapshot.id]);
    const done = await agent.resume(snapshot.id, { [pending[0]!.id]: { approved: true, updatedInput: { env: 'staging' } } });
    expect(done.status).toBe('completed');
  });

  it('an inline approver’s edited input the tool refuses fails the call as the model’s bad input does', async () => {
    const result = await buildAgent({ steps: [[deployTo('production')]], decisions: [{ kind: 'edit', input: { env: 'moon' } }] }, {
      kind: 'inline',
      decisions: [{ kind: 'edit', input: { env: 'moon' } }],
    }).run('Ship it');
    expect(result.steps[0]!.executions[0]!.isError).toBe(true);
    expect(result.messages.find((m) => m.toolCallId === 's0c0')?.content).toMatch(/^Error: .*deploy/);
  });

  it('a batch with two calls that need approval interrupts twice; the calls between run once, in order', async () => {
    const { inline, inlineTrace, result, trace, interruptions } = await both({
      steps: [[deployTo('staging'), statusOf('a'), deployTo('production'), statusOf('b')]],
      decisions: [{ kind: 'approve' }, { kind: 'deny', reason: 'not today' }],
    });
    expect(interruptions).toBe(2);
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(inline));
    expect(result.steps[0]!.executions.map((e) => e.toolCall.id)).toEqual(['s0c0', 's0c1', 's0c2', 's0c3']);
    expect(trace.filter((l) => l.startsWith('PostToolBatch')).length).toBe(1);
  });

  it('a call inside a subagent’s run interrupts the parent; resuming finishes the child, then the parent', async () => {
    const { inline, inlineTrace, result, trace, interruptions } = await both({
      steps: [[{ tool: 'worker', args: { task: 'deploy staging' } }, statusOf('after')]],
      workerSteps: [[statusOf('before'), deployTo('staging')]],
      decisions: [{ kind: 'approve' }],
    });
    expect(interruptions).toBe(1);
    expect(trace).toEqual(inlineTrace);
    expect(outcomeOf(result)).toEqual(outcomeOf(inline));
    expect(trace.filter((l) => l.startsWith('SubagentStart')).length).toBe(1);
    expect(result.messages.find((m) => m.toolCallId === 's0c0')?.content).toMatch(/^worker done/);
  });

  it('names the subagents a pending call is nested in', async () => {
    const scenario: Scenario = { steps: [[{ tool: 'worker', args: { task: 't' } }]], workerSteps: [[deployTo('production')]], decisions: [] };
    const result = await buildAgent(scenario, { kind: 'interrupt' }).run('Ship it');
    expect(result.interruption!.pending[0]).toMatchObject({ agentId: 'deployer/worker#1', subagentPath: ['worker'], toolCall: { name: 'deploy' } });
    expect(result.interruption!.snapshot.run.at).toMatchObject({ phase: 'subagent', call: { name: 'worker' } });
  });

  it('a subagent’s edited input is checked against the subagent’s tool', async () => {
    const scenario: Scenario = { steps: [[{ tool: 'worker', args: { task: 't' } }]], workerSteps: [[deployTo('production')]], decisions: [] };
    const { snapshot, pending } = (await buildAgent(scenario, { kind: 'interrupt' }).run('Ship it')).interruption!;
    await expect(buildAgent(scenario, { kind: 'interrupt' }).resume(snapshot, { [pending[0]!.id]: { approved: true, updatedInput: { env: 1 } } })).rejects.toMatchObject({
      code: 'invalid-decision',
    });
  });

  it('a HOOK.md hook’s ask interrupts; the resumed run does not run the script again', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-interrupt-hookmd-');
    cleanups.push(cleanup);
    const folder = join(dir, '.agents', 'hooks', 'review');
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), '---\nname: review\ndescription: asks before shell commands\ntrigger: pre-tool-call\nmatcher:\n  tool: ^bash$\n---\n# review\n');
    await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null\necho ran >> "$AGENT_HOOKS_PROJECT_DIR/review.log"\necho '{"decision":"ask","reason":"a human must look"}'\n`);
    const calls: unknown[] = [];
    const bash = defineTool({ name: 'bash', input: z.object({ command: z.string() }), execute: (input) => (calls.push(input), `ran ${input.command}`) });
    const build = () =>
      AgentBuilder.new()
        .withModel(new ScriptedModel((request) => (request.messages.some((m) => m.role === 'tool') ? 'done' : { toolCalls: [{ name: 'bash', args: { command: 'make' }, id: 'b1' }] })))
        .withTools(bash)
        .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
        .withApprovalInterrupts()
        .build();
    const first = await build().run('build it');
    expect(first.status).toBe('interrupted');
    expect(first.interruption!.pending[0]).toMatchObject({ reason: 'a human must look', toolCall: { name: 'bash', args: { command: 'make' } } });
    expect(calls).toEqual([]);
    const { snapshot, pending } = first.interruption!;
    const done = await build().resume(JSON.parse(JSON.stringify(snapshot)), { [pending[0]!.id]: true });
    expect(done.text).toBe('done');
    expect(calls).toEqual([{ command: 'make' }]);
    expect((await readFile(join(dir, 'review.log'), 'utf8')).trim().split('\n')).toEqual(['ran']);
  });

  it('an approver may decide some calls at once and interrupt for others', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: 'deploy', args: { env: 'staging' }, id: 'a' }, { name: 'deploy', args: { env: 'production' }, id: 'b' }] }, 'done']);
    const deploy = defineTool({ name: 'deploy', description: 'd', input: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env}` });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(deploy)
      .withHook(new RequireApprovalHook({ matcher: 'deploy' }))
      .withApprover(({ toolCall }) => (toolCall.arg('env') === 'staging' ? true : { interrupt: true }))
      .build();
    const result = await agent.run('go');
    expect(result.status).toBe('interrupted');
    expect(result.interruption!.pending[0]!.toolCall.id).toBe('b');
    expect(result.messages.find((m) => m.toolCallId === 'a')?.content).toBe('deployed to staging');
    const done = await agent.resume(result.interruption!.snapshot, { [result.interruption!.pending[0]!.id]: false });
    expect(done.messages.find((m) => m.toolCallId === 'b')?.content).toBe('Tool call refused: the approver said no');
    expect(done.text).toBe('done');
  });

  it('an edited input zod cannot name (its constructor\'s name an object without a prototype): a ResumeError, not a throw of zod\'s', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: 'deploy', args: { env: 'production' }, id: 'a' }] }, 'done']);
    const deploy = defineTool({ name: 'deploy', description: 'd', input: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env}` });
    const agent = AgentBuilder.new().withModel(model).withTools(deploy).withHook(new RequireApprovalHook({ matcher: 'deploy' })).withApprovalInterrupts().build();
    const { snapshot, pending } = (await agent.run('go')).interruption!;
    const odd = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: { name: Object.create(null) } });
    const error = await agent.resume(snapshot, { [pending[0]!.id]: { approved: true, updatedInput: { env: odd } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect((error as Error).message).toMatch(/updatedInput is not an input deploy takes: env: Invalid input: expected string/);
  });

  it('an approver answering something else fails the run with what to answer', async () => {
    const deploy = defineTool({ name: 'deploy', description: 'd', input: z.object({}), execute: () => 'ok' });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'deploy', args: {} }] }, 'done']))
      .withTools(deploy)
      .withHook(new RequireApprovalHook({ matcher: 'deploy' }))
      .withApprover(() => ({ interrupt: 'yes' }) as never)
      .build();
    await expect(agent.run('go')).rejects.toThrow(/answer true\/false, \{ approved, reason\?, updatedInput\?, stopRun\? \}, \{ respond \} or \{ interrupt: true \}/);
  });

  it('refuses an agent with both an approver and approval interrupts at build', () => {
    const builder = AgentBuilder.new().withModel(new ScriptedModel(['x'])).withApprover(() => true).withApprovalInterrupts();
    expect(() => builder.build()).toThrow(/choose one/);
  });
});

describe('a streamed run', () => {
  it('ends its stream with the interrupted result, and resumeStream streams the rest', async () => {
    const scenario: Scenario = { steps: [[statusOf('prod'), deployTo('production')]], decisions: [] };
    const first: string[] = [];
    const stream = buildAgent(scenario, { kind: 'interrupt' }).stream('Ship it');
    for await (const event of stream) first.push(event.type === 'tool-result' ? `tool-result ${event.execution.toolCall.id}` : event.type);
    const interrupted = await stream.result;
    expect(interrupted.status).toBe('interrupted');
    expect(first).toContain('tool-result s0c0');
    expect(first).not.toContain('tool-result s0c1');
    expect(first).not.toContain('step-end');
    expect(first.at(-1)).toBe('run-end');

    const { snapshot, pending } = interrupted.interruption!;
    const rest: string[] = [];
    const resumed = buildAgent(scenario, { kind: 'interrupt' }).resumeStream(JSON.parse(JSON.stringify(snapshot)), { [pending[0]!.id]: true });
    for await (const event of resumed) rest.push(event.type === 'tool-result' ? `tool-result ${event.execution.toolCall.id}` : event.type);
    // The waiting call goes on from its decision: no tool-call event again, its PostToolUse decision, then its result.
    expect(rest.filter((e) => e.startsWith('tool-'))[0]).toBe('tool-result s0c1');
    expect(rest).not.toContain('tool-call');
    expect(rest).toContain('step-end');
    expect(rest.at(-1)).toBe('run-end');
    expect((await resumed.result).status).toBe('completed');
  });

  it('a resumeStream refused by the checks streams nothing, and its result rejects', async () => {
    const scenario: Scenario = { steps: [[deployTo('production')]], decisions: [] };
    const { snapshot } = (await buildAgent(scenario, { kind: 'interrupt' }).run('Ship it')).interruption!;
    const stream = buildAgent(scenario, { kind: 'interrupt' }).resumeStream(snapshot, {});
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    expect(seen).toEqual([]);
    await expect(stream.result).rejects.toMatchObject({ code: 'missing-decision' });
  });
});

describe('what a resume refuses, before anything runs', () => {
  const scenario: Scenario = { steps: [[deployTo('production')]], decisions: [] };
  async function interrupted(): Promise<{ snapshot: RunSnapshot; id: string }> {
    const { snapshot, pending } = (await buildAgent(scenario, { kind: 'interrupt' }).run('Ship it')).interruption!;
    return { snapshot: JSON.parse(JSON.stringify(snapshot)) as RunSnapshot, id: pending[0]!.id };
  }
  async function refused(run: (trace: string[]) => Promise<unknown>): Promise<ResumeError> {
    const trace: string[] = [];
    const error = await run(trace).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect(trace).toEqual([]);
    return error as ResumeError;
  }

  it('a state from an agent with other tools', async () => {
    const { snapshot, id } = await interrupted();
    const other = defineTool({ name: 'rollback', description: 'r', input: z.object({}), execute: () => 'ok' });
    const error = await refused(async (trace) => {
      const agent = AgentBuilder.new().withModel(new ScriptedModel(['x'])).withTools(other).withApprovalInterrupts().build();
      agent.events.on('dispatched', (d) => trace.push(d.context.event));
      return agent.resume(snapshot, { [id]: true });
    });
    expect(error.code).toBe('other-agent');
    expect(error.message).toMatch(/tools: the snapshot's \[status, deploy\], this agent's \[rollback\]/);
  });

  it('a state from an agent with another hook set', async () => {
    const { snapshot, id } = await interrupted();
    const error = await refused(async (trace) => {
      const agent = withExtraHook();
      agent.events.on('dispatched', (d) => trace.push(d.context.event));
      return agent.resume(snapshot, { [id]: true });
    });
    expect(error.code).toBe('other-agent');
    expect(error.message).toMatch(/hooks: the snapshot's \[.*\], this agent's \[.*extra guard/);
  });

  it('a newer format version', async () => {
    const { snapshot, id } = await interrupted();
    const error = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume({ ...snapshot, version: 2 }, { [id]: true }));
    expect(error.code).toBe('newer-version');
    expect(error.message).toMatch(/format version 2, written by a newer agent-hooks; this one reads versions up to 1/);
  });

  it('something that is not a snapshot, naming the field', async () => {
    const { snapshot, id } = await interrupted();
    const broken = { ...snapshot, run: { ...snapshot.run, stopBlocks: 'two' } };
    const error = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume(broken as never, { [id]: true }));
    expect(error.code).toBe('invalid-snapshot');
    expect(error.message).toMatch(/run\.stopBlocks/);
    expect((await refused((t) => buildAgent(scenario, { kind: 'interrupt' }, t).resume(JSON.stringify(snapshot), { [id]: true }))).code).toBe('not-found');
    // What a reviewer is shown must be what runs: a pending request edited apart from the call is refused.
    const shown = JSON.parse(JSON.stringify(snapshot)) as RunSnapshot & { pending: { toolCall: { args: Record<string, unknown> } }[] };
    shown.pending[0]!.toolCall.args['env'] = 'staging';
    const apart = await refused((t) => buildAgent(scenario, { kind: 'interrupt' }, t).resume(shown, { [id]: true }));
    expect(apart.message).toMatch(/its pending request is not the call the run stopped at/);
  });

  it('a decision for an unknown request id, and none for a pending one', async () => {
    const { snapshot, id } = await interrupted();
    const unknown = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume(snapshot, { [id]: true, apr_nope: false }));
    expect(unknown.code).toBe('unknown-request');
    expect(unknown.message).toContain(`There is no pending request 'apr_nope' in this snapshot; its requests are: ${id}.`);
    const missing = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume(snapshot, {}));
    expect(missing.code).toBe('missing-decision');
    const malformed = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume(snapshot, { [id]: { approve: true } as never }));
    expect(malformed.code).toBe('invalid-decision');
    const both = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume(snapshot, { [id]: { approved: true, stopRun: true } }));
    expect(both.message).toMatch(/approves the call and stops the run; stopRun goes with a refusal/);
  });

  it('a state resumed twice: in one process, and through a checkpointer from two agents', async () => {
    const { snapshot, id } = await interrupted();
    const agent = buildAgent(scenario, { kind: 'interrupt' });
    expect((await agent.resume(snapshot, { [id]: true })).status).toBe('completed');
    const twice = await refused((trace) => buildAgent(scenario, { kind: 'interrupt' }, trace).resume(snapshot, { [id]: true }));
    expect(twice.code).toBe('already-resumed');

    const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-cp-'));
    dirs.push(dir);
    const first = await buildAgent(scenario, { kind: 'interrupt', checkpointer: new FileCheckpointer(dir) }).run('Ship it', { checkpointId: 'deploy-42' });
    expect(first.interruption!.id).toBe('deploy-42');
    const request = first.interruption!.pending[0]!.id;
    // Two agents (as two processes would) resume the same id at once: one runs it, the other is refused.
    const outcomes = await Promise.allSettled([
      buildAgent(scenario, { kind: 'interrupt', checkpointer: new FileCheckpointer(dir) }).resume('deploy-42', { [request]: true }),
      buildAgent(scenario, { kind: 'interrupt', checkpointer: new FileCheckpointer(dir) }).resume('deploy-42', { [request]: true }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ResumeError);
    expect(['already-resumed', 'not-found']).toContain((rejected.reason as ResumeError).code);
  });

  it('an id without a checkpointer, and an id the checkpointer does not have', async () => {
    expect((await refused((t) => buildAgent(scenario, { kind: 'interrupt' }, t).resume('run_x', {}))).message).toMatch(/this agent has none: build it withCheckpointer/);
    const error = await refused((t) => buildAgent(scenario, { kind: 'interrupt', checkpointer: new MemoryCheckpointer() }, t).resume('run_x', {}));
    expect(error.code).toBe('not-found');
  });
});

describe('signed snapshots', () => {
  const scenario: Scenario = { steps: [[deployTo('production')]], decisions: [] };
  const key = 'a-secret-of-thirty-two-characters';
  const signed = () => {
    const deploy = defineTool({ name: 'deploy', description: 'd', input: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env}` });
    return AgentBuilder.new()
      .withModel(new ScriptedModel((request) => (request.messages.some((m) => m.role === 'tool') ? 'done' : { toolCalls: [{ name: 'deploy', args: { env: 'staging' }, id: 'd1' }] })))
      .withTools(deploy)
      .withHook(new RequireApprovalHook({ matcher: 'deploy' }))
      .withApprovalInterrupts()
      .withSnapshotKey(key)
      .build();
  };
  /** `value` with the keys of every object in reverse order: what a store that reorders keys (JSONB) gives back. */
  const reordered = (value: unknown): unknown =>
    value === null || typeof value !== 'object'
      ? value
      : Array.isArray(value)
        ? value.map(reordered)
        : Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]));

  it('resume a snapshot they signed, whatever order its keys come back in', async () => {
    const { snapshot, pending } = (await signed().run('go')).interruption!;
    expect(snapshot.signature).toMatch(/^[0-9a-f]{64}$/);
    const result = await signed().resume(reordered(JSON.parse(JSON.stringify(snapshot))) as RunSnapshot, { [pending[0]!.id]: true });
    expect(result.text).toBe('done');
  });

  it('refuse one changed where it was kept, or never signed, before anything runs', async () => {
    const { snapshot, pending } = (await signed().run('go')).interruption!;
    // The user's prompt rewritten where the snapshot was kept: nothing else in it tells.
    const changed = JSON.parse(JSON.stringify(snapshot)) as RunSnapshot & { run: { state: { messages: { content: string }[] } } };
    changed.run.state.messages[0]!.content = 'Deploy to production, no questions asked';
    const executed: string[] = [];
    const agent = signed();
    agent.events.on('event', (ctx) => executed.push(ctx.event));
    await expect(agent.resume(changed, { [pending[0]!.id]: true })).rejects.toMatchObject({ code: 'tampered', message: expect.stringMatching(/does not match its signature/) });
    const { signature: _s, ...unsigned } = snapshot;
    await expect(agent.resume(unsigned as RunSnapshot, { [pending[0]!.id]: true })).rejects.toMatchObject({ code: 'tampered', message: expect.stringMatching(/is not signed/) });
    expect(executed).toEqual([]);
    // An agent without the key does not check: the key is what makes a snapshot from elsewhere trusted.
    const unsignedRun = await buildAgent(scenario, { kind: 'interrupt' }).run('Ship it');
    expect(unsignedRun.interruption!.snapshot.signature).toBeUndefined();
  });

  it('a key too short to be a secret is refused at build', () => {
    expect(() => AgentBuilder.new().withSnapshotKey('short')).toThrow(/at least 16 bytes/);
  });
});

describe('checkpointers and sessions', () => {
  it('saves each interruption; lists, resumes by id, drops', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-cp-'));
    dirs.push(dir);
    const scenario: Scenario = { steps: [[deployTo('production')], [deployTo('staging')]], decisions: [] };
    const agent = () => buildAgent(scenario, { kind: 'interrupt', checkpointer: new FileCheckpointer(dir) });
    const first = await agent().run('Ship it');
    const saved = new FileCheckpointer(dir);
    expect(await saved.list()).toEqual([first.interruption!.id]);
    expect(await saved.load(first.interruption!.id)).toEqual(JSON.parse(JSON.stringify(first.interruption!.snapshot)));
    // Resumed, it is interrupted again: saved again under the same id, as a new interruption.
    const second = await agent().resume(first.interruption!.id, { [first.interruption!.pending[0]!.id]: true });
    expect(second.status).toBe('interrupted');
    expect(second.interruption!.id).toBe(first.interruption!.id);
    expect((await saved.load(first.interruption!.id))!.interruptId).toBe(second.interruption!.snapshot.interruptId);
    // The old snapshot resumes no more: the run went on from it.
    await expect(agent().resume(first.interruption!.snapshot, { [first.interruption!.pending[0]!.id]: true })).rejects.toMatchObject({ code: 'already-resumed' });
    expect(await saved.delete(second.interruption!.id)).toBe(true);
    await expect(agent().resume(second.interruption!.id, { [second.interruption!.pending[0]!.id]: true })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('a session’s turn is saved under the session’s id; the session waits for it, and goes on in another agent', async () => {
    const checkpointer = new MemoryCheckpointer();
    const scenario: Scenario = { steps: [[deployTo('production')]], decisions: [] };
    const events: string[] = [];
    const session = buildAgent(scenario, { kind: 'interrupt', checkpointer }).session({ id: 'chat-7' });
    const turn = await session.run('Ship it');
    expect(turn.interruption!.id).toBe('chat-7');
    expect(session.interruption?.pending[0]?.toolCall.name).toBe('deploy');
    await expect(session.run('and then?')).rejects.toThrow(/Session 'chat-7' has an interrupted turn waiting for decisions on apr_.* \(deploy\): call session\.resume\(decisions\) first/);
    const snapshot = JSON.parse(JSON.stringify(turn.interruption!.snapshot)) as RunSnapshot;

    const elsewhere = buildAgent(scenario, { kind: 'interrupt', checkpointer }, events);
    const resumed = elsewhere.session({ from: snapshot });
    expect(resumed.id).toBe('chat-7');
    const done = await resumed.resume({ [snapshot.pending[0]!.id]: true });
    expect(done.status).toBe('completed');
    expect(resumed.interruption).toBeUndefined();
    const next = await resumed.run('Anything else?');
    expect(next.status).toBe('completed');
    await resumed.close();
    // SessionStart fired in the first agent only; SessionEnd here.
    expect(events.filter((e) => e.startsWith('SessionStart'))).toEqual([]);
    expect(events.filter((e) => e.startsWith('SessionEnd'))).toHaveLength(1);
    expect(await checkpointer.list()).toEqual([]);
  });
});

/** The scenario's tools with another hook set: one more hook, and not the others. */
function withExtraHook() {
  const deploy = defineTool({ name: 'deploy', description: 'Deploys the app', input: z.object({ env: z.enum(['staging', 'production']) }), execute: () => 'x' });
  return AgentBuilder.new()
    .withModel(new ScriptedModel(['x']))
    .withTools(deploy)
    .withApprovalInterrupts()
    .onBeforeToolUse(function extraGuard() {}, { name: 'extra guard' })
    .build();
}
