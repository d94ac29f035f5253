/**
 * The other half of a dialect: an outcome of our stack, written back as the answer a hook of that agent gives —
 * what `agent-hooks bridge` prints when Claude Code, Copilot, VS Code, Gemini CLI, Cursor or Codex runs it as their
 * hook. Each agent's writer lives in its room (`src/agents/<id>/`); this reads them through the registry.
 *
 * @module
 */
import type { AgentId } from '../agents/agent-id.js';
import { AGENT_PROFILES, agentProfile } from '../agents/registry.js';
import type { AnyHookContext, HookOutcome } from '../core/index.js';
import type { BridgeAnswer } from '../dialects/outcome-changes.js';

export type { BridgeAnswer } from '../dialects/outcome-changes.js';
export type { AgentId } from '../agents/agent-id.js';

/** The agents the bridge answers. */
export type BridgeAgent = AgentId;

/**
 * Every agent the bridge answers, in the order the docs list their hooks (`--from`'s messages keep it).
 *
 * @internal
 */
export const BRIDGE_AGENTS: readonly BridgeAgent[] = Object.freeze(
  // An agent with no config files of its own comes after those that have them, as the first such was added after them.
  [...AGENT_PROFILES].sort((a, b) => (a.config?.order ?? Number.MAX_SAFE_INTEGER) - (b.config?.order ?? Number.MAX_SAFE_INTEGER)).map((profile) => profile.id),
);

/**
 * The field of each agent's answer that its user sees, where the bridge puts a message for the user (a hook's
 * `systemMessage`, the bridge's own notices): `systemMessage` for Claude Code, VS Code, Gemini CLI (which prints it
 * as `Hook system message: …`) and Codex; `user_message` for Cursor. Copilot's answers have no such field:
 * `undefined`.
 *
 * @internal
 */
export const USER_MESSAGE_FIELD: Readonly<Record<BridgeAgent, string | undefined>> = Object.freeze(
  Object.fromEntries(AGENT_PROFILES.map((profile) => [profile.id, profile.userMessageField])) as Record<BridgeAgent, string | undefined>,
);

/**
 * The answer a hook of `agent` gives for `outcome`, the merged outcome of dispatching `ctx` (which that agent calls
 * `eventName`). Decisions are written as JSON on stdout with exit 0 wherever the agent reads one; exit 2 with the
 * reason on stderr only where it reads nothing else (Copilot's events other than preToolUse and agentStop).
 *
 * - a block on a tool call: Claude Code and VS Code `permissionDecision: "deny"`, Copilot `permissionDecision:
 *   "deny"`, Gemini `decision: "deny"`, Cursor `permission: "deny"`, Codex `permissionDecision: "deny"` (also for
 *   a stop and an ask, which Codex refuses there) — each with the reason;
 * - a block of a stop gate: `decision: "block"` + `reason` (Claude Code, VS Code, Copilot), `decision: "deny"`
 *   (Gemini's AfterAgent retry), `followup_message` (Cursor);
 * - Gemini CLI's model events: a rewritten request (`llm_request`), an answer given instead of the model
 *   (`decision: "deny"` with `llm_response`), a tool selection (`toolConfig`), a rewritten answer (`llm_response`) —
 *   see `geminiModelAnswer`;
 * - a stop: `continue: false` + `stopReason`;
 * - a rewritten input: `updatedInput`, `modifiedArgs`, `tool_input`, `updated_input`; for Codex `updatedInput` with
 *   `permissionDecision: "allow"`, the only form it takes (see `codexAnswer`);
 * - additional context and system messages in the agent's own fields.
 *
 * @internal
 */
export function bridgeAnswer(agent: BridgeAgent, outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer {
  return agentProfile(agent).answer(outcome, ctx, eventName);
}
