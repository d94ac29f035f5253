/**
 * The OpenAI Agents SDK integration (`agent-hooks/openai-agents`): an agent's function tools guarded by hooks, and its
 * model's calls run through the hooks around the model call. Needs `@openai/agents` (0.14 runs on Node 20; later
 * versions need Node 22).
 *
 * ```ts
 * import { LoopHooks, withHooks, withModelHooks } from 'agent-hooks/openai-agents';
 * ```
 *
 * @module
 */
export * from './with-hooks.js';
export * from './with-model-hooks.js';
export * from '../loop-hooks.js';
