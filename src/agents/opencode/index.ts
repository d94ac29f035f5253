/**
 * `agent-hooks/opencode`: the plugin that runs a project's hooks inside OpenCode and Kilo. A project's plugin file
 * holds one line — `export { AgentHooks } from 'agent-hooks/opencode';` in `.opencode/plugin/agent-hooks.js` (Kilo:
 * `.kilo/plugin/agent-hooks.js`), as `npx agent-hooks bridge --install opencode` (or `kilo`) writes it. Re-export
 * `AgentHooks` by name: OpenCode calls every function a plugin file exports as a plugin.
 *
 * @module
 */
export { AgentHooks, createAgentHooksPlugin } from './plugin.js';
export type { AgentHooksPluginOptions } from './plugin-stack.js';
export type {
  OpenCodeAppClient,
  OpenCodeChatInput,
  OpenCodeChatOutput,
  OpenCodeClient,
  OpenCodeEvent,
  OpenCodeHooks,
  OpenCodeMessage,
  OpenCodePart,
  OpenCodePlugin,
  OpenCodePluginContext,
  OpenCodeToolArgs,
  OpenCodeToolInput,
  OpenCodeToolResult,
} from './plugin-api.js';
