/**
 * What the bridge's first stage knows of one agent: the part of its profile that loads nothing but Node's own modules,
 * so that a call no hook can run on is answered without loading the contexts, the dialects or the event table. Each
 * room offers it as `light.ts`; the first stage reads them through `light-registry.ts`.
 *
 * @module
 * @internal
 */
import type { AgentId } from './agent-id.js';

/**
 * A JSON object as an agent sends it.
 *
 * @internal
 */
export type Json = Record<string, unknown>;

/**
 * Whether `value` is a JSON object (not an array, not `null`).
 *
 * @internal
 */
export const isJsonObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The event a payload names, before it is read as a canonical event.
 *
 * @internal
 */
export interface WrittenEvent {
  /**
   * How the name reads: the id of the agent whose {@link LightAgentProfile.learnEvent} reads it, alone or followed by
   * `-` and a variant (`codex-given`). With the name, the key of a learnt reading.
   */
  readonly rule: string;
  /** The name as the agent (or `--event`) wrote it. */
  readonly written: string;
  /** The agent whose payload the fields are read as (Copilot's payload with a PascalCase event is VS Code's). */
  readonly reader: AgentId;
}

/**
 * One agent as the bridge's first stage reads it. It follows the full profile's payload reader field by field, but
 * leans one way only: where it is not sure, it says so (`undefined`), and the full path reads the payload itself.
 *
 * @internal
 */
export interface LightAgentProfile<Id extends string = AgentId> {
  /** The agent. */
  readonly id: Id;
  /** The variables the agent sets to the project directory when it runs a hook, in the order the bridge reads them. */
  readonly projectVariables: readonly string[];
  /**
   * The event `payload` names (`given`, from `--event`, wins), or `undefined` when the full reading would refuse it.
   */
  writtenEvent(payload: Json, given: string | undefined): WrittenEvent | undefined;
  /**
   * The fields the full reading builds its context from, for this agent's payload of the canonical `event` (which it
   * names `written`), before cleaning; `undefined` when a field would make the full reading refuse it.
   */
  fields(payload: Json, event: string, written: string): Json | undefined;
  /**
   * The canonical event `written` reads as under `rule` (one of the rules {@link writtenEvent} gives), as the full
   * reading reads it; `null` when it reads as none. May load the heavy modules: it runs only while learning.
   */
  learnEvent(rule: string, written: string): Promise<string | null>;
}
