/**
 * Whether a matcher regex can backtrack catastrophically, judged once per pattern per process.
 *
 * @module
 */
import { loadRecheckEngine, recheckEngineVersion, type RecheckDiagnostics } from './recheck-engine.js';
import { readVerdicts, storeVerdict, verdictCacheFile } from './regex-verdict-cache.js';
import { threadCpuUsage, type CpuUsageOf } from './thread-cpu.js';

/** What {@link regexSafety} found. */
export type RegexVerdict =
  | {
      /** Loads. */
      readonly safe: true;
      /**
       * How that was decided: `simple` by its shape alone (see {@link isSimpleRegex}), `checked` by the checker,
       * `undecided` when the checker gave no answer within {@link REGEX_CHECK_BUDGET_MS} or could not analyse it.
       */
      readonly by: 'simple' | 'checked' | 'undecided';
    }
    // `undecided` stays in the safe variant for verdicts written by earlier versions; none is made any more.
  | {
      /** Refused. */
      readonly safe: false;
      /** How its matching time grows. */
      readonly complexity: 'exponential' | 'polynomial';
      /** The power, for a polynomial one. */
      readonly degree: number | undefined;
      /**
       * `checked` when the checker proved it; `shape` when the checker could not decide and the pattern repeats a
       * group that holds a repeat (see {@link hasNestedRepeat}); `undecided` when the checker could not decide (in
       * time, or at all) and the shape proves nothing either way: a pattern nothing could clear is not run.
       */
      readonly by: 'checked' | 'shape' | 'undecided';
    };

/**
 * The checker's budget per pattern, in CPU time of the thread it runs in. Every catastrophic pattern of the test table
 * is found in well under it; long but harmless ones fit in it with room for a slow machine: on a 2-CPU VM,
 * `git\s+push\s+.*--force` takes about a second, and `(curl|wget)[^|]*\|\s*(sudo\s+)?(ba|z)?sh` 2.3 to 2.8 s (4.2 s
 * counted over the whole process), which a budget of 5 s refused whenever that machine was also running a test suite. A
 * pattern that exhausts it is refused (see {@link regexSafety}); the cost is paid once per pattern and machine, since
 * verdicts are kept on disk (delete `regex-verdicts.json` to have them made again).
 */
export const REGEX_CHECK_BUDGET_MS = 10_000;

/**
 * The highest polynomial degree accepted. Quadratic patterns are everyday ones — `(curl|wget)[^|]*\|` searched for
 * anywhere in a string is one — and `MATCH_INPUT_LIMIT` caps what they cost; cubic ones cost 15 s on 4 KiB.
 */
export const MAX_ACCEPTED_DEGREE = 2;

/** One piece of a regex source, as far as its shape matters here. */
type RegexToken =
  | { readonly kind: 'atom' | 'backreference' | 'open' | 'close' | 'alternative' | 'unreadable' }
  | {
      readonly kind: 'quantifier';
      /** As written: `{}` for a brace quantifier. */
      readonly symbol: '?' | '*' | '+' | '{}';
      readonly min: number;
      readonly max: number;
    };

// Sticky, read at the brace itself: a quantifier is read whole however many digits it has (`{1,99999999999999999}`),
// so a long one cannot pass for literal characters.
const BRACE_QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;

/**
 * A repeat bound above this is treated as unbounded: `(a{1,999999999}){1,999999999}` backtracks as `(a+)+` does.
 */
const EFFECTIVELY_UNBOUNDED = 100;

/**
 * The tokens of `source` that its shape depends on: atoms (a character, an escape, a class), groups, alternatives,
 * quantifiers (a lazy `?` folded in) and backreferences. It follows the web-compatible syntax of a regex compiled
 * without flags, where a `{` that does not start a quantifier is a literal. What it cannot read (a class never closed,
 * an unknown group kind; never in a source that compiled) is `unreadable`.
 */
function regexTokens(source: string): RegexToken[] {
  const tokens: RegexToken[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    let brace: RegExpExecArray | null;
    if (c === '\\') {
      const next = source[i + 1];
      tokens.push({ kind: next === undefined ? 'unreadable' : /[1-9k]/.test(next) ? 'backreference' : 'atom' });
      i++;
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      // A ']' right after '[' or '[^' closes an empty class in JavaScript.
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      tokens.push({ kind: j >= source.length ? 'unreadable' : 'atom' });
      i = j;
    } else if (c === '(') {
      let readable = true;
      if (source[i + 1] === '?') {
        const kind = source[i + 2];
        if (kind === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
          const close = source.indexOf('>', i);
          if (close === -1) readable = false;
          else i = close;
        } else if (kind === ':' || kind === '=' || kind === '!') {
          i += 2;
        } else if (kind === '<') {
          i += 3;
        } else {
          readable = false;
        }
      }
      if (!readable) tokens.push({ kind: 'unreadable' });
      tokens.push({ kind: 'open' });
    } else if (c === ')') {
      tokens.push({ kind: 'close' });
    } else if (c === '*' || c === '+' || c === '?') {
      tokens.push({ kind: 'quantifier', symbol: c, min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Infinity });
      if (source[i + 1] === '?') i++;
    } else if (c === '{' && ((BRACE_QUANTIFIER.lastIndex = i), (brace = BRACE_QUANTIFIER.exec(source))) !== null) {
      const min = Number(brace[1]);
      const max = brace[2] === undefined ? min : brace[3] === '' ? Infinity : Number(brace[3]);
      tokens.push({ kind: 'quantifier', symbol: '{}', min, max });
      i += brace[0].length - 1;
      if (source[i + 1] === '?') i++;
    } else {
      tokens.push({ kind: c === '|' ? 'alternative' : 'atom' });
    }
  }
  return tokens;
}

/**
 * A shape that cannot take more than quadratic time, so the checker need not be loaded: no backreference, no
 * quantified group, at most one repeat that can take a varying number of characters (`*`, `+`, `{n,}`, `{n,m}`) and at
 * most two `?`; a fixed count (`{n}`) is free. Every quantifier then applies to one character, and the only choice
 * that grows with the input is the one repeat's, tried at each start: at most the square of the input's length, times
 * four. Most matchers are like this (`Bash`, `Write|Edit`, `\.py$`, `^mcp__.*`, `rm\s+-rf`, `https?://[^\s]+`).
 *
 * `source` must compile without flags (see `regexTokens`).
 */
export function isSimpleRegex(source: string): boolean {
  let repeats = 0;
  let optionals = 0;
  // What the next quantifier would apply to: nothing yet, one character, a group, or an atom already quantified.
  let last: 'none' | 'char' | 'group' | 'quantified' = 'none';
  for (const token of regexTokens(source)) {
    switch (token.kind) {
      case 'backreference': // matches text whose length depends on an earlier group: left to the checker
      case 'unreadable':
        return false;
      case 'atom':
        last = 'char';
        break;
      case 'open':
      case 'alternative':
        last = 'none';
        break;
      case 'close':
        last = 'group';
        break;
      case 'quantifier':
        if (last !== 'char') return false;
        last = 'quantified';
        if (token.symbol === '?') optionals++;
        else if (token.max !== token.min) repeats++;
        if (repeats > 1 || optionals > 2) return false;
    }
  }
  return true;
}

/**
 * Whether `source` repeats without bound (`*`, `+`, `{n,}`) a group that itself holds a repeat, as `(a+)+`,
 * `(\w+\s?)*` or `(?:x.{1,3})*` do: the classic shape of exponential backtracking, though not every such pattern
 * backtracks (`(-\w+)*` does not, each round starting with a `-`). Used only when the checker cannot decide.
 */
export function hasNestedRepeat(source: string): boolean {
  // One frame per open group: whether it holds a repeat so far.
  const frames: boolean[] = [false];
  // What a quantifier would apply to: a character, a group (with whether it holds a repeat), or nothing.
  let last: 'none' | 'char' | 'group' = 'none';
  let lastHeldRepeat = false;
  for (const token of regexTokens(source)) {
    switch (token.kind) {
      case 'open':
        frames.push(false);
        last = 'none';
        break;
      case 'close':
        lastHeldRepeat = frames.length > 1 ? frames.pop()! : false;
        if (lastHeldRepeat) frames[frames.length - 1] = true;
        last = 'group';
        break;
      case 'alternative':
        last = 'none';
        break;
      case 'quantifier': {
        const unbounded = token.max > EFFECTIVELY_UNBOUNDED;
        if (last === 'group' && lastHeldRepeat && unbounded) return true;
        // A `?` takes one character or none: not a repeat that can be split two ways.
        if (token.symbol !== '?' && token.max > token.min) frames[frames.length - 1] = true;
        last = 'none';
        break;
      }
      default:
        last = 'char';
    }
  }
  return false;
}

const verdicts = new Map<string, RegexVerdict>();
const MAX_REMEMBERED = 1024;

/**
 * Whether `source` (which must compile with `flags`) is safe to test against untrusted input: refused when it can
 * take exponential time, or polynomial time of a degree above {@link MAX_ACCEPTED_DEGREE}, on some input.
 *
 * Simple shapes are accepted at once; the rest go to recheck (an automaton-based ReDoS checker, whose pure-JavaScript
 * engine this package ships: see `recheck-engine.ts`), run in this thread with a budget of
 * {@link REGEX_CHECK_BUDGET_MS}. A pattern recheck cannot decide in time, or cannot analyse, is refused: as exponential
 * when it repeats a group that holds a repeat (the shape of nearly every exponential pattern), and as unproven
 * otherwise (`(?:.*,){10}x` is polynomial of degree ten, which no shape rule short of the checker sees). Nothing that could not be cleared is ever run; `MATCH_INPUT_LIMIT` bounds what an
 * accepted pattern is tested against. Each verdict is remembered for the life of the process, so validation and the runner
 * pay once; the checker's proofs are also kept in a file (see `verdictCacheFile`), so the next process does not pay
 * again.
 */
export function regexSafety(source: string, flags = ''): RegexVerdict {
  const key = `${flags}/${source}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = shapeFlags(flags) && isSimpleRegex(source) ? SIMPLE : checkedOnce(key, source, flags);
  if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

/** Flags under which every atom still matches one character, so a simple shape stays simple (see isSimpleRegex). */
const shapeFlags = (flags: string): boolean => /^[ims]*$/.test(flags);

const SIMPLE: RegexVerdict = Object.freeze({ safe: true, by: 'simple' });

/** The verdicts of earlier processes (see regex-verdict-cache.ts), read once, on the first pattern that needs them. */
let disk: { readonly file: string; readonly format: string; readonly verdicts: Map<string, RegexVerdict> } | null | undefined;

function diskCache(): typeof disk {
  if (disk === undefined) {
    const file = verdictCacheFile();
    // A verdict holds for the checker that made it and the degree accepted when it was made.
    const format = `recheck ${recheckEngineVersion() ?? 'absent'}; degree <= ${MAX_ACCEPTED_DEGREE}; budget ${REGEX_CHECK_BUDGET_MS} ms; undecided refused`;
    disk = file === undefined ? null : { file, format, verdicts: readVerdicts(file, format) };
  }
  return disk;
}

/**
 * A pattern that is not simple: the verdict an earlier process stored, else the checker's, stored for the next. One
 * made because the checker ran out of time is stored too: it was given the whole budget, and a process started per
 * hook call must not spend that budget again on every call.
 */
function checkedOnce(key: string, source: string, flags: string): RegexVerdict {
  const cache = diskCache();
  const stored = cache?.verdicts.get(key);
  if (stored !== undefined) return stored;
  const verdict = judgeRegex(source, flags, REGEX_CHECK_BUDGET_MS);
  if (cache != null) {
    cache.verdicts.set(key, verdict);
    storeVerdict(cache.file, cache.format, key, verdict);
  }
  return verdict;
}

/** {@link regexSafety} with a budget of its own, remembering nothing. */
export function judgeRegex(source: string, flags: string, budgetMs: number): RegexVerdict {
  if (shapeFlags(flags) && isSimpleRegex(source)) return { safe: true, by: 'simple' };
  const checker = loadRecheckEngine();
  let result: RecheckDiagnostics | undefined;
  try {
    result = checker === null ? undefined : checkWithinCpuBudget((timeout) => checker.checkSync(source, flags, { timeout }), budgetMs);
  } catch {
    result = undefined;
  }
  if (result === undefined || result.status === 'unknown') {
    return hasNestedRepeat(source)
      ? { safe: false, complexity: 'exponential', degree: undefined, by: 'shape' }
      : { safe: false, complexity: 'polynomial', degree: undefined, by: 'undecided' };
  }
  if (result.status === 'safe') return { safe: true, by: 'checked' };
  const { complexity } = result;
  if (complexity.type === 'exponential') return { safe: false, complexity: 'exponential', degree: undefined, by: 'checked' };
  if (complexity.degree > MAX_ACCEPTED_DEGREE) return { safe: false, complexity: 'polynomial', degree: complexity.degree, by: 'checked' };
  return { safe: true, by: 'checked' };
}

/** How many times a check that ran out of time for want of CPU is made again. */
const MAX_CHECK_ATTEMPTS = 8;

/**
 * Runs `check` (recheck, whose timeout is wall-clock time) within `budgetMs` of this thread's CPU time. On a machine
 * whose CPUs are busy elsewhere, a pattern recheck decides in half a second can run out of a wall-clock budget of the
 * same size — and a verdict made that way is kept on disk — so whether a hook's matcher is accepted would depend on the
 * machine's load when it was first checked. A check that timed out having had less CPU than the budget is made again
 * with what is left; the CPU the timed-out attempts used counts against it, so the total stays within the budget.
 * The CPU counted is this thread's (see `thread-cpu.ts`): the garbage collector's helper threads and the process's other
 * workers do not use up the checker's budget.
 *
 * @internal Exported for its tests.
 */
export function checkWithinCpuBudget<R extends { status: string; error?: { kind?: string } }>(
  check: (budgetMs: number) => R,
  budgetMs: number,
  cpuUsage: CpuUsageOf = threadCpuUsage,
): R {
  let spentMs = 0;
  for (let attempt = 1; ; attempt++) {
    const before = cpuUsage();
    const result = check(Math.max(1, Math.floor(budgetMs - spentMs)));
    const used = cpuUsage(before);
    spentMs += (used.user + used.system) / 1000;
    const timedOut = result.status === 'unknown' && result.error?.kind === 'timeout';
    if (!timedOut || spentMs >= budgetMs * 0.9 || attempt >= MAX_CHECK_ATTEMPTS) return result;
  }
}

let deferred = 0;

/**
 * Runs `build` with matcher regexes compiled for their syntax only: the safety analysis of {@link regexSafety} is
 * skipped, and must be made (by compiling again) before such a regex is tested against anything. Loaders build the
 * hooks that still await a trust check this way, so a hook that will not run costs no checker time. Synchronous on
 * purpose: nothing else can run, and compile unchecked, while `build` does.
 */
export function deferringRegexSafety<T>(build: () => T): T {
  deferred++;
  try {
    return build();
  } finally {
    deferred--;
  }
}

/** Whether the code running now was called from {@link deferringRegexSafety}. */
export function regexSafetyDeferred(): boolean {
  return deferred > 0;
}
