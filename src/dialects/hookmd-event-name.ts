/**
 * The event names of the HOOK.md protocol, apart from the dialect: the bridge's first stage learns them without
 * loading the contexts.
 *
 * @module
 * @internal
 */
import { HookEvent, type HookEventName } from '../core/events.js';

/**
 * The name a HOOK.md script receives in `event_type`: from the family its author wrote the trigger in. A trigger
 * written `before_tool` gets the old snake_case names; `pre-tool-call`, a canonical name (`PreToolUse`) or any other
 * dialect's name gets the current kebab-case ones. Events the family lacks fall back to the other family, then to the
 * canonical name.
 *
 * @internal
 */
export function hookMdEventName(event: HookEventName, written?: string): string {
  const legacy = written !== undefined && HookEvent.tryParse(written, 'hookmd-legacy') !== undefined;
  const [first, second] = legacy ? (['hookmd-legacy', 'hookmd'] as const) : (['hookmd', 'hookmd-legacy'] as const);
  return HookEvent.toDialect(event, first) ?? HookEvent.toDialect(event, second) ?? event;
}
