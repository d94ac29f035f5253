/**
 * OpenCode's tool hooks as our tool events: `tool.execute.before` is PreToolUse, `tool.execute.after` PostToolUse.
 *
 * - A block, a stop or an approval nobody can give (OpenCode has no answer for one) throws from
 *   `tool.execute.before`, which is how OpenCode refuses one call: the model gets the message as the tool's error and
 *   the session goes on. A rewrite is written into `output.args`, the object OpenCode then runs the tool with.
 * - Context a hook adds (on either event) is appended to `output.output` of `tool.execute.after`, the text the model
 *   reads as the tool's result; so is the reason of a PostToolUse block. A PostToolUse rewrite of the result replaces
 *   it. A PostToolUse `stop` cannot end OpenCode's session: its reason is appended and said as a warning.
 * - A failure of the stack itself (not of one hook, which the stack handles) refuses the call rather than letting it
 *   through unchecked, and is said as a warning; after the call, it is said and the result left as it is.
 *
 * @module
 * @internal
 */
import { AgentState, ToolCall, ToolExecution, ToolHookContext, type HookNote, type HookOutcome, type HookStack } from '../../core/index.js';
import type { OpenCodeToolArgs, OpenCodeToolInput, OpenCodeToolResult } from './plugin-api.js';
import type { PluginWarn } from './plugin-log.js';

/** The state a call of OpenCode's session `sessionID` is dispatched with. */
export const stateOf = (sessionID: string | undefined): AgentState => new AgentState({ agentId: 'opencode', sessionId: sessionID });

/** The dispatch options that say a hook's warning (a script hook that crashed, timed out…) where the user sees it. */
export const notesTo = (warn: PluginWarn) => ({
  onNote: (note: HookNote) => {
    if (note.level === 'warning') warn(`agent-hooks: ${note.hookName} (${note.event}): ${note.message}`);
  },
});

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The text a refused call's error carries to the model. */
function refusal(outcome: HookOutcome, tool: string): string {
  if (outcome.type === 'ask') return outcome.reason ?? `agent-hooks refused this ${tool} call: a hook asked for an approval, and OpenCode has no way to ask for one from a plugin.`;
  return outcome.reason ?? `agent-hooks refused this ${tool} call (${outcome.type}).`;
}

/**
 * The two tool hooks, over `stack`. Context for a call decided before it ran waits, by call id, for its result.
 *
 * @internal
 */
export function toolHooks(stack: HookStack, warn: PluginWarn) {
  const pending = new Map<string, readonly string[]>();
  const options = notesTo(warn);
  return {
    async 'tool.execute.before'(input: OpenCodeToolInput, output: OpenCodeToolArgs): Promise<void> {
      let outcome: HookOutcome;
      try {
        const call = ToolCall.create(input.tool, output.args, input.callID);
        outcome = await stack.process(ToolHookContext.beforeToolUse(call, { state: stateOf(input.sessionID) }), undefined, options);
      } catch (error) {
        const message = `agent-hooks could not check this ${input.tool} call, so it was refused: ${messageOf(error)}`;
        warn(`agent-hooks: ${message}`);
        throw new Error(message);
      }
      if (outcome.type !== 'proceed') throw new Error(refusal(outcome, input.tool));
      if (outcome.additionalContext.length > 0 && input.callID !== undefined) pending.set(input.callID, outcome.additionalContext);
      const args = (outcome.context as ToolHookContext<'PreToolUse'> | undefined)?.toolCall.args;
      if (args !== undefined && args !== output.args) {
        // OpenCode runs the object it handed over: the rewrite goes into it, key by key.
        for (const key of Object.keys(output.args)) if (!Object.hasOwn(args, key)) delete output.args[key];
        Object.assign(output.args, args);
      }
    },

    async 'tool.execute.after'(input: OpenCodeToolInput, output: OpenCodeToolResult): Promise<void> {
      const before = input.callID === undefined ? [] : (pending.get(input.callID) ?? []);
      if (input.callID !== undefined) pending.delete(input.callID);
      const notes = [...before];
      try {
        const call = ToolCall.create(input.tool, input.args ?? {}, input.callID);
        const ctx = ToolHookContext.afterToolUse(ToolExecution.success(call, output.output), { state: stateOf(input.sessionID) });
        const outcome = await stack.process(ctx, undefined, options);
        const result = (outcome.context as ToolHookContext<'PostToolUse'> | undefined)?.execution?.result;
        if (outcome.type === 'proceed' && result !== undefined && result !== output.output) output.output = typeof result === 'string' ? result : JSON.stringify(result);
        if (outcome.type === 'stop') warn(`agent-hooks: a PostToolUse hook asked to stop after this ${input.tool} call; OpenCode lets no plugin end its session, so the model is told instead: ${outcome.reason ?? ''}`);
        if (outcome.type !== 'proceed' && outcome.reason !== undefined) notes.push(outcome.reason);
        notes.push(...outcome.additionalContext);
      } catch (error) {
        warn(`agent-hooks: the PostToolUse hooks of this ${input.tool} call failed, and its result is as the tool gave it: ${messageOf(error)}`);
      }
      if (notes.length > 0) output.output = `${output.output}\n\n${notes.join('\n\n')}`;
    },
  };
}
