/**
 * The error for a pattern that cannot be compiled.
 *
 * @module
 */
import { messageOf } from '../internal/message-of.js';

/** Thrown when a matcher is built from a pattern that cannot be compiled; names the pattern and why. */
export class MatcherSyntaxError extends SyntaxError {
  /** `'MatcherSyntaxError'`, or the name of a subclass for a narrower kind of pattern problem. */
  override readonly name: string = 'MatcherSyntaxError';
  /** The pattern as given. */
  readonly pattern: string;

  constructor(pattern: string, problem: string) {
    super(`Invalid matcher pattern ${JSON.stringify(pattern)}: ${problem}`);
    this.pattern = pattern;
  }
}

// Only real flags count, so that a path such as '/bin/bash' is not read as a regex with flags 'bash'.
const REGEX_LITERAL = /^\/(.+)\/([dgimsuvy]*)$/s;

/**
 * Whether `pattern` is written as a regex literal, `/source/flags`.
 *
 * @internal
 */
export function isRegexLiteral(pattern: string): boolean {
  return REGEX_LITERAL.test(pattern);
}

/**
 * Compiles `/source/flags`, or a bare source when `bare` is true. The `g` and `y` flags are dropped: they make
 * `test()` stateful, so the same matcher would answer differently on the same input.
 *
 * @throws {@link MatcherSyntaxError} naming the pattern.
 *
 * @internal
 */
export function compileRegex(pattern: string, bare = false): RegExp {
  const literal = REGEX_LITERAL.exec(pattern);
  let source: string;
  let flags: string;
  if (literal) {
    source = literal[1]!;
    flags = literal[2]!.replace(/[gy]/g, '');
  } else if (bare) {
    source = pattern;
    flags = '';
  } else {
    throw new MatcherSyntaxError(pattern, 'a regular expression must be written /source/flags.');
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new MatcherSyntaxError(pattern, `${messageOf(error)}. Escape special characters with \\ to match them literally.`);
  }
}

/**
 * A copy of `re` without the stateful `g`/`y` flags.
 *
 * @internal
 */
export function statelessRegex(re: RegExp): RegExp {
  return re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re;
}
