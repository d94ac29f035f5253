/**
 * What a HOOK.md hook's frontmatter says about the calls it may run on, in a form that can be kept in a file: the
 * bridge's first stage decides from it, without loading the event table or the frontmatter parser, that a hook cannot
 * run on a call.
 *
 * @module
 * @internal
 */
import { MATCH_INPUT_LIMIT } from '../core/matchers/match-input-limit.js';

/**
 * The tool names a `matcher.tool` regex matches, when its text alone says so: `exact`, an anchored literal
 * alternation (`^(Write|Edit)$`); `contains`, an unanchored one (`Write|Edit`), which matches every name containing a
 * part.
 *
 * @internal
 */
export type ToolNamesData = { readonly kind: 'exact'; readonly names: readonly string[] } | { readonly kind: 'contains'; readonly parts: readonly string[] };

/**
 * When a hook may run: `'always'` (its trigger is not one the filter can read, so the hook decides for itself), or on
 * one canonical `event`, for the tools `tools` names (`null`: any tool, or an event without tools).
 *
 * @internal
 */
export type HookFilter = 'always' | { readonly event: string; readonly tools: ToolNamesData | null };

/**
 * One call as the filter sees it: the canonical event, the tool's name (tool events), and every other name of that
 * tool (`toolAliases`).
 *
 * @internal
 */
export interface FilterCall {
  /** The canonical event. */
  readonly event: string;
  /** The tool's name, as the agent sent it. */
  readonly tool?: string | undefined;
  /** Every name of the tool (`toolAliases`). */
  readonly aliases: readonly string[];
}

const includes = (tools: ToolNamesData, name: string): boolean => (tools.kind === 'exact' ? tools.names.includes(name) : tools.parts.some((part) => name.includes(part)));

/**
 * Whether a hook with `filter` may run on `call`: the same answer as `mayRunOn` gives for the frontmatter the filter
 * was made from (a property test holds the two together).
 *
 * @internal
 */
export function filterAdmits(filter: HookFilter, call: FilterCall): boolean {
  if (filter === 'always') return true;
  if (filter.event !== call.event) return false;
  const { tools } = filter;
  if (tools === null || call.tool === undefined || call.tool.length > MATCH_INPUT_LIMIT) return true;
  const tool = call.tool;
  return includes(tools, tool) || call.aliases.some((alias) => includes(tools, alias));
}
