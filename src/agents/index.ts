/**
 * Hooks from other agents' config files: Claude Code, GitHub Copilot, VS Code, Gemini CLI, Cursor and Codex CLI —
 * each agent's loader, and every source at once.
 *
 * @module
 */
export { CLAUDE_COMMAND_TIMEOUT_MS, CLAUDE_PROMPT_SUBMIT_TIMEOUT_MS, CLAUDE_PROMPT_TIMEOUT_MS, claudeSettingsFiles, loadClaudeHooks } from './claude/config.js';
export { GITHUB_HOOK_TIMEOUT_MS, githubHookFileKind, loadGithubHooks, loadCopilotHooks, loadVsCodeHooks } from './copilot/github-config.js';
export { GEMINI_HOOK_TIMEOUT_MS, loadGeminiHooks } from './gemini/config.js';
export { CURSOR_HOOK_TIMEOUT_MS, loadCursorHooks } from './cursor/config.js';
export { CODEX_HOOK_TIMEOUT_MS, CODEX_SESSION_END_TIMEOUT_MS, type CodexLoadOptions, codexHomeDir, codexHookFiles, loadCodexHooks } from './codex/config.js';
export * from './load-all.js';
