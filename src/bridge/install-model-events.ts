/**
 * The events `bridge --install` writes only for a hook that runs on them: those an agent fires on every model call.
 *
 * @module
 * @internal
 */
import { HookEvent, type HookEventName } from '../core/events.js';

/**
 * The events an agent fires around every model call — Gemini CLI's BeforeModel and BeforeToolSelection before each
 * request, its AfterModel on each streamed chunk of each answer. Bridged with no hook on them, each would start the
 * bridge, many times a turn, to decide nothing.
 *
 * @internal
 */
export const PER_MODEL_CALL_EVENTS: ReadonlySet<HookEventName> = new Set(['BeforeModel', 'BeforeToolSelection', 'AfterModel']);

/**
 * The names in `names` (any dialect's) of a per-model-call event that none of `hooks` runs on (a hook without
 * `events` runs on all). A name no dialect knows is left to the installer, which says so.
 *
 * @internal
 */
export function idleModelEvents(names: readonly string[], hooks: readonly { readonly events?: Iterable<HookEventName> | undefined }[]): string[] {
  if (hooks.some((hook) => hook.events === undefined)) return [];
  const listened = new Set(hooks.flatMap((hook) => [...hook.events!]));
  return names.filter((name) => {
    // The model events have one name in every dialect that has them.
    const event = HookEvent.tryParse(name);
    return event !== undefined && PER_MODEL_CALL_EVENTS.has(event) && !listened.has(event);
  });
}
