/**
 * Copilot CLI's errorOccurred as its binary fires it.
 *
 * @module
 * @internal
 */
import { CallableMatcher, type HookMatcher } from '../../core/index.js';

/**
 * The matcher of a Copilot file's errorOccurred hook: Copilot CLI 1.0.102 fires errorOccurred when a model call fails
 * (on every failed attempt), and not when a tool, a hook or an MCP server fails, so here it runs when the run failed
 * on its model call, and not when it failed anywhere else.
 *
 * @internal
 */
export const MODEL_CALL_FAILURES: HookMatcher = new CallableMatcher((ctx) => ctx.event !== 'AgentFailed' || ctx.duringModelCall);
