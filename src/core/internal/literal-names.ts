// Internal: not exported from the package.

/**
 * The most strings a regex may stand for and still be indexed by them: past it, `/^(a|b)(c|d)(e|f)…$/` would fill
 * the index with a product of lists.
 */
const MAX_NAMES = 256;

// Characters with a meaning of their own in a regex outside a class; everything else stands for itself.
const SYNTAX = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
// An escaped character that stands for itself: punctuation only (`\d`, `\n`, `\1`, `\u…` are classes, controls,
// back-references, code points).
const LITERAL_ESCAPE = /^[!-/:-@[-`{-~]$/;

const START = '\u{10FFFF}^';
const END = '\u{10FFFF}$';

/** A token sequence: single characters, or the START / END anchor marks. */
type Seq = readonly string[];

/**
 * The exact, finite set of strings `regex` matches in full, when it has one that the stack can index by: a pattern
 * anchored at both ends, made of plain characters, escaped punctuation and groups of alternatives (`^Bash$`,
 * `^(Write|Edit)$`, `^(?:mcp__a__x|mcp__a__y)$`, `^(?:^(?:read_file)$)$` as micromatch compiles a plain glob).
 *
 * `undefined` whenever the answer is not certain: a flag that changes what plain characters or anchors match (`i`,
 * `m`), a quantifier, a class, a dot, a look-around, a back-reference, an escape other than punctuation, an alternative
 * that is not anchored at both ends (it would match inside longer names), or more than {@link MAX_NAMES} strings.
 * `g` and `y` are ignored: a matcher drops them (they would make `test()` stateful).
 *
 * @internal
 */
export function literalNames(regex: RegExp): ReadonlySet<string> | undefined {
  if (/[im]/.test(regex.flags)) return undefined;
  const parser = new Parser(regex.source);
  const seqs = parser.alternation();
  if (seqs === undefined || parser.pos !== parser.source.length) return undefined;
  const names = new Set<string>();
  for (const seq of seqs) {
    const name = anchoredName(seq);
    // An alternative that can never match (`a^b`) adds nothing; one that is not anchored at both ends is not literal.
    if (name === null) continue;
    if (name === undefined) return undefined;
    names.add(name);
  }
  return names;
}

/**
 * The string a token sequence matches in full: `null` when it can match nothing (a `^` after a character, a `$` before
 * one), `undefined` when it is not anchored both before its first character and after its last.
 */
function anchoredName(seq: Seq): string | null | undefined {
  let started = false;
  let ended = false;
  let name = '';
  for (const token of seq) {
    if (token === START) {
      if (name !== '') return null;
      started = true;
    } else if (token === END) {
      ended = true;
    } else {
      if (ended) return null;
      name += token;
    }
  }
  return started && ended ? name : undefined;
}

/** A recursive-descent reader of the literal subset of the regex grammar; `undefined` as soon as it leaves it. */
class Parser {
  pos = 0;
  constructor(readonly source: string) {}

  /** `a|b|…`: the union of its alternatives. */
  alternation(): Seq[] | undefined {
    const all: Seq[] = [];
    for (;;) {
      const seqs = this.sequence();
      if (seqs === undefined) return undefined;
      all.push(...seqs);
      if (all.length > MAX_NAMES) return undefined;
      if (this.source[this.pos] !== '|') return all;
      this.pos++;
    }
  }

  /** Terms one after the other: every combination of their strings. */
  private sequence(): Seq[] | undefined {
    let seqs: Seq[] = [[]];
    const source = this.source;
    while (this.pos < source.length) {
      const ch = source[this.pos]!;
      if (ch === '|' || ch === ')') break;
      let term: Seq[] | undefined;
      if (ch === '(') {
        this.pos++;
        if (source[this.pos] === '?') {
          if (source[this.pos + 1] !== ':') return undefined;
          this.pos += 2;
        }
        term = this.alternation();
        if (term === undefined || source[this.pos] !== ')') return undefined;
        this.pos++;
      } else if (ch === '^' || ch === '$') {
        this.pos++;
        term = [[ch === '^' ? START : END]];
      } else if (ch === '\\') {
        const escaped = source[this.pos + 1];
        if (escaped === undefined || !LITERAL_ESCAPE.test(escaped)) return undefined;
        this.pos += 2;
        term = [[escaped]];
      } else if (SYNTAX.has(ch)) {
        return undefined;
      } else {
        // A surrogate pair is one character in `u`/`v` mode and two otherwise; either way it matches itself.
        const cp = source.codePointAt(this.pos)!;
        const char = String.fromCodePoint(cp);
        this.pos += char.length;
        term = [[char]];
      }
      // A quantifier after the term makes it repeat: not a fixed list any more.
      const after = source[this.pos];
      if (after === '?' || after === '*' || after === '+' || after === '{') return undefined;
      if (seqs.length * term.length > MAX_NAMES) return undefined;
      seqs = term.length === 1 ? seqs.map((s) => [...s, ...term[0]!]) : seqs.flatMap((s) => term.map((t) => [...s, ...t]));
    }
    return seqs;
  }
}
