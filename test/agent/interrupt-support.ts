/**
 * One agent built the same way in every test (and in the child processes of the cross-process test) for approvals
 * that interrupt a run: tools, a subagent, hooks on every event, a model that answers from the conversation (as a
 * stateless model does), and the trace of what the hooks saw.
 */
import { z } from 'zod';
import {
  AgentBuilder,
  HookOutcome,
  RequireApprovalHook,
  ScriptedModel,
  ToolCallLimitHook,
  defineSubagent,
  defineTool,
  type Agent,
  type ApprovalDecision,
  type Approver,
  type Checkpointer,
  type ModelRequest,
  type RunResult,
} from 'agent-hooks';

/** One tool call the model makes. */
export interface ScriptCall {
  readonly tool: 'status' | 'deploy' | 'worker';
  readonly args: Record<string, unknown>;
}

/** What a reviewer decides on one request. */
export type ScriptDecision =
  | { readonly kind: 'approve' }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'edit'; readonly input: Record<string, unknown> }
  | { readonly kind: 'stop'; readonly reason: string };

/** A run: the model's steps (each a batch of calls; then a final text), the worker subagent's, the decisions in order. */
export interface Scenario {
  readonly steps: readonly (readonly ScriptCall[])[];
  readonly workerSteps?: readonly (readonly ScriptCall[])[];
  readonly decisions: readonly ScriptDecision[];
}

/** A decision as the agent takes it. */
export function decisionOf(d: ScriptDecision): ApprovalDecision {
  switch (d.kind) {
    case 'approve':
      return { approved: true };
    case 'deny':
      return { approved: false, reason: d.reason };
    case 'edit':
      return { approved: true, updatedInput: d.input };
    case 'stop':
      return { approved: false, reason: d.reason, stopRun: true };
  }
}

/** A model that answers by how far the conversation has gone: a new process's model goes on where the last one was. */
function scripted(steps: readonly (readonly ScriptCall[])[], final: string, prefix: string): ScriptedModel {
  return new ScriptedModel((request: ModelRequest) => {
    const index = request.messages.filter((m) => m.role === 'assistant').length;
    const calls = steps[index];
    if (calls === undefined || calls.length === 0) return `${final} (after ${index} steps)`;
    return {
      text: `step ${index}`,
      toolCalls: calls.map((c, i) => ({ name: c.tool, args: c.args, id: `${prefix}${index}c${i}` })),
      usage: { inputTokens: 10 + index, outputTokens: 2, totalTokens: 12 + index },
    };
  });
}

const status = defineTool({ name: 'status', description: 'Status of an environment', input: z.object({ env: z.string() }), execute: ({ env }) => ({ env, healthy: true }) });
const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  execute: ({ env }) => `deployed to ${env}`,
});

/** How the agent decides: an approver that answers inline, or interrupts. */
export type Mode =
  | { readonly kind: 'inline'; readonly decisions: readonly ScriptDecision[]; readonly batch?: boolean }
  | { readonly kind: 'interrupt'; readonly checkpointer?: Checkpointer; readonly batch?: boolean }
  | { readonly kind: 'approver'; readonly approver: Approver; readonly batch?: boolean };

/** The agent, built the same way wherever it is built. */
export function buildAgent(scenario: Scenario, mode: Mode, trace?: string[], projectDir?: string): Agent {
  const worker = defineSubagent({
    name: 'worker',
    description: 'Does a task with its own tools',
    tools: [status, deploy],
    model: scripted(scenario.workerSteps ?? [], 'worker done', 'w'),
  });
  const builder = AgentBuilder.new()
    .withModel(scripted(scenario.steps, 'done', 's'))
    .withTools(status, deploy)
    .withSubagents(worker)
    .withOptions({ name: 'deployer' })
    .withHook(new RequireApprovalHook({ matcher: projectDir === undefined ? 'deploy' : 'no-such-tool', reason: (ctx) => `Deploy to ${String(ctx.toolCall.arg('env'))}?` }))
    .withHook(new ToolCallLimitHook({ limit: 50 }))
    .onPermissionDenied((ctx) => ((ctx.permissionReason ?? '').includes('retry') ? ctx.withRetry() : undefined))
    .onExecutionStart((ctx) => ctx.withMetadata('started', 'yes'))
    .onAfterToolUse((ctx) => HookOutcome.proceed(ctx.withMetadata(`seen.${ctx.toolCall.id}`, ctx.toolCall.name)))
    // Context for the model and a message for the user from the hooks of the waiting call: carried across the interruption.
    .onPermissionRequest((ctx) => HookOutcome.proceed(undefined, { additionalContext: `reviewing ${ctx.toolCall.id}`, systemMessage: `asked about ${ctx.toolCall.id}` }))
    .onStop((ctx) => (ctx.continuationCount === 0 && (ctx.finalMessage ?? '').startsWith('done') ? HookOutcome.block('Say it once more.') : undefined));
  // With a project: the ask comes from a Claude Code command hook in its .claude/settings.json, run as a process.
  if (projectDir !== undefined) builder.withHooksFrom({ projectDir, trust: 'all', homeDir: false, userDir: false, claude: true });
  const batch = { batch: mode.batch === true };
  if (mode.kind === 'inline') {
    let asked = 0;
    builder.withApprover(() => {
      const d = mode.decisions[asked++];
      if (d === undefined) throw new Error(`The approver was asked ${asked} times; the scenario decides ${mode.decisions.length}.`);
      return decisionOf(d);
    }, batch);
  } else if (mode.kind === 'approver') {
    builder.withApprover(mode.approver, batch);
  } else {
    builder.withApprovalInterrupts(batch);
    if (mode.checkpointer !== undefined) builder.withCheckpointer(mode.checkpointer);
  }
  const agent = builder.build();
  if (trace !== undefined) agent.events.on('dispatched', ({ context, outcome }) => trace.push(describe(context, outcome.type)));
  return agent;
}

/** One line of the trace: the event, what the hooks answered, and what they saw of it. */
function describe(context: object, outcome: string): string {
  const c = context as Record<string, unknown> & { event: string };
  const parts: string[] = [c.event, outcome];
  const state = c['state'] as { agentId: string; messages: readonly unknown[]; stepCount: number } | undefined;
  if (state !== undefined) parts.push(`${state.agentId} m${state.messages.length} s${state.stepCount}`);
  const call = c['toolCall'] as { id: string; name: string; args: unknown } | undefined;
  if (call !== undefined) parts.push(`${call.id} ${call.name} ${JSON.stringify(call.args)}`);
  const execution = c['execution'] as { isError: boolean; result: unknown; errorMessage?: string } | undefined;
  if (execution !== undefined) parts.push(execution.isError ? `error ${execution.errorMessage}` : `result ${JSON.stringify(execution.result)}`);
  for (const key of ['stepIndex', 'stopReason', 'permissionReason', 'continuationCount', 'task', 'message'] as const) {
    if (c[key] !== undefined) parts.push(`${key}=${JSON.stringify(c[key])}`);
  }
  return parts.join(' | ');
}

/** What a run ended with, without what differs between two runs of the same thing (durations, timings). */
export function outcomeOf(result: RunResult): unknown {
  return JSON.parse(
    JSON.stringify({
      status: result.status,
      text: result.text,
      stopReason: result.stopReason,
      reason: result.reason,
      messages: result.messages,
      steps: result.steps.map((s) => ({
        index: s.index,
        text: s.text,
        toolCalls: s.toolCalls,
        executions: s.executions.map((e) => ({ call: e.toolCall, isError: e.isError, result: e.result, error: e.isError ? e.errorMessage : undefined })),
      })),
      systemMessages: result.systemMessages,
      usage: result.usage,
      metadata: result.metadata,
    }),
  );
}

/** Runs `scenario` by interrupting at every approval and resuming each time on a newly built agent, from JSON. */
export async function runInterrupted(
  scenario: Scenario,
  trace: string[],
  resumeWith: (snapshot: unknown, decisions: Record<string, ApprovalDecision>, trace: string[]) => Promise<RunResult> = async (snapshot, decisions, t) =>
    buildAgent(scenario, { kind: 'interrupt' }, t).resume(snapshot as never, decisions),
): Promise<{ result: RunResult; interruptions: number }> {
  let result = await buildAgent(scenario, { kind: 'interrupt' }, trace).run('Ship it');
  let interruptions = 0;
  while (result.status === 'interrupted') {
    const interruption = result.interruption!;
    if (interruption.pending.length !== 1) throw new Error(`expected one pending request, got ${interruption.pending.length}`);
    const decision = scenario.decisions[interruptions++];
    if (decision === undefined) throw new Error('more interruptions than decisions');
    const json = JSON.parse(JSON.stringify(interruption.snapshot));
    result = await resumeWith(json, { [interruption.pending[0]!.id]: decisionOf(decision) }, trace);
  }
  return { result, interruptions };
}
