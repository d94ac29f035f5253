/**
 * The agent's state as hooks see it.
 *
 * @module
 */
import type { Message } from './message.js';
import type { AgentStep } from './agent-step.js';
import { BRAND, brand, brandKey, isInstance } from './internal/brand.js';
import { frozenList, frozenRecord } from './internal/frozen.js';

/** Free-form key/value data carried by a state or a context. */
export type Metadata = Readonly<Record<string, unknown>>;

/** The fields of an {@link AgentState}, all optional except the agent's id. */
export interface AgentStateInit {
  /** This agent's id. */
  agentId: string;
  /** The parent agent's id, for a subagent. */
  parentAgentId?: string | undefined;
  /** The session's id, when the run belongs to a session. */
  sessionId?: string | undefined;
  /** Completed steps so far. */
  stepCount?: number;
  /** The conversation. */
  messages?: readonly Message[];
  /** The completed steps. */
  steps?: readonly AgentStep[];
  /** Data that lives as long as the run (or the session). */
  metadata?: Metadata;
}

let generatedIds = 0;

const AGENT_STATE = brandKey('AgentState');

/**
 * An immutable snapshot of an agent: ids, step count, conversation and metadata.
 * `with…` methods return a new state; a step hook that returns a state replaces the agent's state.
 */
export class AgentState {
  /** This agent's id. */
  readonly agentId: string;
  /** The parent agent's id, for a subagent. */
  readonly parentAgentId: string | undefined;
  /** The session's id, when the run belongs to a session. */
  readonly sessionId: string | undefined;
  /** Completed steps so far. */
  readonly stepCount: number;
  /** The conversation. */
  readonly messages: readonly Message[];
  /** The completed steps. */
  readonly steps: readonly AgentStep[];
  /** Data that lives as long as the run (or the session). */
  readonly metadata: Metadata;

  static {
    brand(this, AGENT_STATE);
  }

  constructor(init: AgentStateInit) {
    this.agentId = init.agentId;
    this.parentAgentId = init.parentAgentId;
    this.sessionId = init.sessionId;
    this.stepCount = init.stepCount ?? init.steps?.length ?? 0;
    this.messages = frozenList(init.messages);
    this.steps = frozenList(init.steps);
    this.metadata = frozenRecord(init.metadata);
    Object.freeze(this);
  }

  /**
   * Whether `value` is an agent state: of this copy of the package, or of another one (its ESM and CommonJS builds
   * loaded side by side, or another installed version), which hooks and contexts accept just the same.
   */
  static isAgentState(value: unknown): value is AgentState {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AGENT_STATE] === BRAND;
  }

  /** Makes `instanceof AgentState` true for the states of every copy of the package, as {@link AgentState.isAgentState}. */
  static [Symbol.hasInstance]<T>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
  }

  /** A fresh state, with a generated agent id unless one is given. */
  static create(init: Partial<AgentStateInit> = {}): AgentState {
    return new AgentState({ ...init, agentId: init.agentId ?? `agent_${++generatedIds}` });
  }

  /** The last completed step, if any. */
  currentStep(): AgentStep | undefined {
    return this.steps[this.steps.length - 1];
  }

  /** A state with these fields changed. */
  with(changes: Partial<AgentStateInit>): AgentState {
    return new AgentState({
      agentId: this.agentId,
      parentAgentId: this.parentAgentId,
      sessionId: this.sessionId,
      messages: this.messages,
      steps: this.steps,
      metadata: this.metadata,
      ...changes,
      // A new list of steps implies its own count unless a count is given too.
      stepCount: changes.stepCount ?? (changes.steps ? changes.steps.length : this.stepCount),
    });
  }

  /** A state with one metadata key set. */
  withMetadata(key: string, value: unknown): AgentState {
    return this.with({ metadata: { ...this.metadata, [key]: value } });
  }

  /** A state with these messages instead. */
  withMessages(messages: readonly Message[]): AgentState {
    return this.with({ messages });
  }

  /** A state with one more message. */
  withMessage(message: Message): AgentState {
    return this.with({ messages: [...this.messages, message] });
  }
}
