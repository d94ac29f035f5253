/**
 * Every agent's names for the tools of the shared vocabulary: one line per room, in the order the docs' vocabulary
 * table lists them. Each room's `tools.ts` imports nothing, so that core's vocabulary (which every tool-name matcher
 * reads) can be built from this table without loading anything of the rooms.
 *
 * @module
 * @internal
 */
import { claudeTools } from './claude/tools.js';
import { clineTools } from './cline/tools.js';
import { codexTools } from './codex/tools.js';
import { copilotTools } from './copilot/tools.js';
import { cursorTools } from './cursor/tools.js';
import { droidTools } from './droid/tools.js';
import { geminiTools } from './gemini/tools.js';
import { opencodeTools } from './opencode/tools.js';
import { qwenTools } from './qwen/tools.js';
import { vscodeTools } from './vscode/tools.js';

/**
 * Each agent's tool names, by the tool's canonical name (`Shell: ['Bash']`), in the vocabulary table's order.
 *
 * @internal
 */
export const AGENT_TOOL_NAMES = {
  claude: claudeTools,
  codex: codexTools,
  gemini: geminiTools,
  copilot: copilotTools,
  cursor: cursorTools,
  vscode: vscodeTools,
  droid: droidTools,
  cline: clineTools,
  qwen: qwenTools,
  opencode: opencodeTools,
} as const satisfies Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
