/**
 * Where the messages of background hooks that wake the model wait for its next call.
 *
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { WakeSource } from '../core/index.js';
import type { AgentEvents } from './agent-events.js';

/**
 * The messages background hooks hand the model (Claude Code's `asyncRewake` hooks that exit 2), waiting for its next
 * call: one inbox per session, so that a hook done after a turn reaches the next turn, and one per plain `run`. Once
 * no model call can follow (the run, or the session, is over), a message is told as undelivered, with a warning.
 *
 * @internal
 */
export class WakeInbox {
  private readonly waiting: { readonly message: string; readonly from: WakeSource }[] = [];
  private closed = false;

  constructor(private readonly emitter: EventEmitter<AgentEvents>) {}

  /** Queues `message` for the next model call; once the inbox is closed, warns that no model will see it. */
  push(message: string, from: WakeSource): void {
    if (this.closed) this.undelivered(message, from);
    else this.waiting.push({ message, from });
  }

  /** The messages waiting, in the order they came; the inbox is empty after. */
  take(): string[] {
    return this.waiting.splice(0).map((w) => w.message);
  }

  /** No model call follows: what waits, and whatever comes later, is told as undelivered. */
  close(): void {
    this.closed = true;
    for (const { message, from } of this.waiting.splice(0)) this.undelivered(message, from);
  }

  private undelivered(message: string, from: WakeSource): void {
    this.emitter.emit('warning', {
      code: 'wake-undelivered',
      message: `Hook '${from.hookName}' woke the model after its run had ended, with no session turn to follow; the message reached no model: ${message}`,
      event: from.event,
      hookName: from.hookName,
    });
  }
}
