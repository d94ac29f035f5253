/**
 * No double runs: a resumed run keeps a checkpoint after each step it completes, under the same id, so that a run that
 * fails after the approved call ran goes on from there — and the call does not run twice. Real side effects (lines a
 * tool appends to a file) are counted, and each part runs on a newly built agent, as another process would.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, FileCheckpointer, RequireApprovalHook, ResumeError, ScriptedModel, defineTool, type ModelRequest, type RunSnapshot } from 'agent-hooks';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'resume-checkpoints-'));
  dirs.push(dir);
  const log = join(dir, 'deploys.log');
  const deploys = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  /** When set, the model call of the step with this many assistant messages before it throws (once). */
  const failure: { atStep?: number } = {};
  const events: string[] = [];
  const build = (steps: readonly (readonly { name: string; args: Record<string, unknown> }[])[]) => {
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys',
      input: z.object({ env: z.string() }),
      execute: ({ env }) => {
        appendFileSync(log, `${env}\n`);
        return `deployed to ${env}`;
      },
    });
    const model = new ScriptedModel((request: ModelRequest) => {
      const index = request.messages.filter((m) => m.role === 'assistant').length;
      if (failure.atStep === index) {
        failure.atStep = undefined;
        throw new Error('the model provider answered 503');
      }
      const calls = steps[index];
      return calls === undefined || calls.length === 0 ? `done after ${index} steps` : { text: `step ${index}`, toolCalls: calls.map((c, i) => ({ ...c, id: `s${index}c${i}` })) };
    });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(deploy)
      .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: (ctx) => `Deploy to ${String(ctx.toolCall.arg('env'))}?` }))
      .withApprovalInterrupts()
      .withCheckpointer(new FileCheckpointer(join(dir, 'checkpoints')))
      .build();
    agent.events.on('event', (ctx) => events.push(ctx.event));
    return agent;
  };
  return { dir, deploys, failure, events, build, checkpointer: new FileCheckpointer(join(dir, 'checkpoints')) };
}

const deployTo = (env: string) => ({ name: 'deploy', args: { env } });

describe('a resumed run that fails after the approved call ran', () => {
  it('keeps a checkpoint after the step, and going on from it does not run the call again', async () => {
    const { deploys, failure, events, build, checkpointer } = await setup();
    const steps = [[deployTo('production')]];
    const first = await build(steps).run('Ship it', { checkpointId: 'release-1' });
    expect(first.status).toBe('interrupted');
    const [request] = first.interruption!.pending;

    // The deploy runs; then the next step's model call fails: the run fails.
    failure.atStep = 1;
    await expect(build(steps).resume('release-1', { [request!.id]: true })).rejects.toThrow('the model provider answered 503');
    expect(deploys()).toEqual(['production']);

    // What is left is the checkpoint after the step that ran the deploy: nothing waits, the run goes on at step 1.
    const kept = (await checkpointer.load('release-1')) as RunSnapshot;
    expect(kept.pending).toEqual([]);
    expect(kept.run.nextStep).toBe(1);
    expect(kept.run.at).toBeUndefined();
    expect(kept.run.state.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['deployed to production']);

    // Resumed again with the decisions of the snapshot that was resumed: told so, and how to go on; nothing runs.
    const again = await build(steps)
      .resume('release-1', { [request!.id]: true })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ResumeError);
    expect(again).toMatchObject({ code: 'already-resumed', message: expect.stringContaining(`agent.resume('release-1', {})`) });
    expect(deploys()).toEqual(['production']);
    expect((await checkpointer.load('release-1'))?.run.nextStep).toBe(1);

    // Another process goes on from it: no deploy again, and the run ends as it would have.
    events.length = 0;
    const result = await build(steps).resume('release-1', {});
    expect(result.status).toBe('completed');
    expect(result.text).toBe('done after 1 steps');
    expect(deploys()).toEqual(['production']);
    expect(events[0]).toBe('BeforeStep');
    for (const start of ['SessionStart', 'ExecutionStart', 'UserPromptSubmit', 'PreToolUse']) expect(events).not.toContain(start);
    // Ended well: the checkpoint is removed.
    expect(await checkpointer.list()).toEqual([]);
    expect(result.steps.map((s) => s.index)).toEqual([0, 1]);
  });

  it('a copy of the snapshot taken before the resume is refused: it would run the deploy again', async () => {
    const { deploys, failure, build } = await setup();
    const steps = [[deployTo('production')]];
    const first = await build(steps).run('Ship it', { checkpointId: 'release-2' });
    const copy = JSON.parse(JSON.stringify(first.interruption!.snapshot)) as RunSnapshot;
    failure.atStep = 1;
    await expect(build(steps).resume('release-2', { [copy.pending[0]!.id]: true })).rejects.toThrow('503');
    const error = await build(steps)
      .resume(copy, { [copy.pending[0]!.id]: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect((error as ResumeError).code).toBe('already-resumed');
    expect(deploys()).toEqual(['production']);
  });

  it('keeps one checkpoint per step, the latest; an interruption after it replaces it; a run that ends removes it', async () => {
    const { deploys, failure, build, checkpointer } = await setup();
    const steps = [[deployTo('a')], [deployTo('b')]];
    const first = await build(steps).run('Ship it', { checkpointId: 'release-3' });
    // Resumed: deploy a; then step 1 asks for b: interrupted again, saved under the same id (not a step checkpoint).
    const second = await build(steps).resume('release-3', { [first.interruption!.pending[0]!.id]: true });
    expect(second.status).toBe('interrupted');
    const saved = (await checkpointer.load('release-3'))!;
    expect(saved.pending.map((p) => p.toolCall.args)).toEqual([{ env: 'b' }]);
    // Resumed again: deploy b, then the model fails at the next step.
    failure.atStep = 2;
    await expect(build(steps).resume('release-3', { [saved.pending[0]!.id]: true })).rejects.toThrow('503');
    expect(((await checkpointer.load('release-3')) as RunSnapshot).run.nextStep).toBe(2);
    const done = await build(steps).resume('release-3', {});
    expect(done.status).toBe('completed');
    expect(deploys()).toEqual(['a', 'b']);
    expect(await checkpointer.list()).toEqual([]);
  });
});
