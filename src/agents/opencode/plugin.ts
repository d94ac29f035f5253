/**
 * A plugin for OpenCode (and Kilo, its fork) that runs a project's hooks inside the agent's own process: OpenCode has
 * no command hooks, only JavaScript plugins (`.opencode/plugin/*.js`, Kilo's `.kilo/plugin/*.js`), each an async
 * function of OpenCode's context that returns the hooks it keeps. A prototype: it serves the tool call alone.
 *
 * - `tool.execute.before(input, output)` is our PreToolUse, with `input.tool` (OpenCode's `bash` is the shell) and
 *   `output.args`. A block, a stop or an unanswered approval throws, which is how OpenCode refuses one call: the
 *   model gets the reason as the tool's error and the session goes on. A rewrite is written into `output.args`,
 *   which OpenCode runs.
 * - A hook that fails is handled by the stack as anywhere else (a `failClosed` hook blocks); a failure of the stack
 *   itself refuses the call rather than letting it through unchecked.
 *
 * The hooks are those `withHooksFrom` loads (HOOK.md folders, the user's and the project's, and the agents' config
 * files), with the same trust rule: a project's hooks run once `npx agent-hooks trust` has pinned them, and each one
 * skipped is said on stderr when the plugin loads.
 *
 * @module
 */
import { resolve } from 'node:path';
import { skippedHooksNotice } from '../../agent/internal/skipped-hooks-notice.js';
import { loadAllHookConfigs, prioritized } from '../load-all.js';
import { ToolHookContext } from '../../core/context/tool-hook-context.js';
import { HookStack } from '../../core/stack.js';
import { ToolCall } from '../../core/tool-call.js';

/** The part of OpenCode's plugin context the plugin reads. */
export interface OpenCodePluginContext {
  /** The folder OpenCode runs in: the project whose hooks run. */
  readonly directory: string;
}

/** What OpenCode hands `tool.execute.before`: the call's tool and ids. */
export interface OpenCodeToolInput {
  readonly tool: string;
  readonly sessionID?: string;
  readonly callID?: string;
}

/** The hooks the plugin returns to OpenCode. */
export interface OpenCodeHooks {
  'tool.execute.before'(input: OpenCodeToolInput, output: { args: Record<string, unknown> }): Promise<void>;
}

/**
 * The plugin: `export { AgentHooks } from 'agent-hooks/opencode'` in `.opencode/plugin/agent-hooks.js`.
 *
 * @throws never when loading: a hook source that cannot be read is reported on stderr, as `withHooksFrom` does.
 */
export async function AgentHooks(context: OpenCodePluginContext): Promise<OpenCodeHooks> {
  const projectDir = resolve(context.directory);
  const { hooks, problems } = await loadAllHookConfigs(projectDir, { hookmd: true });
  const notice = skippedHooksNotice(problems, projectDir);
  if (notice !== undefined) process.stderr.write(`${notice}\n`);
  const stack = new HookStack().withAll(prioritized(hooks));
  return {
    async 'tool.execute.before'(input, output) {
      let outcome;
      try {
        outcome = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create(input.tool, output.args, input.callID)));
      } catch (error) {
        // Nothing decided the call: refused, never let through unchecked.
        throw new Error(`agent-hooks could not check this ${input.tool} call, so it was refused: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (outcome.type !== 'proceed') throw new Error(outcome.reason ?? `agent-hooks refused this ${input.tool} call (${outcome.type}).`);
      const args = (outcome.context as ToolHookContext<'PreToolUse'> | undefined)?.toolCall.args;
      if (args !== undefined && args !== output.args) {
        // OpenCode runs the object it handed over: the rewrite goes into it, key by key.
        for (const key of Object.keys(output.args)) if (!(key in args)) delete output.args[key];
        Object.assign(output.args, args);
      }
    },
  };
}
