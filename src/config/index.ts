/**
 * Hooks from other agents' config files: Claude Code, GitHub Copilot, VS Code, Gemini CLI, Cursor and Codex CLI.
 *
 * @module
 */
export { parseConfigJson, readConfigFile, type ConfigFileRead } from './config-file.js';
export { configMatcher, type MatcherRule } from './config-matcher.js';
export type { ConfigFileLocation, ConfigHook, ConfigLoadOptions, JudgeFn, LoadedConfigHooks, VerifyFn, VerifyRequest, VerifyVerdict } from './config-source.js';
export * from './prompt-hook.js';
export * from './agent-hook.js';
export * from './http-hook.js';
export * from './claude-config.js';
export * from './github-config.js';
export * from './gemini-config.js';
export * from './cursor-config.js';
export * from './codex-config.js';
export * from './load-all.js';
export { UntrustedHooksError } from './untrusted-hooks-error.js';
