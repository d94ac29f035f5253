/**
 * The bridge: our hook stack answering as another agent's hook, so one line in Claude Code's (or Copilot's, VS
 * Code's, Gemini CLI's, Cursor's, Codex's) config runs every HOOK.md hook of a project.
 *
 * @module
 */
export * from './bridge-answer.js';
export * from './bridge-payload.js';
export * from './run-bridge.js';
export * from './install-bridge.js';
export * from './install-targets.js';
export * from './install-http-bridge.js';
export * from './bridge-command.js';
export * from './bridge-lifetime.js';
