/**
 * What hooks from other agents' config files are made of: the config-file reader, matchers, and the prompt, agent and
 * http handlers. Each agent's own loader is in its room (`src/agents/<id>/`), and `loadAllHookConfigs` in
 * `src/agents/load-all.ts`.
 *
 * @module
 */
export { parseConfigJson, readConfigFile, type ConfigFileRead } from './config-file.js';
export { configMatcher, type MatcherRule } from './config-matcher.js';
export type { ConfigFileLocation, ConfigHook, ConfigLoadOptions, JudgeFn, LoadedConfigHooks, VerifyFn, VerifyRequest, VerifyVerdict } from './config-source.js';
export * from './prompt-hook.js';
export * from './agent-hook.js';
export * from './http-hook.js';
export { UntrustedHooksError } from './untrusted-hooks-error.js';
