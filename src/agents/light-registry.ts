/**
 * Every agent's light profile, for the bridge's first stage: one line per room. Node's own modules only — it must
 * never import a full profile (`registry.ts`), which loads the contexts, the dialects and the config loaders.
 *
 * @module
 * @internal
 */
import type { AgentId } from './agent-id.js';
import { claudeLight } from './claude/light.js';
import { clineLight } from './cline/light.js';
import { codexLight } from './codex/light.js';
import { copilotLight } from './copilot/light.js';
import { cursorLight } from './cursor/light.js';
import { geminiLight } from './gemini/light.js';
import type { LightAgentProfile } from './light-profile.js';
import { kiloLight, opencodeLight } from './opencode/light.js';
import { vscodeLight } from './vscode/light.js';

const LIGHT: { readonly [Id in AgentId]: LightAgentProfile<Id> } = {
  claude: claudeLight,
  codex: codexLight,
  gemini: geminiLight,
  copilot: copilotLight,
  vscode: vscodeLight,
  cursor: cursorLight,
  cline: clineLight,
  opencode: opencodeLight,
  kilo: kiloLight,
};

/**
 * The light profile of the agent called `name`, or `undefined` when there is none.
 *
 * @internal
 */
export function lightProfileOf(name: string): LightAgentProfile | undefined {
  return Object.hasOwn(LIGHT, name) ? LIGHT[name as AgentId] : undefined;
}
