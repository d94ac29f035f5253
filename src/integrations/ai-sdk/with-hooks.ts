/**
 * AI SDK tools whose `execute` runs through the hooks.
 *
 * @module
 */
import { asSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import { UnknownToolError } from '../../agent/index.js';
import { ToolCall } from '../../core/index.js';
import { LoopHooks, type HookSource, type LoopHooksOptions } from '../loop-hooks.js';
import { FailedToolCall } from './internal/failed-tool-call.js';
import { fromModelMessages } from './internal/messages.js';

type ModelOutputOptions = Parameters<NonNullable<Tool['toModelOutput']>>[0];
type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * The tool's `toModelOutput`, which throws the failure of a call a hook failed (see {@link FailedToolCall}); other
 * results go to the tool's own, or become what the SDK makes of a result without one.
 */
const modelOutputOf =
  (own: Tool['toModelOutput']) =>
  (options: ModelOutputOptions): ModelOutput | PromiseLike<ModelOutput> => {
    if (options.output instanceof FailedToolCall) throw options.output.error;
    if (own !== undefined) return own(options);
    const { output } = options;
    return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: (output ?? null) as never };
  };

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';

/** A streaming tool's final value: the SDK treats the last value it yields as the result. */
async function lastOf(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}

/**
 * Wraps AI SDK tools so that each call runs through the hooks (see {@link LoopHooks.runTool}), for programs that keep
 * their own `generateText` or `streamText` loop:
 *
 * - PreToolUse runs before `execute`, with a `ToolHookContext` whose `toolCall` has the SDK's `toolCallId`. A block
 *   does not run the tool: `execute` returns `Tool call blocked by a hook: <reason>`, which the model sees as the tool's
 *   result. An input a hook rewrote is validated again with the tool's `inputSchema`, and is what `execute` receives.
 * - An `ask` fires PermissionRequest, Notification, then asks `options.approver`; without one the call is refused with
 *   `Tool call refused: approval needed (<reason>) and no approver was given`.
 * - PostToolUse runs after `execute`: a returned `ToolExecution` replaces the result, a block replaces it with
 *   `Tool result rejected by a hook: <reason>`. When `execute` throws, PostToolUseFailure runs and the error goes on to
 *   the SDK (which tells the model), unless a hook replaced it with a result.
 * - A tool whose `execute` streams (an async iterable) is run to its end; hooks see its last value.
 * - Tools without `execute` (provider-executed, or answered by the client) are returned unchanged.
 * - A call to a tool the step's model call did not offer — {@link hooksMiddleware}'s BeforeToolSelection or
 *   BeforeModel took it out of the provider's request, or chose mode `none` — does not run: the SDK looks calls up in
 *   its own tool set, which the middleware does not narrow, so `execute` throws a `ToolNotOfferedError` (`Tool 'bash'
 *   was not offered this step, so it was not run. Offered tools: read.`) before PreToolUse, PostToolUseFailure fires,
 *   and the SDK shows the model that error, as our agent does. Wrap every tool that has an `execute`.
 * - A hook that throws under `onHookError: 'fail'` (the default) ends the loop: `generateText` rejects with its
 *   `HookError`, and `streamText`'s stream errors with it, before the model is called again, so the model is never
 *   shown the error; the tool does not run (PreToolUse), or its result is dropped (PostToolUse). `hooks.failure` keeps
 *   the error, and a `hook-failed` warning and AgentFailed fire. (The SDK would turn an error thrown by `execute` into
 *   a `tool-error` for the model and go on: `execute` resolves instead with a marker that the tool's `toModelOutput`
 *   throws.) Under `'ignore'` the hook is skipped with a `hook-error` warning; under `'block'` the call is refused
 *   with the hook's error as the reason.
 *
 * `hooks` is a `HookStack`, an `AgentBuilder` (its callbacks and HOOK.md sources, with its `onHookError` policy), or a
 * {@link LoopHooks} shared with {@link hooksMiddleware}, which also delivers the hooks' `additionalContext` to the
 * model and ends the loop after a `stop`. Asynchronous script hooks keep running after a call: keep the `LoopHooks`
 * and `await hooks.drain()` before the program exits.
 *
 * ```ts
 * const hooks = new LoopHooks(AgentBuilder.new().onBeforeToolUse(blockRmRf, { matcher: 'bash' }));
 * const result = await generateText({
 *   model: wrapLanguageModel({ model: openai('gpt-4.1'), middleware: hooksMiddleware(hooks) }),
 *   tools: withHooks({ bash }, hooks),
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Clean up the build folder',
 * });
 * await hooks.drain();
 * ```
 */
export function withHooks<TOOLS extends ToolSet>(tools: TOOLS, hooks: HookSource, options?: LoopHooksOptions): TOOLS {
  if (tools === null || typeof tools !== 'object') throw new TypeError(`withHooks() takes an object of AI SDK tools, got ${String(tools)}.`);
  const loop = LoopHooks.from(hooks, options);
  const names = Object.keys(tools);
  const wrapped: Record<string, unknown> = {};
  for (const [name, original] of Object.entries(tools)) {
    const execute = original.execute;
    if (typeof execute !== 'function') {
      wrapped[name] = original;
      continue;
    }
    wrapped[name] = {
      ...original,
      toModelOutput: modelOutputOf(original.toModelOutput),
      execute: async (input: unknown, execution: ToolExecutionOptions) => {
        if (input === null || typeof input !== 'object' || Array.isArray(input)) {
          throw new TypeError(`Tool '${name}' got a ${Array.isArray(input) ? 'list' : typeof input} as input; hooks need an object: give it an object inputSchema.`);
        }
        const call = new ToolCall(name, input as Record<string, unknown>, execution.toolCallId);
        return runThrough(loop, () =>
          loop.runTool(
            call,
            async (final) => {
              const target = tools[final.name];
              if (target?.execute === undefined) throw new UnknownToolError(final.name, names);
              let value: unknown = input;
              if (final.args !== call.args || final.name !== name) {
                // A hook rewrote the call: the SDK validated the model's input, so the rewrite is validated here.
                const schema = asSchema(target.inputSchema);
                const checked = schema.validate ? await schema.validate(final.args) : { success: true as const, value: final.args };
                if (!checked.success) throw new TypeError(`Invalid input for tool '${final.name}' after a hook rewrote it: ${checked.error.message}`);
                value = checked.value;
              }
              const result: unknown = await target.execute(value as never, execution);
              return isAsyncIterable(result) ? lastOf(result) : result;
            },
            { signal: execution.abortSignal, messages: fromModelMessages(execution.messages) },
          ),
        );
      },
    };
  }
  return wrapped as TOOLS;
}

/** The call's result, or a {@link FailedToolCall} when the conversation failed: never an error the SDK shows the model. */
async function runThrough(loop: LoopHooks, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (loop.failure !== undefined && error === loop.failure) return new FailedToolCall(error);
    throw error;
  }
}
