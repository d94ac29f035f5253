/**
 * What a wrapped AI SDK tool answers when a hook failed the conversation.
 *
 * @module
 */
import { messageOf } from '../../../core/internal/message-of.js';

/**
 * The result of a tool call a hook failed (under `onHookError: 'fail'`): the tool's `toModelOutput` throws `error`.
 *
 * Why a result and not a throw: the AI SDK turns whatever `execute` throws into a `tool-error` the model is shown,
 * and goes on. `generateText` and `streamText` call `toModelOutput` on each result before the next model call, outside
 * that catch, so the error thrown there ends the loop (`generateText` rejects, `streamText`'s stream errors) before
 * the model sees anything of it.
 */
export class FailedToolCall {
  constructor(readonly error: unknown) {}

  /** What telemetry and a UI stream record of the call: the failure's message, for the caller. */
  toJSON(): { readonly hookFailure: string } {
    return { hookFailure: messageOf(this.error) };
  }
}
