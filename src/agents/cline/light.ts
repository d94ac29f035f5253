/**
 * Cline's CLI payload as the bridge's first stage reads it — and as the full reader builds its fields from. Node's own
 * modules only.
 *
 * Cline runs one executable per event from `.clinerules/hooks/`, with a payload of its own: the event is its
 * `hookName` (`tool_call`, not the file's `PreToolUse`), and the event's data sits under a key named after the hook
 * file (`preToolUse`, `taskStart`, …) beside snake_case copies (`tool_call: {name, input}`).
 *
 * @module
 * @internal
 */
import { isJsonObject, type Json, type LightAgentProfile, type WrittenEvent } from '../light-profile.js';

/**
 * Each `hookName` Cline sends, with the canonical event it is, as Cline 3.0's hook runner names them.
 *
 * @internal
 */
export const CLINE_HOOK_NAMES: Readonly<Record<string, string>> = Object.freeze({
  agent_start: 'SessionStart',
  agent_resume: 'SessionStart',
  prompt_submit: 'UserPromptSubmit',
  tool_call: 'PreToolUse',
  tool_result: 'PostToolUse',
  agent_end: 'Stop',
  agent_error: 'StopFailure',
  agent_abort: 'SessionEnd',
  session_shutdown: 'SessionEnd',
});

/** The key of each event's own data, and the `hookName` it comes with: the event is told by it when `hookName` is not one Cline's runner writes. */
const EVENT_KEYS: readonly (readonly [key: string, hookName: string])[] = [
  ['preToolUse', 'tool_call'],
  ['postToolUse', 'tool_result'],
  ['userPromptSubmit', 'prompt_submit'],
  ['taskStart', 'agent_start'],
  ['taskResume', 'agent_resume'],
  ['taskComplete', 'agent_end'],
];

/**
 * Cline's name for the event of `payload`: its `hookName` when it is one Cline writes, else the name its event's data
 * says; `undefined` when neither tells.
 *
 * @internal
 */
export function clineHookNameOf(payload: Json): string | undefined {
  const named = payload.hookName;
  if (typeof named === 'string' && Object.hasOwn(CLINE_HOOK_NAMES, named)) return named;
  return EVENT_KEYS.find(([key]) => isJsonObject(payload[key]))?.[1];
}

/**
 * The canonical event Cline's `written` name is: a `hookName` (`tool_call`) or a hook file's name (`PreToolUse`,
 * `TaskStart`, as `--event` may give it), or `undefined`.
 *
 * @internal
 */
export function clineEventOf(written: string): string | undefined {
  if (Object.hasOwn(CLINE_HOOK_NAMES, written)) return CLINE_HOOK_NAMES[written];
  return Object.hasOwn(CLINE_FILE_EVENTS, written) ? CLINE_FILE_EVENTS[written] : undefined;
}

/**
 * Each hook file Cline runs from `.clinerules/hooks/` (its name, without an extension), with the canonical event it
 * is. `PreCompact` is left out: Cline 3.0 lists the file but fires no hook for it.
 *
 * @internal
 */
export const CLINE_FILE_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  TaskStart: 'SessionStart',
  TaskResume: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  TaskComplete: 'Stop',
  TaskError: 'StopFailure',
  TaskCancel: 'SessionEnd',
  SessionShutdown: 'SessionEnd',
});

/**
 * Cline's input of its shell tool `run_commands` (`{commands: [..]}`) with the shared vocabulary's `command` beside
 * it — the commands one a line, as they run one after the other — so that a `tool: Shell` guard reading
 * `tool_input.command` sees every command of the call. Any other input is as given.
 *
 * @internal
 */
export function clineToolInput(name: unknown, input: unknown): unknown {
  if (name !== 'run_commands' || !isJsonObject(input)) return input;
  const { commands } = input;
  const list = typeof commands === 'string' ? [commands] : Array.isArray(commands) ? commands.filter((c): c is string => typeof c === 'string') : [];
  return { ...input, command: list.join('\n') };
}

/**
 * The fields of Cline's payload, in the snake_case our contexts are built from: the project is the first workspace
 * root, the session the task.
 *
 * @internal
 */
export function clineFields(payload: Json, hookName: string): Json {
  const call = isJsonObject(payload.tool_call) ? payload.tool_call : isJsonObject(payload.tool_result) ? payload.tool_result : undefined;
  const roots = Array.isArray(payload.workspaceRoots) ? payload.workspaceRoots : [];
  const prompt = isJsonObject(payload.userPromptSubmit) ? payload.userPromptSubmit.prompt : undefined;
  const error = isJsonObject(payload.error) ? payload.error : undefined;
  const result = isJsonObject(payload.tool_result) ? payload.tool_result : undefined;
  return {
    session_id: payload.taskId,
    cwd: typeof roots[0] === 'string' ? roots[0] : undefined,
    tool_name: call?.name,
    tool_input: call === undefined ? undefined : clineToolInput(call.name, call.input),
    tool_response: result?.output,
    ...(typeof result?.error === 'string' ? { error: result.error } : {}),
    prompt,
    source: hookName === 'agent_resume' ? 'resume' : hookName === 'agent_start' ? 'startup' : undefined,
    reason: typeof payload.reason === 'string' ? payload.reason : hookName === 'session_shutdown' || hookName === 'agent_abort' ? hookName : undefined,
    error_message: error?.message,
    error_class: error?.name,
    last_assistant_message: isJsonObject(payload.turn) ? payload.turn.outputText : undefined,
  };
}

/**
 * The event Cline's payload names (`given`, from `--event`, wins), read under the rule `cline`.
 *
 * @internal
 */
export function clineWrittenEvent(payload: Json, given: string | undefined): WrittenEvent | undefined {
  const written = given ?? clineHookNameOf(payload);
  return written === undefined ? undefined : { rule: 'cline', written, reader: 'cline' };
}

/**
 * Cline's CLI, for the first stage.
 *
 * @internal
 */
export const clineLight: LightAgentProfile<'cline'> = {
  id: 'cline',
  // Cline sets no variable for the project: it runs each hook in the workspace root.
  projectVariables: [],
  writtenEvent: clineWrittenEvent,
  fields: (payload) => clineFields(payload, clineHookNameOf(payload) ?? ''),
  learnEvent: (_rule, written) => Promise.resolve(clineEventOf(written) ?? null),
};
