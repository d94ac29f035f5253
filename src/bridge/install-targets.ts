/**
 * Where each agent reads a project's command hooks, and the shape of the entry that runs the bridge there: the table
 * `agent-hooks bridge --install` writes from, gathered from the agents' profiles (`src/agents/<id>/profile.ts`).
 *
 * @module
 */
import type { AgentId } from '../agents/agent-id.js';
import type { InstallShape } from '../agents/install-shape.js';
import { AGENT_IDS, AGENT_PROFILES, isAgentId } from '../agents/registry.js';
import { HookEvent, type HookEventName } from '../core/index.js';

export type { InstallTimeout } from '../agents/install-shape.js';

/** The agents `agent-hooks bridge --install` writes a config file for. */
export type InstallAgent = AgentId;

/**
 * Every agent {@link InstallAgent} names, in the order help texts list them.
 *
 * @internal
 */
export const INSTALL_AGENTS: readonly InstallAgent[] = AGENT_IDS;

/**
 * One agent's project-level hook file, and how an entry that runs a command is written in it: its profile's
 * {@link InstallShape}, with every event name it knows.
 *
 * @internal
 */
export interface InstallTarget extends Omit<InstallShape, 'extraEvents'> {
  /** The agent. */
  readonly agent: InstallAgent;
  /** The agent's event names, each with the canonical event it is. */
  readonly events: Readonly<Record<string, HookEventName>>;
}

const inverse = (names: Partial<Record<HookEventName, string>>): Record<string, HookEventName> =>
  Object.fromEntries(Object.entries(names).map(([event, name]) => [name, event as HookEventName]));

/**
 * Each agent's hook file and entry shape.
 *
 * @internal
 */
export const INSTALL_TARGETS: Readonly<Record<InstallAgent, InstallTarget>> = Object.freeze(
  Object.fromEntries(
    AGENT_PROFILES.map(({ id, install: { extraEvents, ...shape } }) => [id, Object.freeze({ ...shape, agent: id, events: { ...inverse(shape.names), ...extraEvents } })]),
  ) as Record<InstallAgent, InstallTarget>,
);

/**
 * Whether `name` is one of the agents `--install` knows.
 *
 * @internal
 */
export const isInstallAgent = (name: string): name is InstallAgent => isAgentId(name);

/**
 * The agent's own name for an event named in any dialect — its own names first, so Gemini's `AfterAgent` is its stop
 * gate and Cursor's `beforeShellExecution` stays itself — or `undefined` when the agent has no such event.
 *
 * @throws {@link UnknownEventError} for a name no dialect knows.
 *
 * @internal
 */
export function installEventName(agent: InstallAgent, name: string): string | undefined {
  const target = INSTALL_TARGETS[agent];
  if (Object.hasOwn(target.events, name)) return name;
  return target.names[HookEvent.parse(name)];
}
