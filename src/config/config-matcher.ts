/**
 * Each agent's matcher rules, compiled into kernel matchers so that the stack leaves a hook out before anything is
 * spawned.
 *
 * @module
 */
import {
  boundedTest,
  CallableMatcher,
  HookEvent,
  MatcherSyntaxError,
  ToolNameMatcher,
  type AnyHookContext,
  type HookEventName,
  type HookMatcher,
} from '../core/index.js';
import { compileManifestRegex } from '../script/manifest-regex.js';
import { UnsafeRegexError } from '../script/unsafe-regex-error.js';

/**
 * How a config file's `matcher` string reads:
 * - `claude`: `*`, `""` or absent match everything; a value of only letters, digits, `_`, `-` and `|` is an exact name
 *   or a `|` list of exact names, and names separated by commas, with or without spaces (`Edit, Write`), are a list of exact names too; anything
 *   else is an unanchored regular expression (`Edit.*` also matches
 *   `NotebookEdit`), as in Claude Code.
 * - `anchored`: a regular expression that must match the whole name, `^(?:PATTERN)$` (Copilot).
 * - `regex`: an unanchored regular expression; `*` and `""` match everything (Cursor).
 * - `gemini`: `regex`, over the called name only (Gemini CLI).
 *
 * A tool name matches under `claude` and `regex` when it matches any name of the called tool in the shared
 * vocabulary; under `anchored`, `gemini` and `codex` only as the agent calls it.
 * - `codex`: Claude Code's rule, except that a `-` makes the value a regular expression: only letters, digits, `_`
 *   and `|` make exact names (Codex CLI, `hooks/src/events/common.rs`).
 *
 * @internal
 */
export type MatcherRule = 'claude' | 'anchored' | 'regex' | 'gemini' | 'codex' | AliasedNamesRule;

/**
 * A matcher rule where, over a tool name, the pattern as written (or, for a `|` list not starting with `^` or `(`, one
 * of its names) matches when it is the called name or one of the agent's own other names for that tool; else the
 * pattern (the list joined back with `|`) is an unanchored regex over the called name only. On other events it reads
 * as `regex`.
 *
 * @internal
 */
export interface AliasedNamesRule {
  /** The agent's other names for the tool it calls `name` (none for a tool it does not know). */
  readonly aliases: (name: string) => readonly string[];
}

/**
 * Whether a rule's tool names also match the called tool's other names in the shared vocabulary. Copilot's, Gemini
 * CLI's and Codex CLI's matchers mean what they mean in that agent: `bash` is not `Bash` there, nor here.
 */
const VOCABULARY_RULES: ReadonlySet<MatcherRule> = new Set(['claude', 'regex']);

const PLAIN_NAMES = /^[A-Za-z0-9_|-]+$/;
const CODEX_PLAIN_NAMES = /^[A-Za-z0-9_|]+$/;
/** Names separated by commas or `|`, with spaces around them: `Edit, Write`, `Bash,Read`, `Edit | Write`. */
const CLAUDE_NAME_LIST = /^[A-Za-z0-9_|, -]+$/;

/** What a matcher is matched against on a non-tool event, as Claude Code defines it. */
function subjectOf(event: HookEventName): ((ctx: AnyHookContext) => string | undefined) | undefined {
  switch (event) {
    case 'SessionStart':
      return (ctx) => (ctx.event === 'SessionStart' ? ctx.source : undefined);
    case 'PreCompact':
    case 'PostCompact':
      return (ctx) => (ctx.event === 'PreCompact' || ctx.event === 'PostCompact' ? ctx.trigger : undefined);
    case 'SubagentStart':
      return (ctx) => (ctx.event === 'SubagentStart' ? ctx.type : undefined);
    case 'SubagentStop':
      return (ctx) => (ctx.event === 'SubagentStop' ? ctx.subagentType : undefined);
    case 'Notification':
      return (ctx) => (ctx.event === 'Notification' ? ctx.notificationType : undefined);
    // Claude Code matches a StopFailure hook against the kind of error (`rate_limit`, `server_error`, …).
    case 'StopFailure':
      return (ctx) => (ctx.event === 'StopFailure' ? ctx.errorType : undefined);
    default:
      return undefined;
  }
}

/** Whether a matcher string means "everything" under `rule`. */
export function matchesEverything(pattern: string | undefined): boolean {
  return pattern === undefined || pattern.trim() === '' || pattern.trim() === '*';
}

/**
 * A test over names, by `rule`.
 *
 * @throws {@link MatcherSyntaxError} for a regex that does not compile, {@link UnsafeRegexError} for one that can
 * backtrack catastrophically, naming the pattern as written (without Copilot's anchors).
 */
function nameTest(written: string, rule: MatcherRule): string | RegExp {
  // Claude Code reads a comma list (`Edit, Write`) as exact names, as it does a | list.
  const listed = rule === 'claude' && /[, ]/.test(written) && CLAUDE_NAME_LIST.test(written);
  const pattern = listed ? written.split(/[|,]/).map((name) => name.trim()).filter(Boolean).join('|') : written;
  if ((rule === 'claude' && PLAIN_NAMES.test(pattern)) || (rule === 'codex' && CODEX_PLAIN_NAMES.test(pattern))) {
    // Exact names: the kernel's list syntax, which also lets the stack index the hook by tool name.
    if (pattern.split('|').some((name) => name === '')) {
      throw new MatcherSyntaxError(pattern, 'an empty name in a | list; write names separated by |, e.g. "Write|Edit".');
    }
    return pattern;
  }
  const source = rule === 'anchored' ? `^(?:${pattern})$` : pattern;
  try {
    return compileManifestRegex(source, 'javascript');
  } catch (error) {
    // What runs is judged, anchors included (they can make a pattern safe), but the author knows what they wrote.
    if (error instanceof UnsafeRegexError && source !== pattern) throw new UnsafeRegexError(pattern, error.complexity, error.degree, error.suspected);
    throw error;
  }
}

/** Whether `event` gives a matcher something to match (a tool name, or Claude Code's per-event subjects). */
export function eventTakesMatcher(event: HookEventName): boolean {
  return HookEvent.isToolEvent(event) || subjectOf(event) !== undefined;
}

/**
 * The matcher for `pattern` on `event` by `rule`: over the tool name on tool events; over the session source, the
 * compaction trigger, the subagent type, the notification type or StopFailure's kind of error on those events. On SessionStart the hooks of agents
 * that do not start a session again after a compaction (all but Claude Code and Codex) never see source `compact`,
 * with or without a pattern. `undefined` when it matches everything or the event has nothing to match (the loader reports that as an ignored matcher). Regexes compile as
 * HOOK.md's do (`compileManifestRegex`), so one that can backtrack catastrophically is refused, and are tested against
 * at most `MATCH_INPUT_LIMIT` characters, a longer subject counting as a match.
 *
 * @throws {@link MatcherSyntaxError} for a regex that does not compile; {@link UnsafeRegexError} (a subclass) for one
 * that can backtrack catastrophically.
 *
 * @internal
 */
export function configMatcher(pattern: string | undefined, event: HookEventName, rule: MatcherRule): HookMatcher | undefined {
  const matcher = sourceMatcher(pattern, event, rule);
  if (event !== 'SessionStart' || rule === 'claude' || rule === 'codex') return matcher;
  // Only Claude Code and Codex start a session again after a compaction; the other agents' hooks never see it.
  return new CallableMatcher(function notAfterCompaction(ctx: AnyHookContext) {
    if (ctx.event === 'SessionStart' && ctx.source === 'compact') return false;
    return matcher === undefined || matcher.matches(ctx);
  });
}

/** A tool-name matcher under an {@link AliasedNamesRule}. */
function aliasedToolMatcher(pattern: string, rule: AliasedNamesRule): HookMatcher {
  const alternatives = pattern.includes('|') && !pattern.startsWith('^') && !pattern.startsWith('(') ? pattern.split('|').map((name) => name.trim()).filter((name) => name !== '') : [pattern];
  if (alternatives.some((name) => name === '*' || name === '.*')) return new CallableMatcher(() => true);
  if (alternatives.length === 0) throw new MatcherSyntaxError(pattern, 'a | list with no name in it.');
  const regex = compileManifestRegex(alternatives.join('|'), 'javascript');
  return new CallableMatcher(function aliasedToolName(ctx: AnyHookContext) {
    if (!('toolCall' in ctx)) return false;
    const name = ctx.toolCall.name;
    const targets = [name, ...rule.aliases(name)];
    return alternatives.some((alternative) => targets.includes(alternative)) || boundedTest(regex, name);
  });
}

function sourceMatcher(pattern: string | undefined, event: HookEventName, rule: MatcherRule): HookMatcher | undefined {
  if (pattern === undefined || matchesEverything(pattern)) return undefined;
  if (typeof rule === 'object') {
    if (HookEvent.isToolEvent(event)) return aliasedToolMatcher(pattern.trim(), rule);
    return sourceMatcher(pattern, event, 'regex');
  }
  const test = nameTest(pattern.trim(), rule);
  if (HookEvent.isToolEvent(event)) {
    return new ToolNameMatcher(test, { aliases: VOCABULARY_RULES.has(rule) });
  }
  const subject = subjectOf(event);
  if (subject === undefined) return undefined;
  const names = typeof test === 'string' ? new Set(test.split('|')) : undefined;
  const matches =
    names !== undefined
      ? (value: string) => names.has(value)
      : (value: string) => boundedTest(test as RegExp, value);
  return new CallableMatcher(function configSubject(ctx: AnyHookContext) {
    const value = subject(ctx);
    return value !== undefined && matches(value);
  });
}
