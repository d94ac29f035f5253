/**
 * The context of Notification.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The fields of a {@link NotificationHookContext}. */
export interface NotificationHookContextInit extends HookContextInit {
  /** The text shown to the user. */
  message: string;
  /** What kind of notification, e.g. `'permission_prompt'`, `'idle_prompt'`, `'warning'`. */
  notificationType?: string;
  /** A short title. */
  title?: string | undefined;
}

/** Notification: the agent tells the user something (a warning, that it is idle, that it needs permission). */
export class NotificationHookContext extends HookContextBase<'Notification'> {
  static {
    brand(this, brandKey('NotificationHookContext'));
  }

  /** The text shown to the user. */
  readonly message: string;
  /** What kind of notification. */
  readonly notificationType: string;
  /** A short title. */
  readonly title: string | undefined;

  constructor(init: NotificationHookContextInit) {
    super('Notification', init);
    this.message = init.message;
    this.notificationType = init.notificationType ?? 'info';
    this.title = init.title;
    Object.freeze(this);
  }

  /** A Notification context. */
  static notify(message: string, init: Omit<NotificationHookContextInit, 'message'> = {}): NotificationHookContext {
    return new NotificationHookContext({ ...init, message });
  }

  override get subject(): string {
    return this.notificationType;
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      message: this.message,
      notificationType: this.notificationType,
      ...(this.title !== undefined ? { title: this.title } : {}),
    };
  }
}
