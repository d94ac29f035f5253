/**
 * The Claude Agent SDK's `hooks` (and `canUseTool`) option, answered by our hook stack.
 *
 * @module
 */
import type { CanUseTool, HookCallback, HookCallbackMatcher, HookEvent as ClaudeHookEvent, HookInput, HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { bridgeAnswer } from '../../bridge/bridge-answer.js';
import { BridgeInputError, readBridgePayload } from '../../bridge/bridge-payload.js';
import { AgentState, HookEvent, ToolCall, type AnyHookContext, type HookOutcome } from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { LoopHooks, type HookSource, type LoopHooksOptions } from '../loop-hooks.js';
import { LOOP_DECISIONS, decisionWithoutInterrupt } from '../../agent/internal/approval-answer.js';

/** Options of {@link claudeAgentHooks}: those of {@link LoopHooks}; with an `approver`, a `canUseTool` is returned too. */
export interface ClaudeAgentHooksOptions extends LoopHooksOptions {
  /**
   * The query's `abortController`, when you have one of your own: pass it here rather than in the query's options
   * (where it would replace the one returned), so that a hook that fails can end the query with an error.
   */
  readonly abortController?: AbortController | undefined;
}

/** What {@link claudeAgentHooks} returns: options of the SDK's `query()`, to spread into its `options`. */
export interface ClaudeAgentHooks {
  /** The SDK's `hooks` option: one callback for each Claude Code event our events map from. */
  readonly hooks: Partial<Record<ClaudeHookEvent, HookCallbackMatcher[]>>;
  /**
   * The SDK's `canUseTool`, when an `approver` was given: Claude Code asks it about every call that needs approval
   * (a hook's `ask`, or its own permission rules), and the approver decides.
   */
  readonly canUseTool?: CanUseTool;
  /**
   * The SDK's `abortController` (yours, when given in the options): aborted when a hook fails the conversation, so
   * that the query rejects rather than ending with a `success` result.
   */
  readonly abortController: AbortController;
}

/** What the model is told of a tool call refused because a hook failed: not the error, which is the caller's. */
export const HOOK_FAILED_REFUSAL = 'Tool call refused: a hook failed, and the run was ended.';

/**
 * The Claude Code events whose callbacks are registered: those of ours that Claude Code has, in its names. The
 * others (PostToolBatch, StopFailure, PermissionDenied, the task, worktree, configuration and file events, …) have no
 * counterpart here and are left alone.
 */
const CLAUDE_EVENTS: readonly ClaudeHookEvent[] = HookEvent.all.flatMap((event) => {
  const name = HookEvent.toDialect(event, 'claude');
  return name === undefined ? [] : [name as ClaudeHookEvent];
});

/** The conversation's metadata and state, under what the payload itself says (its session, its fields). */
function carry(ctx: AnyHookContext, init: { state: AgentState; metadata: Readonly<Record<string, unknown>> }): AnyHookContext {
  let carried = ctx.withState(init.state.with({ sessionId: ctx.state.sessionId ?? init.state.sessionId }));
  for (const [key, value] of Object.entries(init.metadata)) if (!Object.hasOwn(ctx.metadata, key)) carried = carried.withMetadata(key, value);
  return carried;
}

/** Our outcome as the SDK's hook output: Claude Code's own answer, as the bridge writes it. */
function answerOf(outcome: HookOutcome, ctx: AnyHookContext, eventName: string): HookJSONOutput {
  const answer = bridgeAnswer('claude', outcome, ctx, eventName);
  if (answer.stdout.trim() === '') return {};
  const output = JSON.parse(answer.stdout) as HookJSONOutput & { hookSpecificOutput?: Record<string, unknown> };
  const specific = output.hookSpecificOutput;
  // The SDK replaces any tool's result with updatedToolOutput; the command-hook answer's field is for MCP tools only.
  if (specific !== undefined && 'updatedMCPToolOutput' in specific) specific.updatedToolOutput = specific.updatedMCPToolOutput;
  return output;
}

/**
 * The Claude Agent SDK's `hooks` option (and, with an `approver`, its `canUseTool`), answered by our hooks: spread
 * it into the options of `query()`. Each Claude Code event that has a counterpart of ours (PreToolUse,
 * PermissionRequest, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStart, SubagentStop, PreCompact,
 * PostCompact, Notification, SessionStart, SessionEnd) gets one callback, which:
 *
 * 1. reads the SDK's input exactly as `agent-hooks bridge` reads Claude Code's payload, into our context (its
 *    `origin` holds the input, so Claude-style script hooks get it as sent);
 * 2. dispatches it through the stack, with the metadata hooks set on earlier events of the conversation;
 * 3. answers with the hook output Claude Code reads, as the bridge writes it: a block on a tool call is
 *    `permissionDecision: 'deny'` with the reason (the model is told), an ask `'ask'`, a granted call `'allow'`, a
 *    rewritten input `updatedInput`, a block of the Stop gate `decision: 'block'` with the reason (Claude goes on),
 *    a `stop` `continue: false` with `stopReason` (the query ends), `additionalContext` and `systemMessage` in their
 *    fields; a PostToolUse hook's new result is `updatedToolOutput`.
 *
 * A hook that throws (under the default `onHookError: 'fail'`) ends the query as a failure: the callback answers
 * `continue: false` with the error as `stopReason` (and, on a tool call, a deny whose reason the model sees is
 * {@link HOOK_FAILED_REFUSAL}, not the error), rather than letting Claude Code go on as it does when a callback
 * throws; once that answer is on its way, the returned `abortController` is aborted, so the query rejects (the SDK's
 * `AbortError`) after its last messages. `hooks.failure` is the `HookError`, and a `hook-failed` warning and
 * AgentFailed fire. Under `'ignore'` the hook is skipped with a `hook-error` warning; under `'block'` its failure is a
 * deny (a block of the event) with the error as the reason.
 *
 * An `ask` goes to Claude Code's permission flow: PermissionRequest hooks, then `canUseTool`; without an `approver`
 * there is no `canUseTool`, and a headless query refuses the call.
 *
 * `hooks` is a `HookStack`, an `AgentBuilder` (callbacks and HOOK.md sources, with its `onHookError` policy) or a
 * {@link LoopHooks}: pass your own to read its `events`, `systemMessages` and `stopReason`, and to
 * `await hooks.drain()` the asynchronous script hooks before the program exits. One instance serves one conversation.
 *
 * ```ts
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * import { AgentBuilder } from 'agent-hooks';
 * import { LoopHooks, claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';
 *
 * const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ projectDir: process.cwd() }));
 * for await (const message of query({ prompt: 'Clean up the build folder', options: { ...claudeAgentHooks(hooks) } })) {
 *   if (message.type === 'result') console.log(message.subtype);
 * }
 * await hooks.drain();
 * ```
 */
export function claudeAgentHooks(hooks: HookSource, options: ClaudeAgentHooksOptions = {}): ClaudeAgentHooks {
  const loop = LoopHooks.from(hooks, options);
  const abortController = options.abortController ?? new AbortController();
  if (!(abortController instanceof AbortController)) {
    throw new TypeError(`claudeAgentHooks(): options.abortController must be an AbortController, got ${typeof abortController}.`);
  }
  let state = AgentState.create({ agentId: options.agentId ?? 'claude-agent', sessionId: options.sessionId });

  const callback: HookCallback = async (input: HookInput, _toolUseID, { signal }) => {
    let read;
    try {
      read = readBridgePayload('claude', input);
    } catch (error) {
      if (!(error instanceof BridgeInputError)) throw error;
      loop.events.emit('warning', { code: 'unreadable-event', message: `Claude Code sent a ${String(input.hook_event_name)} event that cannot be read: ${error.message}`, event: String(input.hook_event_name) });
      return {};
    }
    const { ctx, eventName } = read;
    let dispatched = ctx;
    let outcome: HookOutcome;
    try {
      outcome = await loop.fire(
        ctx.event,
        (init) => {
          dispatched = carry(ctx, init);
          state = dispatched.state;
          return dispatched;
        },
        signal,
      );
    } catch (error) {
      // The error names the hook and the event (a HookError), or what kept the hooks from loading.
      const reason = messageOf(error);
      if (loop.failure !== undefined && error === loop.failure) {
        // Aborted only once this answer is written: the SDK writes it in the microtasks after this callback resolves,
        // and drops it when the query is already aborted, which would let Claude Code go on as after a callback that
        // threw. setImmediate runs after those microtasks, and before the I/O that could bring the query's end: an
        // abort after the iterator has finished would leave the failure unseen.
        setImmediate(() => abortController.abort(error));
      }
      if (ctx.event === 'PreToolUse') {
        return { continue: false, stopReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: HOOK_FAILED_REFUSAL } };
      }
      if (ctx.event === 'PermissionRequest') {
        return { continue: false, stopReason: reason, hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: HOOK_FAILED_REFUSAL } } };
      }
      return { continue: false, stopReason: reason };
    }
    // Claude Code delivers the context with this answer: it must not wait for a model call of ours.
    loop.takeContext();
    return answerOf(outcome, dispatched, eventName);
  };

  const result: { hooks: ClaudeAgentHooks['hooks']; canUseTool?: CanUseTool; abortController: AbortController } = {
    hooks: Object.fromEntries(CLAUDE_EVENTS.map((name) => [name, [{ hooks: [callback] }]])),
    abortController,
  };
  const approver = options.approver;
  if (approver !== undefined) {
    if (typeof approver !== 'function') throw new TypeError('approver must be a function (request) => boolean | decision.');
    result.canUseTool = async (toolName, input, { signal, toolUseID, decisionReason }) => {
      const toolCall = new ToolCall(toolName, input, toolUseID);
      const answer = await approver({ toolCall, reason: decisionReason ?? `Claude Code asks before running ${toolName}.`, state, signal, allowed: LOOP_DECISIONS });
      const decision = decisionWithoutInterrupt(answer, 'the Claude Agent SDK');
      if (decision.approved) return { behavior: 'allow', updatedInput: decision.updatedInput ?? input, toolUseID };
      return { behavior: 'deny', message: `Tool call refused: ${decision.reason ?? 'the approver said no'}`, interrupt: decision.stopRun === true, toolUseID };
    };
  }
  return result;
}
