/**
 * Reading an agent's payload by its wire, which the caller has loaded (a bridged call loads its own agent's only).
 *
 * @module
 * @internal
 */
import type { AgentId } from '../agents/agent-id.js';
import type { AgentWire } from '../agents/agent-wire.js';
import type { AnyHookContext } from '../core/index.js';
import { isRecord } from '../dialects/wire-output.js';
import { sampleContext } from '../script/sample-context.js';

/**
 * A payload read: the context to dispatch, and the event's name as the agent calls it (for the answer).
 *
 * @internal
 */
export interface BridgedEvent {
  /** The context, with the payload's fields. */
  readonly ctx: AnyHookContext;
  /** The event as the agent named it (`PreToolUse`, `preToolUse`, `BeforeTool`, `beforeShellExecution`, …). */
  readonly eventName: string;
}

/**
 * Thrown when a payload cannot be read: not JSON, not an object, no event, or a field of the wrong type.
 *
 * @internal
 */
export class BridgeInputError extends Error {
  /** Always `BridgeInputError`. */
  override readonly name = 'BridgeInputError';
}

/**
 * Reads `payload`, which `agent` sent its hooks, by `wire`, that agent's: see `readBridgePayload`, which reads it by
 * the agent's profile.
 *
 * @throws {@link BridgeInputError} naming what is wrong.
 *
 * @internal
 */
export function readWirePayload(agent: AgentId, wire: AgentWire, payload: unknown, event?: string): BridgedEvent {
  if (!isRecord(payload)) throw new BridgeInputError('The hook input must be a JSON object.');
  const { event: canonical, eventName, fields } = wire.readPayload(payload, event, (message) => new BridgeInputError(message));
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  try {
    // Strict: a hook sees what the agent sent and nothing else; what the event cannot do without must be there.
    const ctx = sampleContext(canonical, clean, { strict: true }).withOrigin({ agent, eventName, payload, fields: new Set(Object.keys(clean)) });
    return { ctx, eventName };
  } catch (error) {
    throw new BridgeInputError(error instanceof Error ? error.message : String(error));
  }
}
