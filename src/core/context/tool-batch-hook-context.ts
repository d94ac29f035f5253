/**
 * The context of PostToolBatch.
 *
 * @module
 */
import { ToolCall } from '../tool-call.js';
import { ToolExecution } from '../tool-execution.js';
import type { AgentStep } from '../agent-step.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The fields of a {@link ToolBatchHookContext}. */
export interface ToolBatchHookContextInit extends HookContextInit {
  /** 0-based index of the step whose tool calls these are. */
  stepIndex: number;
  /** Every tool call the model made in the step, in order. */
  toolCalls: readonly ToolCall[];
  /** What each call that was run or refused produced, in order. */
  executions: readonly ToolExecution[];
}

/**
 * PostToolBatch: every tool call of one step has resolved (run, refused or failed), and the model has not been called
 * again yet. PostToolUse runs once per call; PostToolBatch once per step, with the whole batch. Hooks may add context
 * for the next model call, or block to end the run there (Claude Code ends the turn).
 */
export class ToolBatchHookContext extends HookContextBase<'PostToolBatch'> {
  static {
    brand(this, brandKey('ToolBatchHookContext'));
  }

  /** 0-based index of the step whose tool calls these are. */
  readonly stepIndex: number;
  /** Every tool call the model made in the step, in order. */
  readonly toolCalls: readonly ToolCall[];
  /**
   * What each call produced, in order: its result, its error, or its refusal (a `ToolRefusedError`). A call the run
   * never got to (an earlier call of the step ended the run) has none.
   */
  readonly executions: readonly ToolExecution[];

  constructor(init: ToolBatchHookContextInit) {
    super('PostToolBatch', init);
    if (!Number.isInteger(init.stepIndex) || init.stepIndex < 0) {
      throw new RangeError(`stepIndex must be an integer ≥ 0, got ${init.stepIndex}.`);
    }
    if (!init.toolCalls.every((c) => ToolCall.isToolCall(c))) throw new TypeError('A PostToolBatch context needs ToolCalls.');
    if (!init.executions.every((e) => ToolExecution.isToolExecution(e))) throw new TypeError('A PostToolBatch context needs ToolExecutions.');
    this.stepIndex = init.stepIndex;
    this.toolCalls = Object.freeze([...init.toolCalls]);
    this.executions = Object.freeze([...init.executions]);
    Object.freeze(this);
  }

  /** The PostToolBatch context of a completed step that made tool calls. */
  static afterBatch(step: AgentStep, init: HookContextInit = {}): ToolBatchHookContext {
    return new ToolBatchHookContext({ state: init.state, metadata: init.metadata, subagent: init.subagent, stepIndex: step.index, toolCalls: step.toolCalls, executions: step.executions });
  }

  /** What `call` (or the call with this id) produced, or `undefined` when it was never run. */
  executionOf(call: ToolCall | string): ToolExecution | undefined {
    const id = typeof call === 'string' ? call : call.id;
    return this.executions.find((e) => e.toolCall.id === id);
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      stepIndex: this.stepIndex,
      toolCalls: this.toolCalls.map((c) => c.toJSON()),
      executions: this.executions.map((e) => e.toJSON()),
    };
  }
}
