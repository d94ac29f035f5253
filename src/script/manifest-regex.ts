/**
 * How a HOOK.md matcher regex is read.
 *
 * @module
 */
import { MatcherSyntaxError } from '../core/index.js';
import { translatePythonRegex } from './internal/python-regex.js';
import { regexSafety, regexSafetyDeferred } from './internal/regex-safety.js';
import { UnsafeRegexError } from './unsafe-regex-error.js';

/**
 * Compiles a HOOK.md `matcher.tool` or `matcher.pattern`: the whole string is the regex source, with no flags and no
 * anchors, as in the spec's examples (`Shell`, `rm -rf /|mkfs`, `\.py$`), read as Python's `re` reads it (the
 * reference runtime's engine): `(?i)`, `(?P<name>…)`, `(?P=name)`, `(?#…)`, `(?x)`, possessive quantifiers and atomic
 * groups, `\A`, `\Z` and `{,n}` are translated; a pattern without them compiles as written. The builder's `/source/flags` form is
 * deliberately not recognised here: a path pattern such as `/etc/` would silently lose its slashes. Validation and the
 * runner both compile through this function so that what discovery accepts is exactly what runs; config-file matchers
 * compile through it too.
 *
 * A regex that compiles but can backtrack catastrophically — exponential time, as `(a+)+$` or `(a|a)*b`, or cubic or
 * worse, as `.*.*=.*` — is refused with an {@link UnsafeRegexError}. Simple patterns are accepted by their shape; the
 * others are analysed by a ReDoS checker (recheck's pure-JavaScript engine, shipped in the package and loaded on first
 * need, with a time budget per pattern: a pattern it cannot decide in time is refused either way, as exponential if it
 * repeats a group that holds a repeat, as unproven otherwise). Verdicts
 * are remembered for the life of the process, and the checker's are kept in `regex-verdicts.json` under the user's
 * cache folder (`$AGENT_HOOKS_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-hooks` or `~/.cache/agent-hooks`), so a
 * process started per hook call, as the bridge is, checks a pattern once, not on every call.
 *
 * @throws {@link MatcherSyntaxError} naming the pattern and the engine's complaint; {@link UnsafeRegexError} (a
 * subclass) naming the pattern, how slow it can be and how to fix it.
 *
 * @internal
 */
export function compileManifestRegex(source: string, syntax: RegexSyntax = 'python'): RegExp {
  let regex: RegExp;
  let checked = source;
  let flags = '';
  try {
    if (syntax === 'python') {
      const translated = translatePythonRegex(source);
      regex = new RegExp(translated.source, translated.flags);
      checked = translated.checkSource;
      flags = translated.flags;
    } else {
      regex = new RegExp(source);
    }
  } catch (error) {
    if (error instanceof MatcherSyntaxError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MatcherSyntaxError(source, `${reason}. Escape special characters with \\ to match them literally.`);
  }
  if (regexSafetyDeferred()) return regex;
  const verdict = regexSafety(checked, flags);
  if (!verdict.safe) {
    throw new UnsafeRegexError(source, verdict.complexity, verdict.degree, verdict.by === 'shape' ? true : verdict.by === 'undecided' ? 'unproven' : false);
  }
  return regex;
}

/**
 * How a matcher regex is written: `python` for HOOK.md (Python's `re`, as its reference runtime compiles it,
 * translated to JavaScript), `javascript` for the agents' config files, whose runtimes are JavaScript.
 *
 * @internal
 */
export type RegexSyntax = 'python' | 'javascript';

/**
 * The JavaScript-only syntax in a HOOK.md regex, one sentence each (empty when there is none, or when the pattern
 * does not compile: that is reported as an error elsewhere). Such a pattern works here and fails to load in the
 * reference runtime.
 *
 * @internal
 */
export function javascriptOnlyRegexSyntax(source: string): readonly string[] {
  try {
    return translatePythonRegex(source).notes;
  } catch {
    return [];
  }
}
