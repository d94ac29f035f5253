/**
 * A light reading of an agent's hook payload, for the bridge's first stage: which event and tool it is about, and
 * whether the full reading (`readBridgePayload`) would certainly accept it — without loading the contexts, the
 * dialects or the event table. Each agent's part is its light profile (`src/agents/<id>/light.ts`); this checks the
 * fields every context reads. It leans one way only: where it is not sure, it says so (`undefined`), and the full path
 * reads the payload itself.
 *
 * @module
 * @internal
 */
import { lightProfileOf } from '../agents/light-registry.js';
import { isJsonObject as isRecord, type Json, type WrittenEvent } from '../agents/light-profile.js';

export type { WrittenEvent } from '../agents/light-profile.js';

/**
 * A payload read far enough to filter hooks by: its canonical event and its tool.
 *
 * @internal
 */
export interface PayloadCall {
  /** The canonical event. */
  readonly event: string;
  /** The tool's name, for a tool event. */
  readonly tool: string | undefined;
  /** The fields the full reading builds the context from, without those `undefined` or `null` (as it drops them). */
  readonly fields: Json;
}

/**
 * The event `payload` names, as `agent` writes it, or `undefined` when the full reading would refuse it (no event)
 * or it is not a JSON object.
 *
 * @internal
 */
export function writtenEventOf(agent: string, payload: unknown, given: string | undefined): WrittenEvent | undefined {
  if (!isRecord(payload)) return undefined;
  return lightProfileOf(agent)?.writtenEvent(payload, given);
}

const STOP_REASONS = ['no_tool_calls', 'tool_rejected', 'max_steps', 'hook_stop', 'prompt_blocked'];
const SESSION_SOURCES = ['startup', 'resume', 'clear', 'compact'];
const COMPACT_TRIGGERS = ['manual', 'auto'];
const TOOL_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure']);
/** The events whose contexts this reading knows to the last field; a payload of any other goes to the full path. */
const KNOWN_EVENTS = new Set([
  ...TOOL_EVENTS,
  'PostToolBatch',
  'Stop',
  'StopFailure',
  'SubagentStop',
  'SubagentStart',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreCompact',
  'PostCompact',
  'Notification',
]);
const MODEL_ERROR_TYPES = ['authentication_failed', 'billing_error', 'rate_limit', 'overloaded', 'invalid_request', 'model_not_found', 'server_error', 'max_output_tokens', 'unknown'];
/** A conversation of more messages than this is left to the full path (the context builds one message per count). */
const MAX_MESSAGE_COUNT = 10_000;

/** Checks the fields a context of `event` reads, each as strictly as `sampleContext` does or more. */
class FieldCheck {
  ok = true;

  constructor(private readonly fields: Json) {}

  private each(names: readonly string[], valid: (value: unknown) => boolean): void {
    for (const name of names) if (Object.hasOwn(this.fields, name) && !valid(this.fields[name])) this.ok = false;
  }

  /** The first of `names` present, as the full reading picks it. */
  first(names: readonly string[]): unknown {
    for (const name of names) if (Object.hasOwn(this.fields, name)) return this.fields[name];
    return undefined;
  }

  string(...names: string[]): void {
    this.each(names, (v) => typeof v === 'string');
  }

  count(max: number, ...names: string[]): void {
    this.each(names, (v) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max);
  }

  boolean(...names: string[]): void {
    this.each(names, (v) => typeof v === 'boolean');
  }

  object(...names: string[]): void {
    this.each(names, isRecord);
  }

  oneOf(allowed: readonly string[], ...names: string[]): void {
    this.each(names, (v) => typeof v === 'string' && allowed.includes(v));
  }

  needed(...names: string[]): void {
    if (this.first(names) === undefined) this.ok = false;
  }
}

/**
 * The call `payload` is, once its event is known to be `event` (the canonical name `written` reads as), or
 * `undefined` when the full reading might refuse the payload or read it otherwise: an event this reading does not know
 * to the last field, a field of an unexpected type, a field an event needs missing.
 *
 * @internal
 */
export function payloadCallOf(written: WrittenEvent, payload: unknown, event: string): PayloadCall | undefined {
  if (!isRecord(payload) || !KNOWN_EVENTS.has(event)) return undefined;
  const raw = lightProfileOf(written.reader)?.fields(payload, event, written.written);
  if (raw === undefined) return undefined;
  const fields: Json = {};
  for (const [key, value] of Object.entries(raw)) if (value !== undefined && value !== null) fields[key] = value;
  const check = new FieldCheck(fields);
  check.string('session_id', 'sessionId');
  check.count(Number.MAX_SAFE_INTEGER, 'step_count', 'total_steps');
  check.object('context');
  check.oneOf(STOP_REASONS, 'stop_reason');
  check.boolean('stop_hook_active');
  check.string('subagent_name', 'agent_name', 'subagent_type', 'agent_type');
  for (const name of ['final_message', 'last_assistant_message']) {
    if (!Object.hasOwn(fields, name)) continue;
    const value = fields[name];
    if (typeof value !== 'string' && !(isRecord(value) && typeof value.content === 'string')) check.ok = false;
  }
  let tool: string | undefined;
  if (TOOL_EVENTS.has(event)) {
    check.string('tool_name', 'toolName', 'tool_use_id', 'toolUseId');
    check.object('tool_input', 'toolArgs');
    check.needed('tool_name', 'toolName');
    check.needed('tool_input', 'toolArgs');
    const name = check.first(['tool_name', 'toolName']);
    if (typeof name !== 'string' || name === '') return undefined;
    tool = name;
    if (event === 'PermissionRequest') check.string('permission_reason');
    if (event === 'PermissionDenied') check.string('reason', 'permission_reason');
    if (event === 'PostToolUseFailure') check.string('tool_error', 'error');
  }
  switch (event) {
    case 'SubagentStart':
      check.string('task_description', 'task');
      break;
    case 'PostToolBatch': {
      // Every call must read as a call: a name, an object of arguments, an id when there is one, and at most one of
      // an error text or an output.
      check.count(Number.MAX_SAFE_INTEGER, 'step_index');
      check.needed('tool_calls');
      const calls = fields.tool_calls;
      if (calls !== undefined && !Array.isArray(calls)) check.ok = false;
      for (const item of Array.isArray(calls) ? calls : []) {
        if (!isRecord(item)) {
          check.ok = false;
          continue;
        }
        const each = new FieldCheck(Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined && v !== null)));
        each.string('tool_name', 'tool_use_id', 'tool_error');
        each.object('tool_input');
        each.needed('tool_name');
        each.needed('tool_input');
        if (!each.ok || item.tool_name === '') check.ok = false;
      }
      break;
    }
    case 'StopFailure':
      check.oneOf(MODEL_ERROR_TYPES, 'error_type');
      check.string('error_message', 'error_details', 'error_class');
      break;
    case 'SessionStart':
      check.oneOf(SESSION_SOURCES, 'source');
      check.string('initial_prompt');
      break;
    case 'SessionEnd':
      check.string('reason', 'exit_reason');
      break;
    case 'UserPromptSubmit':
      check.string('prompt');
      check.needed('prompt');
      break;
    case 'PreCompact':
    case 'PostCompact':
      check.count(MAX_MESSAGE_COUNT, 'message_count', 'message_count_after');
      check.oneOf(COMPACT_TRIGGERS, 'trigger');
      check.string('custom_instructions');
      break;
    case 'Notification':
      check.string('message', 'notification_type', 'title');
      check.needed('message');
      break;
  }
  return check.ok ? { event, tool, fields } : undefined;
}
