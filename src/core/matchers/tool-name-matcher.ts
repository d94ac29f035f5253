/**
 * Matching by tool name.
 *
 * @module
 */
import type Micromatch from 'micromatch';
import { lazyModule } from '../internal/lazy-module.js';
import type { AnyHookContext } from '../context/any-hook-context.js';
import { TOOL_EVENTS } from '../events.js';
import type { HookMatcher, MatcherHints } from './hook-matcher.js';
import { compileRegex, isRegexLiteral, MatcherSyntaxError, statelessRegex } from './matcher-syntax-error.js';
import { messageOf } from '../internal/message-of.js';
import { boundedTest } from './match-input-limit.js';
import { KNOWN_TOOL_NAMES, toolAliases } from '../tool-vocabulary.js';
import { literalNames } from '../internal/literal-names.js';

const micromatch = lazyModule<typeof Micromatch>('micromatch');
const GLOB_CHARS = /[*?[\]{}()!+@]/;
const LIST_SAFE = /^[^()[\]{}]*\|[^()[\]{}]*$/;

type Test = (name: string) => boolean;

/** `test` applied to the agent's own name, then to the tool's other names (its canonical one first), if it has any. */
const withAliases = (test: Test): Test => (name) => test(name) || toolAliases(name).some((alias) => alias !== name && test(alias));

/** How a {@link ToolNameMatcher} reads names. */
export interface ToolNameMatcherOptions {
  /**
   * Whether a pattern also matches the other names of the called tool in the shared vocabulary (default `true`).
   * `false`: only the name as called, as an agent's own config file means it (a Codex matcher `bash` matches no
   * `Bash`).
   */
  readonly aliases?: boolean | undefined;
}

/**
 * Every name that {@link withAliases} of a test accepting exactly `names` accepts: the names themselves, and each name
 * the vocabulary knows one of whose other names is among them.
 */
function withAliasNames(names: Iterable<string>, aliases = true): Set<string> {
  const all = new Set(names);
  if (!aliases) return all;
  for (const known of KNOWN_TOOL_NAMES) {
    if (!all.has(known) && toolAliases(known).some((alias) => all.has(alias))) all.add(known);
  }
  return all;
}

/**
 * The hints of a regex (or glob, as the regex micromatch compiles it) over the tool name: exact names when it only
 * matches a fixed list of them (`/^(Write|Edit)$/`), so that the stack can index it as it indexes plain names; else
 * tool events only. The regex itself still decides in `matches`: the names are what it matches, not a second rule.
 */
function regexHints(regexes: readonly RegExp[], plain: Iterable<string> = [], aliases = true): MatcherHints {
  const names = new Set<string>(plain);
  for (const re of regexes) {
    const literal = literalNames(re);
    if (literal === undefined) return { events: TOOL_EVENTS };
    for (const name of literal) names.add(name);
  }
  return { events: TOOL_EVENTS, toolNames: withAliasNames(names, aliases), exact: true };
}

/**
 * Matches tool events by the tool's name. The pattern rules (those of the PHP AgentBuilder, plus `|` lists):
 *
 * | pattern | matches |
 * |---|---|
 * | `bash` | exactly `bash` (case-sensitive), or another name of the same tool (`Bash`, `Shell`, …) |
 * | `*` or `''` | every tool |
 * | `read_*`, `*_file`, `mcp__*`, `{read,write}_file` | glob (micromatch) |
 * | `bash\|shell` | any name of the list (each item exact or glob) |
 * | `/^(read\|write)_.+$/i` | regex literal |
 *
 * One vocabulary across agents ({@link TOOL_VOCABULARY}): a pattern matches a call when it matches any name of the
 * called tool — the agent's own, the canonical (HOOK.md) one, the other agents' — so `Shell`, `Bash`, `/^Shell$/`
 * and `bash` all match Claude Code's `Bash`, Gemini CLI's `run_shell_command` and Copilot CLI's `bash`. A name the
 * vocabulary does not know (a tool of your own, an MCP tool) matches as written. With `{ aliases: false }` a pattern
 * matches the called name only, as the matchers of an agent's own config file do.
 *
 * A regex or glob that can only match a fixed list of names (`/^(Write|Edit)$/`, `^(?:Bash)$`, `{Write,Edit}`) costs a
 * stack what plain names cost: the stack indexes the hook by those names, and never runs it for another tool.
 *
 * A tool-name matcher never matches a non-tool event. A regex or glob is tested against at most
 * {@link MATCH_INPUT_LIMIT} characters; a longer name counts as a match.
 *
 * @throws {@link MatcherSyntaxError} for an invalid regex or glob, naming the pattern.
 */
export class ToolNameMatcher implements HookMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /**
   * Tool events, and the exact names when the pattern can only match a fixed list of names: plain names, a regex
   * anchored at both ends over plain alternatives (`/^(Write|Edit)$/`, without the `i` or `m` flag), a glob of plain
   * alternatives (`{Write,Edit}`); the stack then indexes the hook by those names.
   */
  readonly hints: MatcherHints;
  private readonly test: Test | undefined;

  constructor(pattern: string | RegExp, options: ToolNameMatcherOptions = {}) {
    const aliases = options.aliases !== false;
    const widen = aliases ? withAliases : (test: Test): Test => test;
    if (pattern instanceof RegExp) {
      const re = statelessRegex(pattern);
      this.pattern = String(pattern);
      this.test = widen((name) => boundedTest(re, name));
      this.hints = regexHints([re], [], aliases);
      return;
    }
    if (typeof pattern !== 'string') {
      throw new TypeError(`A tool-name pattern must be a string or a RegExp, got ${typeof pattern}.`);
    }
    this.pattern = pattern;
    const trimmed = pattern.trim();
    if (trimmed === '' || trimmed === '*') {
      this.test = undefined;
      this.hints = { events: TOOL_EVENTS, exact: true };
    } else if (isRegexLiteral(trimmed)) {
      const re = compileRegex(trimmed);
      this.test = widen((name) => boundedTest(re, name));
      this.hints = regexHints([re], [], aliases);
    } else {
      const items = LIST_SAFE.test(trimmed) ? trimmed.split('|').map((s) => s.trim()) : [trimmed];
      if (items.some((s) => s === '')) {
        throw new MatcherSyntaxError(pattern, 'an empty name in a | list; write names separated by |, e.g. "bash|shell".');
      }
      // An exact name stands for every name of its tool, so the set is still exact (and the stack can index it).
      const names = new Set(items.filter((s) => !GLOB_CHARS.test(s)).flatMap((s) => (aliases ? toolAliases(s) : [s])));
      const globs = items.filter((s) => GLOB_CHARS.test(s));
      if (globs.length === 0) {
        this.test = (name) => names.has(name);
        this.hints = { events: TOOL_EVENTS, toolNames: names, exact: true };
      } else {
        const regexes = globs.map((glob) => compileGlob(pattern, glob));
        const tests = regexes.map((re): Test => (name) => boundedTest(re, name));
        this.test = widen((name) => names.has(name) || tests.some((t) => t(name)));
        this.hints = regexHints(regexes, names, aliases);
      }
    }
  }

  /** Whether `name` matches the pattern (ignoring events). */
  matchesName(name: string): boolean {
    return this.test === undefined || this.test(name);
  }

  matches(ctx: AnyHookContext): boolean {
    if (!TOOL_EVENTS.has(ctx.event)) return false;
    return this.test === undefined || this.test((ctx as { toolCall: { name: string } }).toolCall.name);
  }

  toString(): string {
    return `tool:${this.pattern}`;
  }
}

function compileGlob(pattern: string, glob: string): RegExp {
  try {
    return micromatch().makeRe(glob, { dot: true });
  } catch (error) {
    throw new MatcherSyntaxError(pattern, `not a valid glob (${messageOf(error)}).`);
  }
}
