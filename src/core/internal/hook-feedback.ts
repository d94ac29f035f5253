// Internal: not exported from the package.
import type { Message } from '../message.js';

/**
 * The user messages the run itself wrote from a hook's answer (a Stop hook's feedback, an AfterModel retry's reason),
 * as opposed to prompts: Claude Code's transcript tells them apart (a prompt is queued, and becomes `last-prompt`;
 * a hook's feedback is a meta line). Kept by identity, so the conversation's messages stay plain JSON; a message
 * rebuilt since (by a hook's rewrite, or read back from a snapshot) reads as a prompt.
 */
const fromHooks = new WeakSet<Message>();

/** `message`, marked as written from a hook's answer. */
export function asHookFeedback(message: Message): Message {
  fromHooks.add(message);
  return message;
}

/** Whether `message` was written from a hook's answer (see {@link asHookFeedback}). */
export const isHookFeedback = (message: Message): boolean => fromHooks.has(message);
