/**
 * The LangChain.js integration (`agent-hooks/langchain`): one agent middleware that fires our events around a
 * `createAgent` agent, its model calls and its tool calls. Needs `langchain` 1.5 and `@langchain/core` 1.4.
 *
 * ```ts
 * import { LoopHooks, langchainMiddleware } from 'agent-hooks/langchain';
 * ```
 *
 * @module
 */
export * from './langchain-middleware.js';
export * from '../loop-hooks.js';
