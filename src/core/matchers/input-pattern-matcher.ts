/**
 * Matching by tool input.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import type { HookMatcher, MatcherHints } from './hook-matcher.js';
import { compileRegex, statelessRegex } from './matcher-syntax-error.js';
import { boundedTest } from './match-input-limit.js';
import { TOOL_EVENTS } from '../events.js';
import { boundedStringify } from '../internal/json-depth.js';
import type { ToolCall } from '../tool-call.js';

/** The input's JSON, or `undefined` when it cannot be made safely (nested too deep, a cycle, a BigInt). */
function inputJson(call: ToolCall): string | undefined {
  try {
    return call.argsJson();
  } catch {
    return undefined;
  }
}

/** Options of an {@link InputPatternMatcher}. */
export interface InputPatternOptions {
  /**
   * Test only this argument (a dotted path such as `command` or `options.path`), as a string, instead of the JSON of
   * the whole input. A missing argument does not match.
   */
  field?: string;
}


/**
 * Matches tool events whose input matches a regex: by default the JSON of the whole input (so `/rm -rf/` finds the
 * words in any argument), or one argument with `{ field }`. The pattern is a RegExp, a `/source/flags` literal or a
 * bare regex source.
 *
 * The regex is tested against at most {@link MATCH_INPUT_LIMIT} characters: a longer input (or argument) is not
 * tested and counts as a match, so that no pattern can stall a dispatch and no padding can slip a call past the hook
 * it selects. An input that cannot be serialised (nested more than 256 levels deep, a cycle, a BigInt) counts as a
 * match for the same reason: the hook runs, and a script hook refuses what it cannot be sent. Under
 * `CompositeMatcher.not(…)` either means the input does not match.
 *
 * ```ts
 * new InputPatternMatcher(/rm\s+-rf/, { field: 'command' });
 * ```
 *
 * @throws {@link MatcherSyntaxError} for an invalid regex, naming the pattern.
 */
export class InputPatternMatcher implements HookMatcher {
  /** The compiled pattern. */
  readonly regex: RegExp;
  /** The argument tested, when not the whole input. */
  readonly field: string | undefined;
  /** Tool events only. */
  readonly hints: MatcherHints = { events: TOOL_EVENTS };
  private readonly path: readonly string[] | undefined;

  constructor(pattern: string | RegExp, options: InputPatternOptions = {}) {
    this.regex = pattern instanceof RegExp ? statelessRegex(pattern) : compileRegex(pattern, true);
    this.field = options.field;
    this.path = options.field?.split('.');
  }

  matches(ctx: AnyHookContext): boolean {
    if (!TOOL_EVENTS.has(ctx.event)) return false;
    const call = (ctx as Extract<AnyHookContext, { toolCall: unknown }>).toolCall;
    if (this.path === undefined) {
      const json = inputJson(call);
      return json === undefined || boundedTest(this.regex, json);
    }
    let value: unknown = call.args;
    for (const key of this.path) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
      value = (value as Record<string, unknown>)[key];
    }
    if (value === undefined) return false;
    const text = typeof value === 'string' ? value : boundedStringify(value);
    return text === undefined || boundedTest(this.regex, text);
  }

  toString(): string {
    return this.field === undefined ? `input:${this.regex}` : `input.${this.field}:${this.regex}`;
  }
}
