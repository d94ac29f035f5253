/**
 * The bound on what a matcher's regex is tested against.
 *
 * @module
 */

/**
 * The longest string a tool-name or input matcher tests its regex against: 16 KiB, counted in UTF-16 code units
 * (`string.length`).
 *
 * A backtracking regex can take time that grows with a power of its input's length. Patterns that would take
 * exponential or cubic time are refused where script and config hooks are loaded; what is left grows at most with the
 * square of the length, and this bound caps that: a quadratic pattern such as `\s+$` tests 16 KiB in about a tenth of
 * a second, where 64 KiB took over two seconds.
 *
 * A longer string is not tested: it counts as a match (see {@link boundedTest}), so that padding a tool input past the
 * bound cannot slip a call past a hook that guards it; the hook runs and sees the whole input.
 */
export const MATCH_INPUT_LIMIT = 16 * 1024;

/**
 * Whether `regex` matches `text`, where a `text` longer than {@link MATCH_INPUT_LIMIT} is not tested and counts as a
 * match. Use it in a `CallableMatcher` whose regex sees untrusted input, as the built-in matchers do.
 *
 * Counting as a match is the safe answer for a matcher that selects a hook (the guard runs); it is the unsafe one
 * under a negation, where "too long to tell" would become "does not match": `CompositeMatcher.not(…)` of such a
 * matcher lets an over-long input through, so test `text.length` yourself when you negate.
 */
export function boundedTest(regex: RegExp, text: string): boolean {
  return text.length > MATCH_INPUT_LIMIT || regex.test(text);
}
