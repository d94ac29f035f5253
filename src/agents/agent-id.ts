/**
 * The agents the project knows: one id per room under `src/agents/`.
 *
 * @module
 */
import type { LightAgentId } from './light-registry.js';

/**
 * The id of an agent the bridge answers and `bridge --install` writes for: each has a room, `src/agents/<id>/`, and a
 * line in the registries (`src/agents/light-registry.ts`, whose keys the ids are, and `src/agents/registry.ts`).
 * `agent-hooks bridge --help` lists them, with each agent's name and files, and each is an option of `withHooksFrom`,
 * documented there (`WithHooksFromOptions`). An agent whose hooks run in a plugin of ours has an id too.
 */
export type AgentId = LightAgentId;
