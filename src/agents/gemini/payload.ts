/**
 * Gemini CLI's hook payload read into the fields of one of our contexts.
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../../core/index.js';
import { readGeminiModelPayload } from '../../dialects/gemini-llm.js';
import { readClaudeShapedPayload } from '../claude/payload.js';
import type { Json } from '../light-profile.js';
import type { ReadPayload } from '../profile.js';

const isModelEvent = (event: HookEventName): event is 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel' =>
  event === 'BeforeModel' || event === 'BeforeToolSelection' || event === 'AfterModel';

/**
 * Gemini CLI's payload: Claude Code's shape under Gemini's names. Its stop gate's `prompt_response` is the final
 * message; BeforeModel, BeforeToolSelection and AfterModel become model events whose request is its `llm_request` —
 * the text of the conversation and three settings; no system prompt, no tools, for it sends neither — and whose answer
 * (AfterModel) is the text of its `llm_response`, one streamed chunk's.
 *
 * @internal
 */
export function readGeminiPayload(payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload {
  return readClaudeShapedPayload(payload, given, 'gemini', fail, (event) => ({
    ...(event === 'Stop' ? { final_message: payload.prompt_response } : {}),
    ...(isModelEvent(event) ? modelFields(payload, event, fail) : {}),
  }));
}

/** Gemini CLI's `llm_request` (and `llm_response`) as the request and answer a model event's context is built from. */
function modelFields(payload: Json, event: 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel', fail: (message: string) => Error): Json {
  try {
    return readGeminiModelPayload(payload, event);
  } catch (error) {
    throw fail((error as Error).message);
  }
}
