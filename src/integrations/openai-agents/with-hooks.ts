/**
 * OpenAI Agents SDK function tools whose `invoke` runs through the hooks.
 *
 * @module
 */
import type { FunctionTool, Tool } from '@openai/agents';
import { ToolNotOfferedError, UnknownToolError } from '../../agent/index.js';
import { ToolCall } from '../../core/index.js';
import { LoopHooks, type HookSource, type LoopHooksOptions } from '../loop-hooks.js';

type AnyFunctionTool = FunctionTool<any, any, any>;
type Details = Parameters<AnyFunctionTool['invoke']>[2];

/** The arguments of a call, when the model sent a JSON object; undefined when it sent something else. */
function argsOf(input: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = input.trim() === '' ? {} : JSON.parse(input);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps the function tools of an OpenAI Agents SDK agent (`tool({ … })`) so that each call runs through the hooks
 * (see {@link LoopHooks.runTool}): PreToolUse before the tool, with the call's `callId` as the `ToolCall` id;
 * PostToolUse after it. A block, an ask without approver, a PostToolUse block and a stop answer the model with the
 * same texts as the agent runtime (`Tool call blocked by a hook: <reason>`, …). A rewritten input is handed to the tool
 * as JSON, so the tool's own schema validates it. Hosted, computer, shell and apply-patch tools are returned unchanged.
 *
 * What differs from the AI SDK: a tool made with `tool()` turns its own errors into a text for the model (its
 * `errorFunction`), so PostToolUse sees that text; PostToolUseFailure fires only when the tool throws, which it does
 * when defined with `errorFunction: null` (the error then goes on to the SDK, which fails the run). Input that is not
 * JSON never reaches the hooks: the tool refuses it itself, without running.
 *
 * A call to a function tool the step's model call did not offer ({@link withModelHooks}'s BeforeToolSelection or
 * BeforeModel took it out, or chose mode `none`) does not run, though the runner finds it in the agent's tools: the
 * model is answered `Error: Tool '<name>' was not offered this step, so it was not run. Offered tools: …`, after
 * PostToolUseFailure (with a `ToolNotOfferedError`; no PreToolUse), as our agent answers it, and the run goes on. A
 * handoff the hooks took out is not refused: the runner performs handoffs itself, not through a tool.
 *
 * A hook that throws under `onHookError: 'fail'` (the default) fails the run: the SDK wraps what a tool's `invoke`
 * throws, so `run` rejects with its `ToolCallError`, whose `error` is the `HookError`; the model is not called again,
 * and `hooks.failure` keeps the HookError (a `hook-failed` warning and AgentFailed fire). Under `'ignore'` the hook is
 * skipped with a `hook-error` warning; under `'block'` the call is refused with the hook's error as the reason.
 *
 * ```ts
 * import { Agent, run, tool } from '@openai/agents';
 * import { LoopHooks, withHooks } from 'agent-hooks/openai-agents';
 *
 * const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom(process.cwd()));
 * const agent = new Agent({ name: 'ops', tools: withHooks([bash, readFile], hooks) });
 * await run(agent, 'Clean up the build folder');
 * await hooks.drain();
 * ```
 */
export function withHooks<T extends readonly Tool<any>[]>(tools: T, hooks: HookSource, options?: LoopHooksOptions): T {
  if (!Array.isArray(tools)) throw new TypeError(`withHooks() takes a list of OpenAI Agents SDK tools, got ${String(tools)}.`);
  const loop = LoopHooks.from(hooks, options);
  const functions = new Map<string, AnyFunctionTool>();
  for (const t of tools as readonly Tool<any>[]) if (t.type === 'function') functions.set(t.name, t);

  const run = (name: string, runContext: Parameters<AnyFunctionTool['invoke']>[0], input: string, details: Details) => {
    const target = functions.get(name);
    if (target === undefined) throw new UnknownToolError(name, [...functions.keys()]);
    return target.invoke(runContext, input, details);
  };

  return tools.map((t: Tool<any>): Tool<any> => {
    if (t.type !== 'function') return t;
    const wrapped: AnyFunctionTool = {
      ...t,
      invoke: async (runContext, input, details) => {
        const args = argsOf(input);
        if (args === undefined) return t.invoke(runContext, input, details);
        const call = new ToolCall(t.name, args, details?.toolCall?.callId);
        try {
          return await loop.runTool(
            call,
            (final) => run(final.name, runContext, final.args === call.args && final.name === t.name ? input : JSON.stringify(final.args), details),
            { signal: details?.signal },
          );
        } catch (error) {
          // The SDK fails the whole run on what `invoke` throws: a call to a tool the step did not offer is the
          // model's mistake, which the model is told about as our agent tells it.
          if (error instanceof ToolNotOfferedError) return `Error: ${error.message}`;
          throw error;
        }
      },
    };
    return wrapped;
  }) as unknown as T;
}
