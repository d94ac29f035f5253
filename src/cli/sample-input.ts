/**
 * The event `test` and `run` dispatch: from `--event`, `--input`, `--tool` and `--args`.
 *
 * @module
 */
import { HookEvent, UnknownEventError, type AnyHookContext, type HookEventName } from '../core/index.js';
import { sampleContext, sampleEventOf } from '../script/index.js';
import { parseEvent, parseJsonObject } from './args.js';
import { UsageError } from './command.js';
import { readInput, type CliIO } from './io.js';

/** The flags that describe the event. */
export const EVENT_INPUT_FLAGS = {
  event: { type: 'string' },
  input: { type: 'string' },
  tool: { type: 'string' },
  args: { type: 'string' },
} as const;

/** What the flags said. */
export interface EventInput {
  readonly event?: string | undefined;
  readonly input?: string | undefined;
  readonly tool?: string | undefined;
  readonly args?: string | undefined;
}

/** The help lines of {@link EVENT_INPUT_FLAGS}. */
export const EVENT_INPUT_HELP = `  --input FILE|-    the event as JSON (what a HOOK.md script gets on stdin: tool_name, tool_input, prompt,
                    stop_reason, final_message, …; - reads stdin); missing fields get realistic defaults
  --tool NAME       the tool of a tool event (default bash)
  --args JSON       its arguments, a JSON object (default {"command":"ls -la"})`;

/**
 * The context to dispatch: the event is `--event`, else the one the input names (`event_type`, `hook_event_name`),
 * else `fallback`; its fields come from the input, `--tool` and `--args`, and defaults.
 *
 * @throws {@link UsageError} for an unknown event, no event at all, an input or `--args` that is not a JSON object, a
 *   field of the wrong type, or `--tool`/`--args` on an event that concerns no tool.
 */
export async function eventContext(io: CliIO, flags: EventInput, fallback?: HookEventName): Promise<AnyHookContext> {
  let payload: Record<string, unknown> = {};
  if (flags.input !== undefined) {
    let text: string;
    try {
      text = await readInput(io, flags.input);
    } catch (error) {
      throw new UsageError(`cannot read --input ${flags.input}: ${(error as Error).message}`);
    }
    payload = parseJsonObject(text, flags.input === '-' ? 'the input on stdin' : `--input ${flags.input}`);
  }
  let event = flags.event === undefined ? undefined : parseEvent(flags.event);
  try {
    event ??= sampleEventOf(payload);
  } catch (error) {
    if (error instanceof UnknownEventError) throw new UsageError(`the input names an unknown event: ${error.message}`);
    throw error;
  }
  event ??= fallback;
  if (event === undefined) throw new UsageError('name the event: --event E (e.g. --event PreToolUse), or an event_type in the input');
  if (!HookEvent.isToolEvent(event) && (flags.tool !== undefined || flags.args !== undefined)) {
    throw new UsageError(`--tool and --args describe a tool call, and ${event} concerns none`);
  }
  const toolInput = flags.args === undefined ? undefined : parseJsonObject(flags.args, '--args');
  try {
    return sampleContext(event, payload, { toolName: flags.tool, toolInput });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(`the input is not a valid ${event} event: ${error.message}`);
    throw error;
  }
}
