/**
 * The Claude Agent SDK integration (`agent-hooks/claude-agent-sdk`): the SDK's `hooks` option answered by our hook
 * stack, so callbacks, Hook classes and HOOK.md script hooks guard the agent `query()` runs. Needs
 * `@anthropic-ai/claude-agent-sdk` 0.3 (its types only: this module loads nothing of the SDK).
 *
 * ```ts
 * import { LoopHooks, claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';
 * ```
 *
 * @module
 */
export * from './claude-agent-hooks.js';
export * from '../loop-hooks.js';
