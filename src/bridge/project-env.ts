/**
 * Where each agent tells its hooks the project directory.
 *
 * @module
 * @internal
 */
import type { BridgeAgent } from './bridge-answer.js';

/**
 * The variables each agent sets to the project directory, in the order the bridge reads them.
 *
 * @internal
 */
export const PROJECT_ENV: Readonly<Record<BridgeAgent, readonly string[]>> = {
  claude: ['CLAUDE_PROJECT_DIR'],
  vscode: ['CLAUDE_PROJECT_DIR'],
  copilot: [],
  gemini: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  cursor: ['CURSOR_PROJECT_DIR'],
  // Codex sets none: it runs every hook in the session's working directory, which is then the project.
  codex: [],
};
