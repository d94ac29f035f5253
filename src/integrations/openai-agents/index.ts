/**
 * The OpenAI Agents SDK integration (`agent-hooks/openai-agents`): an agent's function tools guarded by hooks. Needs
 * `@openai/agents` (0.14 runs on Node 20; later versions need Node 22).
 *
 * ```ts
 * import { LoopHooks, withHooks } from 'agent-hooks/openai-agents';
 * ```
 *
 * @module
 */
export * from './with-hooks.js';
export * from '../loop-hooks.js';
