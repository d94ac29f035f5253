/**
 * A tool the hooks took out of a step's selection does not run: a call to it — the model's, under mode `none`, or one
 * a hook wrote into the answer — is refused as a call to an unknown tool is, in every path that runs a model's calls
 * (a run, a stream, a subagent's run, a run resumed after an approval interrupt).
 */
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  RequireApprovalHook,
  ScriptedModel,
  ToolNotOfferedError,
  UnknownToolError,
  defineSubagent,
  defineTool,
  type AgentBuilder as Builder,
  type AgentStreamEvent,
  type RunResult,
  type RunSnapshot,
  type ScriptedStep,
  type ToolExecution,
} from 'agent-hooks';
import { recordEvents } from './support.js';

/** A shell that records what it was asked to run: nothing it records may be a refused call. */
const shell = (ran: string[]) =>
  defineTool({ name: 'bash', description: 'Runs a shell command', input: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), `ran ${command}`) });
const reader = (read: string[] = []) =>
  defineTool({ name: 'read', description: 'Reads a file', input: z.object({ path: z.string() }), execute: ({ path }) => (read.push(path), `contents of ${path}`) });

const rmCall = { name: 'bash', args: { command: 'rm -rf /' }, id: 'c1' };
/** A model that calls bash whatever it is offered: as a model that ignores the selection, or a compromised one, does. */
const deleting = (...more: ScriptedStep[]) => new ScriptedModel([{ toolCalls: [rmCall] }, ...more, 'Done.']);

const toolMessages = (result: RunResult) => result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
const notOffered = "Error: Tool 'bash' was not offered this step, so it was not run. Offered tools: read.";

describe('a call to a tool the hooks did not offer for the step', () => {
  it('is refused when BeforeToolSelection narrowed the tools: the tool never runs and the model is told', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(deleting())
      .withTools(shell(ran), reader())
      .onBeforeToolSelection((ctx) => ctx.allowTools('read'))
      .build();
    const result = await agent.run('Clean up');
    expect(ran).toEqual([]);
    expect(result.status).toBe('completed');
    expect(toolMessages(result)).toEqual([notOffered]);
    const execution = result.steps[0]!.executions[0]!;
    expect(execution.isError).toBe(true);
    expect(execution.error).toBeInstanceOf(ToolNotOfferedError);
    expect(execution.error).toMatchObject({ toolName: 'bash', offered: ['read'] });
  });

  it('is refused under tool-choice mode none, where no tool is offered', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(deleting())
      .withTools(shell(ran), reader())
      .onBeforeToolSelection((ctx) => ctx.withToolConfig({ mode: 'none' }))
      .build();
    const result = await agent.run('Just talk');
    expect(ran).toEqual([]);
    expect(toolMessages(result)).toEqual(["Error: Tool 'bash' was not offered this step, so it was not run. Offered tools: (none)."]);
  });

  it('fires what a call to an unknown tool fires — PostToolUseFailure, no PreToolUse — and nothing else', async () => {
    const trace = async (configure: (b: Builder) => Builder, model: ScriptedModel) => {
      const builder = configure(AgentBuilder.new().withModel(model).withTools(shell([]), reader()));
      const recording = recordEvents(builder);
      const blocked: unknown[] = [];
      const agent = builder.build();
      agent.events.on('tool:blocked', (b) => blocked.push(b));
      const result = await agent.run('go');
      const failure = recording.contexts.find((c) => c.event === 'PostToolUseFailure');
      return { events: recording.events, blocked, error: failure?.event === 'PostToolUseFailure' ? failure.error : undefined, result };
    };
    const select = (b: Builder) => b.onBeforeToolSelection((ctx) => ctx.allowTools('read'));
    const removed = await trace(select, deleting());
    const unknown = await trace(select, new ScriptedModel([{ toolCalls: [{ name: 'format_disk', args: {}, id: 'c1' }] }, 'Done.']));
    expect(removed.events).toEqual(unknown.events);
    expect(removed.events).toContain('PostToolUseFailure');
    expect(removed.events).not.toContain('PreToolUse');
    expect(removed.blocked).toEqual(unknown.blocked);
    expect(unknown.error).toBeInstanceOf(UnknownToolError);
    expect(removed.error).toBeInstanceOf(ToolNotOfferedError);
  });

  it('is checked against each step’s own selection: a tool offered again later runs', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [rmCall] }, { toolCalls: [{ name: 'bash', args: { command: 'ls' }, id: 'c2' }] }, 'Done.']))
      .withTools(shell(ran), reader())
      .onBeforeToolSelection((ctx) => (ctx.stepIndex === 0 ? ['read'] : undefined))
      .build();
    const result = await agent.run('go');
    expect(ran).toEqual(['ls']);
    expect(toolMessages(result)).toEqual([notOffered, 'ran ls']);
  });

  it('is refused in a streamed run, whose tool-result says why', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(deleting())
      .withTools(shell(ran), reader())
      .onBeforeToolSelection((ctx) => ctx.allowTools('read'))
      .build();
    const results: ToolExecution[] = [];
    for await (const event of agent.stream('Clean up') as AsyncIterable<AgentStreamEvent>) if (event.type === 'tool-result') results.push(event.execution);
    expect(ran).toEqual([]);
    expect(results.map((e) => e.error)).toEqual([expect.any(ToolNotOfferedError)]);
  });

  it('is refused when an AfterModel hook writes it into the answer', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['Nothing to do.', 'Done.']))
      .withTools(shell(ran), reader())
      .onBeforeToolSelection((ctx) => ctx.allowTools('read'))
      .onAfterModel((ctx) => (ctx.stepIndex === 0 ? ctx.withToolCalls([rmCall]) : undefined))
      .build();
    const result = await agent.run('go');
    expect(ran).toEqual([]);
    expect(toolMessages(result)).toEqual([notOffered]);
  });

  it('is refused when a BeforeModel hook answers with it after taking it out of the request', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['Done.']))
      .withTools(shell(ran), reader())
      .onBeforeModel((ctx) => {
        if (ctx.stepIndex > 0) return undefined;
        const narrowed = ctx.withTools(ctx.request.tools.filter((t) => t.name === 'read'));
        return narrowed.withResponse({ text: '', toolCalls: [rmCall] });
      })
      .build();
    const result = await agent.run('go');
    expect(ran).toEqual([]);
    expect(toolMessages(result)).toEqual([notOffered]);
  });

  it('is refused in a subagent’s run, by the selection of the subagent’s step', async () => {
    const ran: string[] = [];
    const failures: unknown[] = [];
    const worker = defineSubagent({ name: 'worker', tools: [shell(ran), reader()], model: deleting() });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'worker', args: { task: 'clean up' }, id: 'w1' }] }, 'Done.']))
      .withSubagents(worker)
      // Inherited by the subagent: in its run, only read is offered.
      .onBeforeToolSelection((ctx) => (ctx.state.parentAgentId === undefined ? undefined : ctx.allowTools('read')))
      .onToolFailure((ctx) => void failures.push(ctx.error))
      .build();
    const result = await agent.run('Delegate');
    expect(ran).toEqual([]);
    expect(failures).toEqual([expect.any(ToolNotOfferedError)]);
    expect(result.status).toBe('completed');
  });

  it('refuses a subagent taken out of the selection: it never starts', async () => {
    const started: string[] = [];
    const worker = defineSubagent({ name: 'worker', model: new ScriptedModel(['worked']) });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'worker', args: { task: 'anything' }, id: 'w1' }] }, 'Done.']))
      .withTools(reader())
      .withSubagents(worker)
      .onBeforeToolSelection((ctx) => ctx.removeTools('worker'))
      .onSubagentStart((ctx) => void started.push(ctx.name))
      .build();
    const result = await agent.run('Delegate');
    expect(started).toEqual([]);
    expect(toolMessages(result)).toEqual(["Error: Tool 'worker' was not offered this step, so it was not run. Offered tools: read."]);
  });

  it('is refused after a resume: the snapshot keeps what the interrupted step offered', async () => {
    const ran: string[] = [];
    const deploy = defineTool({ name: 'deploy', description: 'Deploys', input: z.object({}), execute: () => (ran.push('deploy'), 'deployed') });
    const build = () =>
      AgentBuilder.new()
        // Answers from the conversation, so that the resuming agent's model goes on where the first one stopped.
        .withModel(new ScriptedModel((request) => (request.messages.some((m) => m.role === 'assistant') ? 'Done.' : { toolCalls: [{ name: 'deploy', args: {}, id: 'd1' }, rmCall] })))
        .withTools(shell(ran), deploy, reader())
        .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: 'Deploy?' }))
        .onBeforeToolSelection((ctx) => ctx.allowTools('deploy', 'read'))
        .withApprovalInterrupts()
        .build();
    const first = await build().run('Ship');
    expect(first.status).toBe('interrupted');
    const snapshot = JSON.parse(JSON.stringify(first.interruption!.snapshot)) as RunSnapshot;
    expect(snapshot.run.at!.response.offered).toEqual(['deploy', 'read']);
    const resumed = await build().resume(snapshot, { [first.interruption!.pending[0]!.id]: true });
    expect(resumed.status).toBe('completed');
    expect(ran).toEqual(['deploy']);
    expect(toolMessages(resumed)).toEqual(['deployed', "Error: Tool 'bash' was not offered this step, so it was not run. Offered tools: deploy, read."]);
  });

  it('reaches no Gemini CLI AfterTool hook, as a call to an unknown tool does not', async () => {
    const project = await mkdtemp(join(tmpdir(), 'agent-hooks-offered-'));
    try {
      const afterTool = { hooks: [{ type: 'command', command: 'cat > "$GEMINI_PROJECT_DIR/after-tool.json"' }] };
      await mkdir(join(project, '.gemini'));
      await writeFile(join(project, '.gemini', 'settings.json'), JSON.stringify({ hooks: { AfterTool: [afterTool] } }));
      const ran: string[] = [];
      const agent = AgentBuilder.new()
        .withModel(deleting())
        .withTools(shell(ran), reader())
        .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
        .onBeforeToolSelection((ctx) => ctx.allowTools('read'))
        .build();
      await agent.run('Clean up');
      expect(ran).toEqual([]);
      await expect(access(join(project, 'after-tool.json'))).rejects.toThrow();
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('leaves every tool offered when no hook narrows the selection', async () => {
    const ran: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'bash', args: { command: 'ls' }, id: 'c1' }] }, 'Done.']))
      .withTools(shell(ran), reader())
      .onBeforeToolSelection(() => undefined)
      .onAfterModel(() => undefined)
      .build();
    await agent.run('go');
    expect(ran).toEqual(['ls']);
  });
});
