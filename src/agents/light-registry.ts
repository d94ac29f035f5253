/**
 * Every agent's light profile, for the bridge's first stage: one line per room. Node's own modules only — it must
 * never import a full profile (`registry.ts`), which loads the contexts, the dialects and the config loaders. Its keys
 * are the agents' ids: `AgentId` is read from them, so a room gets its id here, and the full registry, typed by it,
 * fails to compile until it has the room's line too.
 *
 * @module
 * @internal
 */
import { claudeLight } from './claude/light.js';
import { clineLight } from './cline/light.js';
import { codexLight } from './codex/light.js';
import { copilotLight } from './copilot/light.js';
import { cursorLight } from './cursor/light.js';
import { droidLight } from './droid/light.js';
import { geminiLight } from './gemini/light.js';
import type { LightAgentProfile } from './light-profile.js';
import { kiloLight, opencodeLight } from './opencode/light.js';
import { qwenLight } from './qwen/light.js';
import { vscodeLight } from './vscode/light.js';

/**
 * The light profiles, by id.
 *
 * @internal
 */
export const LIGHT_PROFILES = {
  claude: claudeLight,
  codex: codexLight,
  gemini: geminiLight,
  copilot: copilotLight,
  vscode: vscodeLight,
  cursor: cursorLight,
  cline: clineLight,
  qwen: qwenLight,
  droid: droidLight,
  opencode: opencodeLight,
  kilo: kiloLight,
} as const;

/**
 * The id of an agent the project knows: a key of {@link LIGHT_PROFILES}.
 *
 * @internal
 */
export type LightAgentId = keyof typeof LIGHT_PROFILES;

/**
 * The light profile of the agent called `name`, or `undefined` when there is none.
 *
 * @internal
 */
export function lightProfileOf(name: string): LightAgentProfile | undefined {
  return Object.hasOwn(LIGHT_PROFILES, name) ? LIGHT_PROFILES[name as LightAgentId] : undefined;
}
