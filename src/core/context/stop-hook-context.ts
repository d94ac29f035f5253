/**
 * The context of the stop events.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The events about an agent stopping. */
export type StopEventName = 'Stop' | 'SubagentStop' | 'AfterStop' | 'AfterAgent';

/**
 * Why the agent is stopping: the model made no tool call, a tool call was refused and the run ends, or the step limit
 * was reached (the reasons the Stop gate sees); or, for AfterStop and AfterAgent only, a hook halted the run or
 * rejected the prompt.
 */
export type StopReason = 'no_tool_calls' | 'tool_rejected' | 'max_steps' | 'hook_stop' | 'prompt_blocked';

/** The fields of a {@link StopHookContext}. */
export interface StopHookContextInit extends HookContextInit {
  /** Why the agent is stopping. */
  stopReason: StopReason;
  /** Steps completed so far; defaults to the state's step count. */
  stepCount?: number;
  /** The assistant's last text. */
  finalMessage?: string | undefined;
  /** True when the agent is already continuing because a Stop hook blocked. */
  stopHookActive?: boolean;
  /** How many times Stop hooks have kept the agent working in this run. */
  continuationCount?: number;
  /** For SubagentStop: the subagent's name. */
  subagentName?: string | undefined;
  /** For SubagentStop: the subagent's type. */
  subagentType?: string | undefined;
}

/**
 * Stop (the quality gate), SubagentStop, AfterStop and AfterAgent. On Stop and SubagentStop, `block(reason)` keeps the
 * agent working with the reason as feedback; `stopHookActive` then tells the next Stop dispatch that it is a
 * continuation, so a gate can avoid looping forever.
 */
export class StopHookContext<E extends StopEventName = StopEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('StopHookContext'));
  }

  /** Why the agent is stopping. */
  readonly stopReason: StopReason;
  /** Steps completed so far. */
  readonly stepCount: number;
  /** The assistant's last text. */
  readonly finalMessage: string | undefined;
  /** True when the agent is already continuing because a Stop hook blocked. */
  readonly stopHookActive: boolean;
  /** How many times Stop hooks have kept the agent working in this run. */
  readonly continuationCount: number;
  /** For SubagentStop: the subagent's name. */
  readonly subagentName: string | undefined;
  /** For SubagentStop: the subagent's type. */
  readonly subagentType: string | undefined;

  constructor(event: E, init: StopHookContextInit) {
    super(event, init);
    this.stopReason = init.stopReason;
    this.stepCount = init.stepCount ?? this.state.stepCount;
    this.finalMessage = init.finalMessage;
    this.continuationCount = init.continuationCount ?? 0;
    this.stopHookActive = init.stopHookActive ?? this.continuationCount > 0;
    this.subagentName = init.subagentName;
    this.subagentType = init.subagentType;
    Object.freeze(this);
  }

  /** A Stop context. */
  static stop(init: Omit<StopHookContextInit, 'subagentName' | 'subagentType'>): StopHookContext<'Stop'> {
    return new StopHookContext('Stop', init);
  }

  /** A SubagentStop context. */
  static subagentStop(init: StopHookContextInit): StopHookContext<'SubagentStop'> {
    return new StopHookContext('SubagentStop', init);
  }

  /**
   * Whether this is the agent's own Stop gate. False on SubagentStop (a subagent's gate) and on the AfterStop and
   * AfterAgent observers, which fire once the agent has stopped and cannot keep it working.
   */
  isStop(): this is StopHookContext<'Stop'> {
    return this.event === 'Stop';
  }

  /** Whether this is SubagentStop: a subagent, not the agent itself, is about to stop. */
  isSubagentStop(): this is StopHookContext<'SubagentStop'> {
    return this.event === 'SubagentStop';
  }

  override get subject(): string | undefined {
    return this.subagentType ?? this.subagentName;
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      stopReason: this.stopReason,
      stepCount: this.stepCount,
      ...(this.finalMessage !== undefined ? { finalMessage: this.finalMessage } : {}),
      stopHookActive: this.stopHookActive,
      continuationCount: this.continuationCount,
      ...(this.subagentName !== undefined ? { subagentName: this.subagentName } : {}),
      ...(this.subagentType !== undefined ? { subagentType: this.subagentType } : {}),
    };
  }
}
