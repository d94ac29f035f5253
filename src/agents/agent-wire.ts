/**
 * The part of an agent's profile a bridged call speaks: how its payload is read and its answer written. A bridged
 * call loads this of its own agent only (see `loadAgentWire`), not every agent's profile with its config loaders.
 *
 * @module
 * @internal
 */
import type { AgentProfile } from './profile.js';

/**
 * An agent's hook protocol, as the bridge speaks it.
 *
 * @internal
 */
export type AgentWire = Pick<AgentProfile, 'dialect' | 'eventOf' | 'readPayload' | 'answer' | 'userMessageField'>;
