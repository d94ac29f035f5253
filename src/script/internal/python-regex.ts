// Internal: not exported from the package.

/*
 * HOOK.md matcher regexes are Python `re` patterns: the reference runtime compiles them with `re.compile` and
 * searches with them. This module reads a pattern as Python does and writes the JavaScript regex that matches the
 * same way, so `(?i)shell`, `(?P<name>…)`, `(?P=name)`, `(?#…)`, `(?x)`, `a++` and `(?>…)`, `\A`, `\Z` and `{,3}`
 * work here as they work there. A pattern with nothing Python-specific comes back unchanged.
 *
 * What JavaScript reads but Python refuses (`\p{L}`, `(?<n>…)`, `[^]`, `\k<n>`, `\e`) is kept as JavaScript reads
 * it, with a note: such a hook works here and fails to load in the reference runtime.
 *
 * Known differences kept on purpose: `.` and `$` keep their JavaScript meaning (`.` does not match `\r`, `$` does
 * not match before a final newline), and `\w`, `\d`, `\s` and `\b` are ASCII, as with Python's `(?a)`.
 */
import { MatcherSyntaxError } from '../../core/index.js';

/** A pattern translated: what to compile, and what to analyse for catastrophic backtracking. */
export interface TranslatedRegex {
  /** The JavaScript source. */
  readonly source: string;
  /** The JavaScript flags (`i`, `m`, `s`), from the pattern's leading inline flags. */
  readonly flags: string;
  /**
   * The source with each possessive quantifier and atomic group written as a plain group (`(?:a+)`): it backtracks at
   * least as much as the emulation does, so it is what the ReDoS check judges.
   */
  readonly checkSource: string;
  /** JavaScript-only syntax the pattern uses (which the reference runtime refuses), one sentence each. */
  readonly notes: readonly string[];
}

interface Flags {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
  readonly x: boolean;
}

/** A capturing group, in the order the output opens them; its number is its place in that order. */
interface Slot {
  readonly python: number | undefined;
}

type Piece = string | { readonly ref: Slot } | { readonly pythonRef: number };

interface Frame {
  readonly flags: Flags;
  readonly close: string;
  readonly checkClose: string;
  /** For an atomic group: the slot its emulation captures into. */
  readonly atomic: Slot | undefined;
  readonly outStart: number;
  readonly checkStart: number;
}

// The escapes of letters that Python's re knows in a pattern; any other letter escape is an error there.
const PYTHON_LETTER_ESCAPES = new Set('aAbBdDfnrsStuUvwWxZN'.split(''));
const LEADING_FLAGS = /^\(\?([aiLmsux]+)\)/;
const SCOPED_FLAGS = /^\(\?([aimsux]*)(?:-([imsx]+))?:/;
const QUANTIFIER = /^(?:[*+?]|\{(\d*)(?:(,)(\d*))?\})/;

const fail = (pattern: string, problem: string): never => {
  throw new MatcherSyntaxError(pattern, problem);
};

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

function codePointEscape(code: number): string {
  if (code <= 0xffff) return hex4(code);
  const offset = code - 0x10000;
  return hex4(0xd800 + (offset >> 10)) + hex4(0xdc00 + (offset & 0x3ff));
}

const caseVariants = (c: string): string => {
  const lower = c.toLowerCase();
  const upper = c.toUpperCase();
  return lower === upper || lower.length !== 1 || upper.length !== 1 ? c : lower === c ? c + upper : lower + c;
};

/**
 * `pattern` read as Python's `re` reads it, written as a JavaScript regex (see the module comment).
 *
 * @throws {@link MatcherSyntaxError} for Python syntax that has no JavaScript equivalent (conditional groups,
 * `\N{…}`, a global flag after the start, a reference to a group that does not exist).
 */
export function translatePythonRegex(pattern: string): TranslatedRegex {
  const notes: string[] = [];
  const note = (text: string): void => {
    if (!notes.includes(text)) notes.push(text);
  };

  let i = 0;
  let global: Flags = { i: false, m: false, s: false, x: false };
  for (let m = LEADING_FLAGS.exec(pattern); m !== null; m = LEADING_FLAGS.exec(pattern.slice(i))) {
    const f = m[1]!;
    if (f.includes('L')) fail(pattern, 'the L flag works only on byte patterns; leave it out');
    global = { i: global.i || f.includes('i'), m: global.m || f.includes('m'), s: global.s || f.includes('s'), x: global.x || f.includes('x') };
    i += m[0].length;
  }
  const jsFlags = (global.i ? 'i' : '') + (global.m ? 'm' : '') + (global.s ? 's' : '');

  const out: Piece[] = [];
  const check: Piece[] = [];
  const slots: Slot[] = [];
  const names = new Map<string, number>();
  let pythonGroups = 0;
  const stack: Frame[] = [];
  let flags = global;
  // Where the last atom started, in both outputs and among the slots: what a possessive quantifier wraps.
  let atom: { out: number; check: number; slot: number } | undefined;

  const emit = (text: string, checkText: string = text): void => {
    out.push(text);
    check.push(checkText);
  };
  const startAtom = (): void => {
    atom = { out: out.length, check: check.length, slot: slots.length };
  };

  /** A letter under a case-insensitive scope the global flags lack. */
  const letter = (c: string, inClass: boolean): string => {
    if (!flags.i || global.i) return c;
    const both = caseVariants(c);
    return both.length === 1 || inClass ? both : `[${both}]`;
  };

  /** One escape at `i` (the backslash), outside or inside a class; returns the text and advances `i`. */
  const escape = (inClass: boolean): Piece => {
    const c = pattern[i + 1];
    if (c === undefined) return fail(pattern, 'it ends with a lone backslash; write \\\\ for a backslash');
    if (!inClass && c >= '1' && c <= '9') {
      const digits = /^\d\d?/.exec(pattern.slice(i + 1))![0];
      i += 1 + digits.length;
      return { pythonRef: Number(digits) };
    }
    if (c === '0') {
      const digits = /^[0-7]{0,2}/.exec(pattern.slice(i + 2))![0];
      i += 2 + digits.length;
      return hex4(parseInt(`0${digits}`, 8));
    }
    i += 2;
    switch (c) {
      case 'A':
        if (inClass) return fail(pattern, '\\A has no meaning inside [...]');
        return flags.m ? '(?<![\\s\\S])' : '^';
      case 'Z':
        if (inClass) return fail(pattern, '\\Z has no meaning inside [...]');
        return flags.m ? '(?![\\s\\S])' : '$';
      case 'a':
        return '\\x07';
      case 'U': {
        const hex = pattern.slice(i, i + 8);
        if (!/^[0-9a-fA-F]{8}$/.test(hex)) return fail(pattern, '\\U takes exactly eight hex digits');
        i += 8;
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) return fail(pattern, `\\U${hex} is not a character`);
        return codePointEscape(code);
      }
      case 'N':
        return fail(pattern, '\\N{…} names a character, which is not supported here: write the character itself, or \\uXXXX');
      case 'p':
      case 'P':
        note(`\\${c}{…} is JavaScript syntax; Python's re refuses it (and here, without the u flag, it matches the letters themselves)`);
        return `\\${c}`;
      case 'k':
        note("\\k<name> is JavaScript syntax; Python's re writes (?P=name)");
        return '\\k';
      case 'c':
        note("\\c is JavaScript syntax; Python's re refuses it");
        return '\\c';
    }
    if (/[A-Za-z]/.test(c) && !PYTHON_LETTER_ESCAPES.has(c)) note(`\\${c} is not an escape Python's re knows, so it refuses the pattern`);
    return `\\${c}`;
  };

  /** A character class from `i` (the `[`), read as Python reads it: a `]` first in it is a literal. */
  const characterClass = (): void => {
    const start = i;
    let text = '[';
    i++;
    if (pattern[i] === '^') {
      text += '^';
      i++;
    }
    const first = i;
    let closed = false;
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === ']' && i !== first) {
        text += ']';
        closed = true;
        i++;
        break;
      }
      if (c === ']') {
        text += '\\]';
        i++;
      } else if (c === '\\') {
        const piece = escape(true);
        text += typeof piece === 'string' ? piece : '';
      } else if (c === '[' && pattern[i + 1] === ':') {
        text += '\\[';
        i++;
      } else if (/[A-Za-z]/.test(c) && pattern[i + 1] === '-' && /[A-Za-z]/.test(pattern[i + 2] ?? '') && flags.i && !global.i) {
        const to = pattern[i + 2]!;
        text += `${c}-${to}`;
        if (c.toLowerCase() !== c.toUpperCase() && to.toLowerCase() !== to.toUpperCase()) {
          text += c === c.toLowerCase() ? `${c.toUpperCase()}-${to.toUpperCase()}` : `${c.toLowerCase()}-${to.toLowerCase()}`;
        }
        i += 3;
      } else {
        text += letter(c, true);
        i++;
      }
    }
    if (!closed) {
      const written = pattern.slice(start);
      if (written.startsWith('[^]') || written.startsWith('[]')) {
        note(`${written.startsWith('[^]') ? '[^]' : '[]'} is JavaScript syntax (any character, or none); Python's re reads ] there as a literal and refuses the pattern`);
        i = start + (written.startsWith('[^]') ? 3 : 2);
        emit(written.startsWith('[^]') ? '[^]' : '[]');
        return;
      }
      fail(pattern, 'a [ is never closed with ]; write \\[ for a literal [');
    }
    emit(text);
  };

  while (i < pattern.length) {
    const c = pattern[i]!;
    if (flags.x && /\s/.test(c)) {
      i++;
      continue;
    }
    if (flags.x && c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      startAtom();
      const piece = escape(false);
      if (typeof piece !== 'string') {
        out.push(piece);
        check.push(piece);
      } else {
        emit(piece);
      }
      continue;
    }
    if (c === '[') {
      startAtom();
      characterClass();
      continue;
    }
    if (c === '(') {
      const rest = pattern.slice(i);
      let m: RegExpExecArray | null;
      if (rest.startsWith('(?#')) {
        const end = pattern.indexOf(')', i);
        if (end === -1) fail(pattern, 'a (?# comment is never closed with )');
        i = end + 1;
        continue;
      }
      if ((m = /^\(\?P=([A-Za-z_]\w*)\)/.exec(rest)) !== null) {
        startAtom();
        if (!names.has(m[1]!)) fail(pattern, `(?P=${m[1]}) refers to no group named ${m[1]} before it`);
        emit(`\\k<${m[1]}>`);
        i += m[0].length;
        continue;
      }
      if (rest.startsWith('(?(')) fail(pattern, 'conditional groups (?(…)…|…) are not supported here: write two hooks, or an alternation');
      if (LEADING_FLAGS.test(rest)) fail(pattern, 'global flags such as (?i) must come first in the pattern, as Python requires; or scope them: (?i:…)');
      const push = (open: string, close: string, checkOpen: string, checkClose: string, frameFlags: Flags, atomic?: Slot): void => {
        startAtom();
        stack.push({ flags: frameFlags, close, checkClose, atomic, outStart: out.length, checkStart: check.length });
        emit(open, checkOpen);
        flags = frameFlags;
      };
      if ((m = /^\(\?P<([A-Za-z_]\w*)>/.exec(rest)) !== null) {
        if (names.has(m[1]!)) fail(pattern, `two groups are named ${m[1]}`);
        pythonGroups++;
        names.set(m[1]!, pythonGroups);
        slots.push({ python: pythonGroups });
        push(`(?<${m[1]}>`, ')', `(?<${m[1]}>`, ')', flags);
        i += m[0].length;
        continue;
      }
      if ((m = /^\(\?<([A-Za-z_]\w*)>/.exec(rest)) !== null) {
        note(`(?<${m[1]}>…) is JavaScript syntax; Python's re writes (?P<${m[1]}>…)`);
        pythonGroups++;
        names.set(m[1]!, pythonGroups);
        slots.push({ python: pythonGroups });
        push(m[0], ')', m[0], ')', flags);
        i += m[0].length;
        continue;
      }
      if (rest.startsWith('(?>')) {
        const slot: Slot = { python: undefined };
        push('(?=(', '))', '(?:', ')', flags, slot);
        slots.push(slot);
        i += 3;
        continue;
      }
      if ((m = SCOPED_FLAGS.exec(rest)) !== null && (m[1] !== '' || m[2] !== undefined)) {
        const on = m[1]!;
        const off = m[2] ?? '';
        const scoped: Flags = {
          i: (flags.i || on.includes('i')) && !off.includes('i'),
          m: (flags.m || on.includes('m')) && !off.includes('m'),
          s: (flags.s || on.includes('s')) && !off.includes('s'),
          x: (flags.x || on.includes('x')) && !off.includes('x'),
        };
        if (global.i && !scoped.i) fail(pattern, '(?-i:…) inside a case-insensitive pattern cannot be written in JavaScript here; drop the global (?i) and scope it instead');
        push('(?:', ')', '(?:', ')', scoped);
        i += m[0].length;
        continue;
      }
      if ((m = /^\(\?(?::|=|!|<=|<!)/.exec(rest)) !== null) {
        push(m[0], ')', m[0], ')', flags);
        i += m[0].length;
        continue;
      }
      if (rest.startsWith('(?')) fail(pattern, `unknown group ${rest.slice(0, 4)}…`);
      pythonGroups++;
      slots.push({ python: pythonGroups });
      push('(', ')', '(', ')', flags);
      i++;
      continue;
    }
    if (c === ')') {
      const frame = stack.pop();
      if (frame === undefined) fail(pattern, 'a ) closes no group; write \\) for a literal )');
      const f = frame!;
      emit(f.close, f.checkClose);
      if (f.atomic !== undefined) out.push({ ref: f.atomic });
      // The atom a quantifier after ')' takes is the whole group: its first slot is the first opened inside it.
      atom = { out: f.outStart, check: f.checkStart, slot: firstSlotAt(f.outStart) };
      flags = stack.length > 0 ? stack[stack.length - 1]!.flags : global;
      i++;
      continue;
    }
    const q = QUANTIFIER.exec(pattern.slice(i));
    if (q !== null && atom !== undefined) {
      let text = q[0];
      // Python reads {,n} as {0,n}; JavaScript would read it as text.
      if (text.startsWith('{') && q[1] === '' && q[2] === ',') text = `{0,${q[3]}}`;
      if (text.startsWith('{') && q[1] === '' && q[2] === undefined) {
        // "{}" is text in both.
        startAtom();
        emit('\\{');
        i++;
        continue;
      }
      i += q[0].length;
      if (pattern[i] === '?') {
        text += '?';
        i++;
        emit(text);
      } else if (pattern[i] === '+') {
        i++;
        // Possessive: what the atom and its quantifier match, kept whole, as an atomic group does.
        const slot: Slot = { python: undefined };
        const inner = out.splice(atom.out);
        const innerCheck = check.splice(atom.check);
        slots.splice(atom.slot, 0, slot);
        out.push('(?=(', ...inner, text, '))', { ref: slot });
        check.push('(?:', ...innerCheck, text, ')');
      } else {
        emit(text);
      }
      atom = undefined;
      continue;
    }
    startAtom();
    if (c === '.' && flags.s !== global.s) emit(flags.s ? '[\\s\\S]' : '[^\\n]');
    else if (c === '^' && flags.m !== global.m) emit(flags.m ? '(?<![^\\n])' : '(?<![\\s\\S])');
    else if (c === '$' && flags.m !== global.m) emit(flags.m ? '(?![^\\n])' : '(?=\\n?(?![\\s\\S]))');
    else emit(/[A-Za-z]/.test(c) ? letter(c, false) : c);
    if (c === '^' || c === '$' || c === '|') atom = undefined;
    i++;
  }
  if (stack.length > 0) fail(pattern, 'a ( is never closed with ); write \\( for a literal (');

  /** The index among the slots of the first group opened at or after output piece `from`. */
  function firstSlotAt(from: number): number {
    let count = 0;
    for (let k = 0; k < from; k++) {
      const piece = out[k];
      if (typeof piece === 'string') count += opensIn(piece);
    }
    return Math.min(count, slots.length);
  }

  const numberOf = (slot: Slot): number => slots.indexOf(slot) + 1;
  const render = (pieces: readonly Piece[], python: boolean): string => {
    let text = '';
    pieces.forEach((piece, k) => {
      if (typeof piece === 'string') {
        text += piece;
        return;
      }
      let number: number;
      if ('ref' in piece) {
        number = numberOf(piece.ref);
      } else {
        if (piece.pythonRef > pythonGroups) fail(pattern, `\\${piece.pythonRef} refers to a group that does not exist`);
        number = python ? piece.pythonRef : numberOf(slots.find((s) => s.python === piece.pythonRef)!);
      }
      // A reference followed by a digit would read as a longer one.
      const next = pieces[k + 1];
      text += typeof next === 'string' && /^\d/.test(next) ? `(?:\\${number})` : `\\${number}`;
    });
    return text;
  };
  return { source: render(out, false), flags: jsFlags, checkSource: render(check, true), notes };
}

/** How many capturing groups a piece of output opens. */
function opensIn(piece: string): number {
  let count = 0;
  for (let k = 0; k < piece.length; k++) {
    const c = piece[k];
    if (c === '\\') {
      k++;
      continue;
    }
    if (c === '[') {
      // Class pieces are emitted whole; skip to their end.
      return count;
    }
    if (c === '(' && (piece[k + 1] !== '?' || (piece[k + 2] === '<' && piece[k + 3] !== '=' && piece[k + 3] !== '!'))) count++;
  }
  return count;
}
