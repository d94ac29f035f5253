/**
 * The agents the project knows: one id per room under `src/agents/`.
 *
 * @module
 */

/**
 * The id of an agent the bridge answers and `bridge --install` writes for: `claude` (Claude Code), `codex` (Codex
 * CLI), `gemini` (Gemini CLI), `copilot` (GitHub Copilot CLI), `vscode` (VS Code's agent hooks), `cursor` (Cursor), `cline` (Cline's CLI),
 * `opencode` (OpenCode) and `kilo` (Kilo), whose hooks run in the `agent-hooks/opencode` plugin rather than the bridge.
 * Each has a room, `src/agents/<id>/`, and a line in the registries (`src/agents/registry.ts`,
 * `src/agents/light-registry.ts`).
 */
export type AgentId = 'claude' | 'codex' | 'gemini' | 'copilot' | 'vscode' | 'cursor' | 'cline' | 'opencode' | 'kilo';
