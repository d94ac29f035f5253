/**
 * The Vercel AI SDK integration (`agent-hooks/ai-sdk`): any AI SDK language model as an agent's model, AI SDK tools
 * guarded by hooks, and the step events around the model calls of your own `generateText` loop. Needs `ai` 6 or 7.
 *
 * ```ts
 * import { aiSdkModel, hooksMiddleware, LoopHooks, withHooks } from 'agent-hooks/ai-sdk';
 * ```
 *
 * @module
 */
export * from './ai-sdk-model.js';
export * from './with-hooks.js';
export * from './hooks-middleware.js';
export * from '../loop-hooks.js';
