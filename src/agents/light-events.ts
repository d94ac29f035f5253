/**
 * Reading an agent's event name by a dialect of the core alias table, for the light profiles' `learnEvent`: the table
 * is loaded only then.
 *
 * @module
 * @internal
 */
import type { EventDialect } from '../core/events.js';

/**
 * The canonical event `written` reads as in `dialect` (then in any dialect), or `null`.
 *
 * @internal
 */
export async function learnByDialect(dialect: EventDialect, written: string): Promise<string | null> {
  const { HookEvent } = await import('../core/events.js');
  return HookEvent.tryParse(written, dialect) ?? HookEvent.tryParse(written) ?? null;
}
