// Internal: not exported from the package.
import type { ToolChoiceMode, ToolConfig } from '../../core/index.js';

/** How much each mode restricts the model: a narrowing never goes back to a looser one. */
const RESTRICTION: Readonly<Record<ToolChoiceMode, number>> = { auto: 0, any: 1, none: 2 };

/**
 * `wanted` within `before`: the stricter mode, and the tools both allow (no names is every tool). It narrows the
 * selection itself, not the request's list of tools, so it holds where that list is unknown (Gemini CLI sends none).
 */
export function narrowToolConfig(before: ToolConfig | undefined, wanted: ToolConfig): ToolConfig {
  if (before === undefined) return wanted;
  const mode = RESTRICTION[before.mode] >= RESTRICTION[wanted.mode] ? before.mode : wanted.mode;
  const [a, b] = [before.allowedFunctionNames, wanted.allowedFunctionNames];
  if (a === undefined || b === undefined) {
    const names = a ?? b;
    return names === undefined ? { mode } : { mode, allowedFunctionNames: names };
  }
  const both = new Set(b);
  return { mode, allowedFunctionNames: a.filter((name) => both.has(name)) };
}
