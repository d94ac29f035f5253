/**
 * BeforeToolSelection answers of Gemini CLI hooks, combined as Gemini CLI combines them.
 *
 * Gemini CLI 0.61 runs every hook of the event and merges their `toolConfig`s (`mergeToolSelectionOutputs`): the
 * UNION of the tools they name, `NONE` if any says `NONE`, else `ANY` if any says `ANY`, else `AUTO`. The hooks of a
 * stack run one after another instead, and a selection made here only narrows. Both hold: the Gemini hooks that run in
 * a row on one dispatch merge as Gemini CLI merges them, and what they come to together narrows the selection that
 * stood before the first of them — another hook's, or none.
 *
 * @module
 * @internal
 */
import type { ModelHookContext, ToolChoiceMode, ToolConfig } from '../core/index.js';
import { narrowToolConfig } from './internal/narrow-tool-config.js';

/** What the Gemini hooks of a row have answered so far. */
interface Merged {
  /** Whether one of them said `NONE`. */
  readonly none: boolean;
  /** Whether one of them said `ANY`. */
  readonly any: boolean;
  /** Every tool one of them named. */
  readonly names: ReadonlySet<string>;
}

/** A row under way: the selection before its first hook, and its merge so far. */
interface Row {
  readonly before: ToolConfig | undefined;
  readonly merged: Merged;
}

// The selection a row of Gemini hooks left in a request, mapped to the row: a later Gemini hook goes on with the row,
// any other selection starts a new one. Keyed by the frozen ToolConfig itself, which a request passes on unchanged
// until a hook selects again.
const rows = new WeakMap<ToolConfig, Row>();

/** The merge as a selection: no names is every tool, as it is to Gemini. */
function asConfig(merged: Merged): ToolConfig {
  const mode: ToolChoiceMode = merged.none ? 'none' : merged.any ? 'any' : 'auto';
  if (mode === 'none') return { mode, allowedFunctionNames: [] };
  return merged.names.size === 0 ? { mode } : { mode, allowedFunctionNames: [...merged.names].sort() };
}

/**
 * `ctx` with one Gemini hook's tool selection (`mode`, and the tools it names, none for no restriction) merged in as
 * Gemini CLI merges the selections of the hooks of one event.
 *
 * @internal
 */
export function selectAsGemini(ctx: ModelHookContext<'BeforeToolSelection'>, selection: { readonly mode: ToolChoiceMode; readonly names: readonly string[] }): ModelHookContext<'BeforeToolSelection'> {
  const current = ctx.request.toolConfig;
  const row = current === undefined ? undefined : rows.get(current);
  const before = row === undefined ? current : row.before;
  const so = row?.merged ?? { none: false, any: false, names: new Set<string>() };
  const merged: Merged = {
    none: so.none || selection.mode === 'none',
    any: so.any || selection.mode === 'any',
    names: new Set([...so.names, ...selection.names]),
  };
  const next = ctx.withToolConfig(narrowToolConfig(before, asConfig(merged)));
  rows.set(next.request.toolConfig!, { before, merged });
  return next;
}
