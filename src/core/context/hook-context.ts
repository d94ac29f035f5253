/**
 * What every lifecycle context shares.
 *
 * @module
 */
import type { HookEventName } from '../events.js';
import { AgentState, type Metadata } from '../agent-state.js';
import { brand, brandKey, isInstance } from '../internal/brand.js';
import { frozenRecord } from '../internal/frozen.js';
import type { AnyHookContext } from './any-hook-context.js';

/** The fields every context is built from. */
export interface HookContextInit {
  /** The agent's state; a fresh one is made when omitted. */
  state?: AgentState;
  /** Metadata of this dispatch. */
  metadata?: Metadata;
  /** The subagent whose run the event happens in; omitted in the top-level agent. */
  subagent?: SubagentRef | undefined;
}

/** The subagent a context's event happened in: the name the model calls it by, and its type. */
export interface SubagentRef {
  /** Its name (the tool the model calls it by). */
  readonly name: string;
  /** Its type, as SubagentStart and SubagentStop matchers see it. */
  readonly type: string;
}

/**
 * Where a context came from when another agent sent it (through `agent-hooks bridge`): which agent, the event as it
 * named it, and its payload exactly as sent. A hook can read fields only that agent has (`transcript_path`,
 * `permission_mode`, …) from {@link ContextOrigin.payload}, and tell a field the agent sent from one it left out: a
 * context's typed fields hold neutral values (`stepCount` 0, no `finalMessage`) for what the agent did not send, and
 * {@link ContextOrigin.fields} lists what it did send.
 */
export interface ContextOrigin {
  /** The agent that sent the event: `claude`, `codex`, `gemini`, `copilot`, `vscode` or `cursor`. */
  readonly agent: string;
  /** The event as the agent named it (`PreToolUse`, `preToolUse`, `BeforeTool`, …). */
  readonly eventName: string;
  /** The payload as the agent sent it. */
  readonly payload: Readonly<Record<string, unknown>>;
  /**
   * The fields the agent sent, under the snake_case names the context was read from (`tool_name`, `tool_input`,
   * `stop_hook_active`, `final_message`, …): a field missing here was not sent, whatever the context holds for it.
   */
  readonly fields: ReadonlySet<string>;
}

/**
 * The base of every lifecycle context: the event, the agent's state and metadata. Contexts are immutable; every
 * `with…` method returns a copy of the same class.
 *
 * Metadata set with {@link HookContextBase.withMetadata} travels to the later hooks of the same dispatch, and the
 * runtime carries it to the later events of the same run. {@link HookContextBase.get} reads the context's metadata
 * first, then the state's.
 */
export abstract class HookContextBase<E extends HookEventName = HookEventName> {
  // Declared, not defined as class fields: the constructor assigns them. A field initializer here would run for a
  // dozen subclasses' objects, which makes its property definitions megamorphic, and slow every context made.
  /** The lifecycle event: the discriminant of {@link AnyHookContext}. */
  declare readonly event: E;
  /** The agent's state when the event fired. */
  declare readonly state: AgentState;
  /** Metadata of this dispatch (and, through the runtime, of the run). */
  declare readonly metadata: Metadata;
  /**
   * Set when another agent sent this event (through the bridge): which agent, and what it sent. `undefined` for the
   * events of an agent built here. Kept by every `with…` copy.
   */
  declare readonly origin: ContextOrigin | undefined;
  /**
   * The subagent whose run fired this event (its tool calls, its stop gate), `undefined` in the top-level agent. Kept
   * by every `with…` copy.
   */
  declare readonly subagent: SubagentRef | undefined;

  static {
    brand(this, brandKey('HookContextBase'));
  }

  /**
   * Whether `value` is a context of this class: `HookContextBase.isContext(value)` for any context,
   * `ToolHookContext.isContext(value)` for a tool event's. A context of another copy of the package (its ESM and
   * CommonJS builds loaded side by side, or another installed version) counts: the stack takes it from a hook, and uses
   * it through its public fields and its own `with…` methods.
   */
  static isContext<T extends HookContextBase>(this: { readonly prototype: T }, value: unknown): value is HookContextBase extends T ? AnyHookContext : T {
    return isInstance(this, value);
  }

  /**
   * Makes `instanceof` work across copies of the package as {@link HookContextBase.isContext} does: a StopHookContext
   * is no ToolHookContext, whichever copy made it; for a subclass of yours it keeps its usual meaning.
   */
  static [Symbol.hasInstance]<T extends HookContextBase>(this: { readonly prototype: T }, value: unknown): value is HookContextBase extends T ? AnyHookContext : T {
    return isInstance(this, value);
  }

  protected constructor(event: E, init: HookContextInit) {
    this.event = event;
    this.state = init.state ?? AgentState.create();
    this.metadata = frozenRecord(init.metadata);
    // Set only in a subagent, so the contexts of the top-level agent keep the shape they have always had.
    if (init.subagent !== undefined) this.subagent = init.subagent;
  }

  /** A metadata value: the context's own, else the state's, else `fallback`. */
  get<T = unknown>(key: string, fallback?: T): T {
    if (Object.hasOwn(this.metadata, key)) return this.metadata[key] as T;
    if (Object.hasOwn(this.state.metadata, key)) return this.state.metadata[key] as T;
    return fallback as T;
  }

  /** Whether the context or the state has this metadata key. */
  has(key: string): boolean {
    return Object.hasOwn(this.metadata, key) || Object.hasOwn(this.state.metadata, key);
  }

  /** A copy with another agent state. */
  withState(state: AgentState): this {
    return this.copyWith({ state } as Partial<this>);
  }

  /** A copy that says where it came from: see {@link ContextOrigin}. */
  withOrigin(origin: ContextOrigin): this {
    const frozen: ContextOrigin = Object.freeze({ ...origin, payload: frozenRecord(origin.payload), fields: new Set(origin.fields) });
    return this.copyWith({ origin: frozen } as unknown as Partial<this>);
  }

  /** A copy with one metadata key set. */
  withMetadata(key: string, value: unknown): this {
    return this.copyWith({ metadata: Object.freeze({ ...this.metadata, [key]: value }) } as Partial<this>);
  }

  /**
   * The string a configuration file's matcher is tested against for this event: the tool name for tool events, the
   * source for SessionStart, the trigger for compaction, the agent type for subagents, the notification type.
   * `undefined` where the event has nothing to match.
   */
  get subject(): string | undefined {
    return undefined;
  }

  /** A plain object with the event, the ids of the state, the metadata and the family's own fields. */
  toJSON(): Record<string, unknown> {
    return {
      event: this.event,
      agentId: this.state.agentId,
      ...(this.state.parentAgentId !== undefined ? { parentAgentId: this.state.parentAgentId } : {}),
      ...(this.state.sessionId !== undefined ? { sessionId: this.state.sessionId } : {}),
      stepCount: this.state.stepCount,
      metadata: { ...this.state.metadata, ...this.metadata },
      ...this.ownFields(),
    };
  }

  /** The family's own fields, for {@link HookContextBase.toJSON}. */
  protected ownFields(): Record<string, unknown> {
    return {};
  }

  /**
   * A frozen copy of this context with some fields replaced. Subclasses call it from their `with…` methods, so every
   * copy keeps its class and no constructor logic runs twice.
   */
  protected copyWith(changes: Partial<this>): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this, changes);
    return Object.freeze(copy);
  }
}
