/**
 * The matcher `bridge --install` writes for each tool event, so that the agent starts the bridge only for the tools
 * the project's HOOK.md hooks can match — never for fewer: a matcher narrower than the hooks would skip a guard without
 * a word.
 *
 * @module
 * @internal
 */
import type { MatcherSyntax } from '../agents/profile.js';
import { agentProfile } from '../agents/registry.js';
import { HookEvent, type HookEventName } from '../core/events.js';
import { KNOWN_TOOL_NAMES, toolAliases } from '../core/tool-vocabulary.js';
import { toolNamesOf, type ToolNames } from '../script/internal/call-filter.js';
import type { InstallAgent } from './install-targets.js';

/**
 * One HOOK.md hook as the bridge would run it: its event, and its `matcher.tool` regex (`undefined`: every tool).
 *
 * @internal
 */
export interface MatchedHook {
  /** The canonical event. */
  readonly event: HookEventName;
  /** The `matcher.tool` regex as written, or `undefined` when the hook runs for every tool. */
  readonly tool: string | undefined;
}

/**
 * How an agent reads the matcher of a hook entry: Claude Code and Codex take a word or a `|` list of words as exact
 * names and anything else as an unanchored regex; Gemini CLI an unanchored regex; Copilot CLI a regex anchored at both
 * ends. VS Code does not apply matchers, and Cursor's entries have none: they get none.
 */
const syntaxOf = (agent: InstallAgent): MatcherSyntax => agentProfile(agent).matcherSyntax;

const WORD = /^[A-Za-z0-9_-]+$/;
const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Whether `agent`'s entries can carry a tool matcher.
 *
 * @internal
 */
export const takesMatchers = (agent: InstallAgent): boolean => syntaxOf(agent) !== undefined;

/**
 * The tool names the agent must start the bridge for, for hooks whose `matcher.tool` regexes read as `names`: each
 * exact name with every other name of its tool (a hook matches a call when its regex matches any name of the tool,
 * so `^Shell$` runs for Claude Code's `Bash`); for an unanchored name, every tool one of whose names contains it, and
 * — as an unanchored part — any other name that contains it.
 */
function coverage(names: readonly ToolNames[]): { exact: string[]; parts: string[] } {
  const exact = new Set<string>();
  const parts = new Set<string>();
  for (const n of names) {
    if (n.kind === 'exact') {
      for (const name of n.names) for (const alias of toolAliases(name)) exact.add(alias);
    } else {
      for (const part of n.parts) parts.add(part);
    }
  }
  for (const known of KNOWN_TOOL_NAMES) {
    if ([...parts].some((part) => known.includes(part))) for (const alias of toolAliases(known)) exact.add(alias);
  }
  const sorted = (set: Set<string>): string[] => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { exact: sorted(exact), parts: sorted(parts) };
}

/**
 * The matcher to write for `event` in `agent`'s config, given every HOOK.md hook the bridge may run (user and
 * project, trusted or not), or `undefined` for none (the agent then starts the bridge for every tool): for a non-tool
 * event, an agent whose entries take no matcher, an event without hooks, or when any hook on it runs for every tool or
 * has a `matcher.tool` that is not a literal name or list of names (`^Bash$`, `^(Write|Edit)$`, `Shell`,
 * `Write|Edit`) — such a regex cannot be turned into a list of the agent's tool names, and a guess could leave a tool
 * unguarded.
 *
 * @internal
 */
export function installMatcher(agent: InstallAgent, event: HookEventName, hooks: readonly MatchedHook[]): string | undefined {
  const syntax = syntaxOf(agent);
  if (syntax === undefined || !HookEvent.isToolEvent(event)) return undefined;
  const mine = hooks.filter((hook) => hook.event === event);
  if (mine.length === 0) return undefined;
  const names: ToolNames[] = [];
  for (const hook of mine) {
    const read = hook.tool === undefined || hook.tool === '' ? undefined : toolNamesOf(hook.tool);
    if (read === undefined) return undefined;
    names.push(read);
  }
  const { exact, parts } = coverage(names);
  if (syntax === 'anchored') return [...exact.map(escape), ...parts.map((part) => `.*${escape(part)}.*`)].join('|');
  if (syntax === 'exact-or-regex' && parts.length === 0 && exact.every((name) => WORD.test(name))) return exact.join('|');
  // A regex: the group makes even a single word read as one in Claude Code's syntax.
  const alternatives = [...(exact.length > 0 ? [`^(?:${exact.map(escape).join('|')})$`] : []), ...(parts.length > 0 ? [`(?:${parts.map(escape).join('|')})`] : [])];
  return alternatives.join('|');
}
