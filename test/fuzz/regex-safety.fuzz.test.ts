/**
 * Random regexes from a grammar of atoms, quantifiers, groups and alternatives: the shape-only fast path never lets
 * through what the checker would refuse, and compiling one either succeeds or fails with a MatcherSyntaxError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileManifestRegex, MatcherSyntaxError, UnsafeRegexError } from 'agent-hooks';
import { loadRecheckEngine } from '../../src/script/internal/recheck-engine.js';
import { isSimpleRegex, MAX_ACCEPTED_DEGREE } from '../../src/script/internal/regex-safety.js';
import { sized } from '../support/size.js';

interface Diagnostics {
  status: 'safe' | 'vulnerable' | 'unknown';
  complexity?: { type: string; degree?: number };
}

/** recheck's verdict without our fast path, run in this thread by the engine the package ships. */
function recheck(source: string): Diagnostics {
  return loadRecheckEngine()!.checkSync(source, '', { timeout: 5000 });
}

const regex = fc.letrec((tie) => ({
  atom: fc.constantFrom('a', 'b', '.', '\\s', '\\w', '\\d', '[ab]', '[^|]', 'x', '\\.', '-'),
  quantifier: fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?'),
  piece: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(tie('atom') as fc.Arbitrary<string>, tie('quantifier') as fc.Arbitrary<string>).map(([a, q]) => a + q),
    fc
      .tuple(fc.constantFrom('(', '(?:'), tie('alternation') as fc.Arbitrary<string>, tie('quantifier') as fc.Arbitrary<string>)
      .map(([open, body, q]) => `${open}${body})${q}`),
  ),
  sequence: fc.array(tie('piece') as fc.Arbitrary<string>, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('')),
  alternation: fc.array(tie('sequence') as fc.Arbitrary<string>, { minLength: 1, maxLength: 2 }).map((alts) => alts.join('|')),
  pattern: fc
    .tuple(fc.constantFrom('', '^'), tie('alternation') as fc.Arbitrary<string>, fc.constantFrom('', '$'))
    .map(([start, body, end]) => start + body + end),
})).pattern;

describe('regex safety, fuzzed', () => {
  it('a pattern the fast path accepts is one recheck finds at most quadratic', () => {
    fc.assert(
      fc.property(regex.filter(isSimpleRegex), (source) => {
        const verdict = recheck(source);
        if (verdict.status !== 'vulnerable') return;
        expect(verdict.complexity?.type, source).toBe('polynomial');
        expect(verdict.complexity?.degree, source).toBeLessThanOrEqual(MAX_ACCEPTED_DEGREE);
      }),
      { numRuns: sized(150) },
    );
  }, 120_000);

  it('compiling any pattern gives a regex or a MatcherSyntaxError that names it', () => {
    fc.assert(
      // Short ones: a long random pattern often takes the checker its whole budget.
      fc.property(regex.filter((source) => source.length <= 30), (source) => {
        try {
          expect(compileManifestRegex(source).source).toBe(new RegExp(source).source);
        } catch (error) {
          expect(error).toBeInstanceOf(MatcherSyntaxError);
          expect((error as MatcherSyntaxError).pattern).toBe(source);
          if (error instanceof UnsafeRegexError) expect(error.message).toMatch(/ReDoS.*rewrite it/);
        }
      }),
      { numRuns: sized(60) },
    );
  }, 120_000);
});
