/**
 * Every agent's wire: what a bridged call needs of its agent, without every agent's profile with the config loaders,
 * install shapes and help texts the call never uses (see `registry.ts` for the whole profiles). The wires are
 * imported here together rather than one by one on demand: each module a call loads costs it more than the bytes the
 * other agents' wires add (counted in docs/performance.md).
 *
 * @module
 * @internal
 */
import type { AgentId } from './agent-id.js';
import type { AgentWire } from './agent-wire.js';
import { CLAUDE_CODE_WIRE, CLAUDE_WIRE } from './claude/wire.js';
import { clineProfile } from './cline/profile.js';
import { CODEX_WIRE } from './codex/wire.js';
import { COPILOT_WIRE } from './copilot/wire.js';
import { CURSOR_WIRE } from './cursor/wire.js';
import { GEMINI_WIRE } from './gemini/wire.js';
import { kiloProfile, opencodeProfile } from './opencode/profile.js';
import { VSCODE_WIRE } from './vscode/wire.js';

// Cline's and OpenCode's profiles are their wires' only weight: they have no config loader.
const WIRES: { readonly [Id in AgentId]: AgentWire } = {
  claude: CLAUDE_CODE_WIRE,
  codex: CODEX_WIRE,
  gemini: GEMINI_WIRE,
  copilot: COPILOT_WIRE,
  vscode: VSCODE_WIRE,
  cursor: CURSOR_WIRE,
  cline: clineProfile,
  qwen: CLAUDE_WIRE,
  droid: CLAUDE_WIRE,
  opencode: opencodeProfile,
  kilo: kiloProfile,
};

/**
 * The wire of the agent `id`, the same as its profile's.
 *
 * @internal
 */
export function agentWire(id: AgentId): AgentWire {
  return WIRES[id];
}
