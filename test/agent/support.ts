/**
 * Small helpers for the agent runtime tests: real tools, scripted model steps, and a recorder of lifecycle events.
 */
import { vi } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  CompactHookContext,
  ExecutionHookContext,
  FailureHookContext,
  HookEvent,
  NotificationHookContext,
  PromptHookContext,
  ScriptedModel,
  SessionHookContext,
  StepHookContext,
  ModelHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolBatchHookContext,
  ToolHookContext,
  defineTool,
  type AgentWarning,
  type AnyHookContext,
  type HookEventName,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ScriptedStep,
} from 'agent-hooks';

/** The context class each canonical event's hooks must receive. */
export const CONTEXT_CLASS: Record<HookEventName, abstract new (...args: never[]) => unknown> = {
  SessionStart: SessionHookContext,
  SessionEnd: SessionHookContext,
  ExecutionStart: ExecutionHookContext,
  UserPromptSubmit: PromptHookContext,
  BeforeStep: StepHookContext,
  BeforeModel: ModelHookContext,
  BeforeToolSelection: ModelHookContext,
  AfterModel: ModelHookContext,
  PreToolUse: ToolHookContext,
  PermissionRequest: ToolHookContext,
  PermissionDenied: ToolHookContext,
  PostToolUse: ToolHookContext,
  PostToolUseFailure: ToolHookContext,
  PostToolBatch: ToolBatchHookContext,
  AfterStep: StepHookContext,
  SubagentStart: SubagentHookContext,
  SubagentStop: StopHookContext,
  PreCompact: CompactHookContext,
  PostCompact: CompactHookContext,
  Stop: StopHookContext,
  StopFailure: FailureHookContext,
  AfterStop: StopHookContext,
  AfterAgent: StopHookContext,
  ExecutionEnd: ExecutionHookContext,
  AgentFailed: FailureHookContext,
  Notification: NotificationHookContext,
};

/** What {@link recordEvents} collects. */
export interface Recording {
  /**
   * Every event a hook saw, in order. An event whose context is not of the expected class is written
   * `Event(wrong context: Class)`, so comparing with an expected sequence also checks the classes.
   */
  readonly events: string[];
  /** The contexts, in the same order. */
  readonly contexts: AnyHookContext[];
  /** The events of a run, `child:`-prefixed when the context belongs to a subagent (its state has a parent). */
  labelled(): string[];
}

/**
 * Registers one `addHook(event, cb)` per canonical event (from `HookEvent.all`) that records the event and checks the
 * context class. Pass `log` to share the list with other recorders (a model that logs its calls, a tool, …).
 */
export function recordEvents(builder: AgentBuilder, log: string[] = []): Recording {
  const contexts: AnyHookContext[] = [];
  const own: string[] = [];
  for (const event of HookEvent.all) {
    builder.addHook(event, (ctx: AnyHookContext) => {
      const cls = CONTEXT_CLASS[event];
      const ok = ctx instanceof cls && ctx.event === event;
      const entry = ok ? ctx.event : `${ctx.event}(wrong context: ${(ctx as object).constructor.name})`;
      log.push(entry);
      own.push(entry);
      contexts.push(ctx);
    });
  }
  return {
    events: log,
    contexts,
    labelled: () => contexts.map((c, i) => (c.state.parentAgentId !== undefined ? `child:${own[i]}` : own[i]!)),
  };
}

/** The `echo` tool: returns `echo: <text>`. `execute` is a spy. */
export function echoTool(name = 'echo') {
  const execute = vi.fn((input: { text: string }) => `echo: ${input.text}`);
  const tool = defineTool({
    name,
    description: 'Echoes its text',
    input: z.object({ text: z.string() }),
    execute,
  });
  return { tool, execute };
}

/** The `fail` tool: always throws `Error(message)`. `execute` is a spy. */
export function failTool(message = 'tool exploded', name = 'fail') {
  const error = new Error(message);
  const execute = vi.fn((_input: Record<string, unknown>): unknown => {
    throw error;
  });
  const tool = defineTool({ name, description: 'Always fails', input: z.object({}), execute });
  return { tool, execute, error };
}

/** A tool with two string arguments `a` and `b`, returning them joined. `execute` is a spy. */
export function pairTool(name = 'pair') {
  const execute = vi.fn((input: { a: string; b: string }) => `${input.a}+${input.b}`);
  const tool = defineTool({ name, input: z.object({ a: z.string(), b: z.string() }), execute });
  return { tool, execute };
}

/** A model step making tool calls: `calls('echo', { text: 'hi' })` or several `[name, args]` pairs. */
export function callStep(name: string, args: Record<string, unknown> = {}, id?: string): ModelResponse {
  return { toolCalls: [{ name, args, ...(id !== undefined ? { id } : {}) }] };
}

/** A model step making several tool calls at once. */
export function callsStep(...calls: readonly [name: string, args: Record<string, unknown>, id?: string][]): ModelResponse {
  return { toolCalls: calls.map(([name, args, id]) => ({ name, args, ...(id !== undefined ? { id } : {}) })) };
}

/** A ScriptedModel playing `steps`, which also writes `model` into `log` at each call. */
export function loggingModel(log: string[], steps: readonly ScriptedStep[]): ScriptedModel {
  return new ScriptedModel((_request, call) => {
    log.push('model');
    const step = steps[call];
    if (step === undefined) throw new Error(`no step ${call + 1}`);
    return step;
  });
}

/** The tool messages of a request (or a message list). */
export function toolMessages(source: ModelRequest | readonly Message[]): Message[] {
  const messages = 'messages' in source ? source.messages : source;
  return messages.filter((m) => m.role === 'tool');
}

/** The last message of a request. */
export function lastMessage(request: ModelRequest | undefined): Message | undefined {
  return request?.messages[request.messages.length - 1];
}

/** Collects every `warning` the agent emits. */
export function collectWarnings(agent: { events: { on(event: 'warning', fn: (w: AgentWarning) => void): unknown } }): AgentWarning[] {
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  return warnings;
}

/** The run sequence of a plain run with one tool call, then a text answer. */
export const ONE_TOOL_RUN = [
  'ExecutionStart',
  'UserPromptSubmit',
  'BeforeStep',
  'BeforeModel',
  'BeforeToolSelection',
  'AfterModel',
  'PreToolUse',
  'PostToolUse',
  'PostToolBatch',
  'AfterStep',
  'BeforeStep',
  'BeforeModel',
  'BeforeToolSelection',
  'AfterModel',
  'AfterStep',
  'Stop',
  'AfterStop',
  'AfterAgent',
  'ExecutionEnd',
] as const;

/** A builder for an agent that makes one `echo` call, then answers 'Done.'; and the echo tool, to inspect. */
export function oneCall() {
  const echo = echoTool();
  const builder = AgentBuilder.new()
    .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
    .withTools(echo.tool);
  return { echo, builder };
}
