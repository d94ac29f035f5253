/**
 * Every agent the project knows, by id: one line per room. The bridge, `serve`, `--install`, the command line and the
 * docs' tables read agents here, and never name one.
 *
 * @module
 * @internal
 */
import type { AgentId } from './agent-id.js';
import { claudeProfile } from './claude/profile.js';
import { clineProfile } from './cline/profile.js';
import { codexProfile } from './codex/profile.js';
import { copilotProfile } from './copilot/profile.js';
import { cursorProfile } from './cursor/profile.js';
import { droidProfile } from './droid/profile.js';
import { geminiProfile } from './gemini/profile.js';
import { kiloProfile, opencodeProfile } from './opencode/profile.js';
import type { AgentProfile } from './profile.js';
import { qwenProfile } from './qwen/profile.js';
import { vscodeProfile } from './vscode/profile.js';

// The order help texts and docs list them in.
const PROFILES: { readonly [Id in AgentId]: AgentProfile<Id> } = {
  claude: claudeProfile,
  codex: codexProfile,
  gemini: geminiProfile,
  copilot: copilotProfile,
  vscode: vscodeProfile,
  cursor: cursorProfile,
  cline: clineProfile,
  qwen: qwenProfile,
  droid: droidProfile,
  opencode: opencodeProfile,
  kilo: kiloProfile,
};

/**
 * Every agent's profile, in the order help texts list them.
 *
 * @internal
 */
export const AGENT_PROFILES: readonly AgentProfile[] = Object.freeze(Object.values(PROFILES));

/**
 * Every agent's id, in the order help texts list them.
 *
 * @internal
 */
export const AGENT_IDS: readonly AgentId[] = Object.freeze(AGENT_PROFILES.map((profile) => profile.id));

/**
 * Whether `name` is the id of an agent the project knows.
 *
 * @internal
 */
export const isAgentId = (name: string): name is AgentId => Object.hasOwn(PROFILES, name);

/**
 * The profile of the agent `id`.
 *
 * @internal
 */
export function agentProfile<Id extends AgentId>(id: Id): AgentProfile<Id> {
  return PROFILES[id] as AgentProfile<Id>;
}
