/**
 * The error for a matcher regex that can take catastrophic time.
 *
 * @module
 */
import { MatcherSyntaxError } from '../core/index.js';

/**
 * How the matching time of a refused regex grows with the length of its input.
 *
 * @internal
 */
export type UnsafeRegexComplexity = 'exponential' | 'polynomial';

/**
 * Thrown when a HOOK.md or config-file matcher regex compiles but can backtrack catastrophically (ReDoS): in
 * exponential time, or in polynomial time of degree 3 or more, on some inputs. Such a regex could stall every dispatch
 * it is tested in, so it is refused where it is loaded, with a problem naming the file, the field and the pattern.
 *
 * A subclass of {@link MatcherSyntaxError}, so that code which handles a pattern that does not compile handles this one
 * too.
 *
 * @internal
 */
export class UnsafeRegexError extends MatcherSyntaxError {
  /** Always `'UnsafeRegexError'`. */
  override readonly name: string = 'UnsafeRegexError';
  /** How its matching time grows with the input's length. */
  readonly complexity: UnsafeRegexComplexity;
  /** For a polynomial regex, the power of the input's length its time grows with (3 or more). */
  readonly degree: number | undefined;
  /** What is wrong, as the rest of a sentence whose subject is the pattern: "can take exponential time …". */
  readonly risk: string;
  /** How to fix it, in one clause. */
  readonly fix: string;
  /** Whether it was refused for its shape, the checker having run out of time, rather than proven slow. */
  readonly suspected: boolean;

  /**
   * `suspected`: the checker could not decide in time, and the pattern repeats a group that holds a repeat, the shape
   * of exponential backtracking (`true`), or holds no such shape but could not be proven safe either (`'unproven'`).
   */
  constructor(pattern: string, complexity: UnsafeRegexComplexity, degree?: number, suspected: boolean | 'unproven' = false) {
    const risk =
      suspected === 'unproven'
        ? 'could not be proven safe from catastrophic backtracking (ReDoS): the checker gave no answer within its time budget, and a pattern nothing could clear is not run'
        : suspected
          ? 'repeats a group that itself repeats, which can take exponential time on some inputs (ReDoS), and could not be proven safe in time'
          : complexity === 'exponential'
            ? 'can take exponential time on some inputs (ReDoS)'
            : `can take time that grows as the input's length to the power of ${degree ?? 'three or more'} (ReDoS)`;
    const fix =
      suspected === 'unproven'
        ? 'rewrite it simpler so that it can be checked: fewer repeats (*, +, {n,m}) in one pattern, no repeated group that holds a repeat (as (?:.*,){10}), or split it between the tool and pattern fields'
        : complexity === 'exponential'
          ? 'rewrite it so that no text can match it in more than one way: no quantifier inside a repeated group, as in (a+)+ or (\\w+\\s?)*, and no overlapping alternatives inside one, as in (a|a)* or (a|ab)*'
          : 'rewrite it so that neighbouring repeats cannot match the same characters, as in .*.* or \\s*\\s*: merge them, or separate them with a character that neither can match';
    super(pattern, `it ${risk}; ${fix}.`);
    this.complexity = complexity;
    this.degree = degree;
    this.risk = risk;
    this.fix = fix;
    this.suspected = suspected !== false;
  }
}
