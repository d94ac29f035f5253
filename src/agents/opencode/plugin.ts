/**
 * A plugin for OpenCode (and Kilo, its fork) that runs a project's hooks inside the agent's own process. OpenCode
 * has no command hooks, only plugins: JavaScript or TypeScript files in `.opencode/plugin/` (Kilo's `.kilo/plugin/`),
 * each exporting async functions of OpenCode's context that return the hooks they keep. A project holds one line,
 * `export { AgentHooks } from 'agent-hooks/opencode';` — which `npx agent-hooks bridge --install opencode` writes.
 *
 * | OpenCode | our event | what an answer does |
 * |---|---|---|
 * | `tool.execute.before` | PreToolUse | block/stop/ask: the call is refused, the reason is the tool's error the model reads; a rewrite changes the arguments |
 * | `tool.execute.after` | PostToolUse | context and a block's reason are appended to the result the model reads; a rewrite replaces it |
 * | first `chat.message` of a session | SessionStart | context is added to the message; block/stop rejects it |
 * | `chat.message` | UserPromptSubmit | context is added to the message; a rewrite replaces the prompt; block/stop rejects it |
 * | `event` `session.idle` | Stop | observed: OpenCode reads no answer (a block is said as a warning) |
 * | `event` `session.deleted` | SessionEnd | observed |
 *
 * @module
 */
import type { OpenCodeHooks, OpenCodePlugin, OpenCodePluginContext } from './plugin-api.js';
import { pluginWarn } from './plugin-log.js';
import { sessionHooks } from './plugin-session-hooks.js';
import { pluginStack, type AgentHooksPluginOptions } from './plugin-stack.js';
import { toolHooks } from './plugin-tool-hooks.js';

/** Hooks that refuse every tool call with `reason`, and let the rest be. */
function refusingEverything(reason: string): OpenCodeHooks {
  const none = async (): Promise<void> => {};
  return {
    'tool.execute.before': async () => {
      throw new Error(reason);
    },
    'tool.execute.after': none,
    'chat.message': none,
    event: none,
  };
}

/**
 * An OpenCode plugin with options: your own hooks beside the project's, other sources, another failure policy.
 *
 * ```js
 * // .opencode/plugin/agent-hooks.js
 * import { createAgentHooksPlugin } from 'agent-hooks/opencode';
 * export const AgentHooks = createAgentHooksPlugin({
 *   hooks: [(ctx, next) => (ctx.event === 'PreToolUse' && /\bsudo\b/.test(String(ctx.toolCall.args.command)) ? HookOutcome.block('No sudo here.') : next(ctx))],
 * });
 * ```
 *
 * Loading never throws: a hook that cannot be read, or a project hook skipped for want of trust, is said on stderr
 * and in OpenCode's log, and OpenCode starts without it; when the hooks cannot be loaded at all (bad options), that
 * is said, and every tool call is refused rather than run with no hook at all.
 */
export function createAgentHooksPlugin(options: AgentHooksPluginOptions = {}): OpenCodePlugin {
  return async (context: OpenCodePluginContext): Promise<OpenCodeHooks> => {
    const warn = pluginWarn(context.client);
    let stack;
    try {
      stack = await pluginStack(context.directory, options, warn);
    } catch (error) {
      // A plugin that throws while loading guards nothing, and OpenCode would go on without it: refused instead.
      const reason = `agent-hooks could not load this project's hooks (${error instanceof Error ? error.message : String(error)}), so it refuses every tool call.`;
      warn(`agent-hooks: ${reason}`);
      return refusingEverything(reason);
    }
    return { ...toolHooks(stack, warn), ...sessionHooks(stack, warn) };
  };
}

/**
 * The plugin with its defaults: the HOOK.md hooks of the user and of the project (the project's once trusted with
 * `npx agent-hooks trust`). `export { AgentHooks } from 'agent-hooks/opencode';` in `.opencode/plugin/agent-hooks.js`
 * (Kilo: `.kilo/plugin/agent-hooks.js`).
 */
export const AgentHooks: OpenCodePlugin = createAgentHooksPlugin();
