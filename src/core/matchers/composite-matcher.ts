/**
 * Combining matchers.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import { HookEvent, type HookEventName } from '../events.js';
import { isHookMatcher, type HookMatcher, type MatcherHints } from './hook-matcher.js';

/** How a composite combines its parts. */
export type CompositeOperator = 'and' | 'or' | 'not';

/**
 * AND, OR and NOT of other matchers, nested as deep as needed. Hints are combined too, so a composite of tool-name
 * matchers still lets the stack index the hook by tool name.
 *
 * ```ts
 * CompositeMatcher.and(
 *   CompositeMatcher.or(new ToolNameMatcher('bash'), new ToolNameMatcher('shell')),
 *   new CallableMatcher((ctx) => ctx.get('safe_mode') === true),
 * );
 * ```
 */
export class CompositeMatcher implements HookMatcher {
  /** How the parts are combined. */
  readonly operator: CompositeOperator;
  /** The parts. */
  readonly matchers: readonly HookMatcher[];
  /** What the parts' hints allow to say about the whole. */
  readonly hints: MatcherHints | undefined;

  private constructor(operator: CompositeOperator, matchers: readonly HookMatcher[]) {
    matchers.forEach((m, i) => {
      if (!isHookMatcher(m)) throw new TypeError(`CompositeMatcher.${operator}(): argument ${i + 1} is not a matcher.`);
    });
    if (matchers.length === 0) throw new TypeError(`CompositeMatcher.${operator}() needs at least one matcher.`);
    this.operator = operator;
    this.matchers = Object.freeze([...matchers]);
    this.hints = operator === 'and' ? andHints(this.matchers) : operator === 'or' ? orHints(this.matchers) : notHints(this.matchers[0]!);
  }

  /** Matches when every part matches. */
  static and(...matchers: HookMatcher[]): CompositeMatcher {
    return new CompositeMatcher('and', matchers);
  }

  /** Matches when any part matches. */
  static or(...matchers: HookMatcher[]): CompositeMatcher {
    return new CompositeMatcher('or', matchers);
  }

  /** Matches when the part does not. */
  static not(matcher: HookMatcher): CompositeMatcher {
    return new CompositeMatcher('not', [matcher]);
  }

  matches(ctx: AnyHookContext): boolean {
    const parts = this.matchers;
    switch (this.operator) {
      case 'and':
        for (let i = 0; i < parts.length; i++) if (!parts[i]!.matches(ctx)) return false;
        return true;
      case 'or':
        for (let i = 0; i < parts.length; i++) if (parts[i]!.matches(ctx)) return true;
        return false;
      case 'not':
        return !parts[0]!.matches(ctx);
    }
  }

  toString(): string {
    return `${this.operator}(${this.matchers.map(String).join(', ')})`;
  }
}

const intersect = <T>(a: ReadonlySet<T> | undefined, b: ReadonlySet<T> | undefined): ReadonlySet<T> | undefined =>
  a === undefined ? b : b === undefined ? a : new Set([...a].filter((x) => b.has(x)));

const sameSet = <T>(a: ReadonlySet<T> | undefined, b: ReadonlySet<T> | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.size === b.size && [...a].every((x) => b.has(x)));

function andHints(parts: readonly HookMatcher[]): MatcherHints {
  let events: ReadonlySet<HookEventName> | undefined;
  let toolNames: ReadonlySet<string> | undefined;
  let exact = true;
  for (const part of parts) {
    events = intersect(events, part.hints?.events);
    toolNames = intersect(toolNames, part.hints?.toolNames);
    exact &&= part.hints?.exact === true;
  }
  return { events, toolNames, exact };
}

function orHints(parts: readonly HookMatcher[]): MatcherHints {
  const first = parts[0]!.hints;
  let events: Set<HookEventName> | undefined = first?.events ? new Set(first.events) : undefined;
  let toolNames: Set<string> | undefined = first?.toolNames ? new Set(first.toolNames) : undefined;
  // Exact only when every part covers the same events: the union of names is then the whole truth.
  let exact = first?.exact === true;
  for (const part of parts.slice(1)) {
    const h = part.hints;
    exact &&= h?.exact === true && sameSet(h.events, first?.events);
    if (events !== undefined && h?.events !== undefined) h.events.forEach((e) => events!.add(e));
    else events = undefined;
    if (toolNames !== undefined && h?.toolNames !== undefined) h.toolNames.forEach((n) => toolNames!.add(n));
    else toolNames = undefined;
  }
  return { events, toolNames, exact };
}

function notHints(part: HookMatcher): MatcherHints | undefined {
  const h = part.hints;
  // Only a complete, event-only description can be negated into another complete one.
  if (h?.exact !== true || h.toolNames !== undefined || h.events === undefined) return undefined;
  return { events: new Set(HookEvent.all.filter((e) => !h.events!.has(e))), exact: true };
}
