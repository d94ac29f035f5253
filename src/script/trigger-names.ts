/**
 * The event names a HOOK.md `trigger` may use.
 *
 * @module
 */
import { HOOK_EVENTS, HookEvent, type EventDialect } from '../core/index.js';

// HOOK.md authors meet their own spec's names first (in editor completion lists and in error messages), then the
// older HOOK.md names, then the names they know from other agents.
const ORDER: readonly EventDialect[] = ['hookmd', 'hookmd-legacy', 'canonical', 'claude', 'copilot', 'gemini', 'cursor', 'codex', 'php', 'php-value'];

function namesIn(dialects: readonly EventDialect[]): string[] {
  const names = new Set<string>();
  for (const dialect of dialects) {
    for (const event of HOOK_EVENTS) {
      const name = HookEvent.toDialect(event, dialect);
      if (name !== undefined) names.add(name);
    }
  }
  return [...names];
}

/**
 * Every name a `trigger` accepts: each alias of each event in the core alias table, without duplicates. It is derived
 * from the table rather than checked against it, so the JSON Schema lists exactly what the loader accepts and a new
 * alias in core reaches editors without a change here.
 *
 * The names are read without a dialect, as `HookEvent.parse(name)` reads them, so `AfterAgent` is the canonical
 * AfterAgent (the HOOK.md `post-agent-turn` observer) and not Gemini's AfterAgent, which is a stop gate (Stop): a
 * HOOK.md file is not a Gemini config, and the HOOK.md spec's own name for the stop gate is `pre-agent-turn-stop`.
 *
 * @internal
 */
export const HOOK_TRIGGER_NAMES: readonly [string, ...string[]] = Object.freeze(namesIn(ORDER)) as readonly [
  string,
  ...string[],
];

/**
 * The HOOK.md spec's current names (`pre-tool-call`, …), the ones error messages offer first.
 *
 * @internal
 */
export const HOOKMD_TRIGGER_NAMES: readonly string[] = Object.freeze(namesIn(['hookmd']));
