// Internal: not exported from the package.
import { HookEvent, type HookEventName } from '../../core/events.js';
import { literalNames } from '../../core/internal/literal-names.js';
import { MATCH_INPUT_LIMIT } from '../../core/matchers/match-input-limit.js';
import { toolAliases } from '../../core/tool-vocabulary.js';

/**
 * The one call a process loads hooks for (a bridged agent hook call): its event, and for a tool event the tool's name
 * as the agent sent it.
 */
export interface HookCall {
  /** The canonical event. */
  readonly event: HookEventName;
  /** The tool's name, for a tool event. */
  readonly tool?: string | undefined;
}

/** What a HOOK.md `matcher.tool` regex stands for, when that can be read off its text alone. */
export type ToolNames =
  /** Exactly these names (an anchored literal alternation: `^Bash$`, `^(Write|Edit)$`). */
  | { readonly kind: 'exact'; readonly names: ReadonlySet<string> }
  /** Every name that contains one of these (an unanchored literal alternation: `Shell`, `Write|Edit`). */
  | { readonly kind: 'contains'; readonly parts: readonly string[] };

const LITERAL_LIST = /^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*$/;

/**
 * The names a HOOK.md `matcher.tool` regex matches, tested as the hook tests them (no flags, unanchored), or
 * `undefined` when the regex is anything but a literal alternation, anchored at both ends or not at all: such a regex
 * is never run here, where the hook may not even be trusted.
 */
export function toolNamesOf(source: string): ToolNames | undefined {
  if (LITERAL_LIST.test(source)) return { kind: 'contains', parts: source.split('|') };
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch {
    return undefined;
  }
  const names = literalNames(regex);
  return names === undefined || names.size === 0 ? undefined : { kind: 'exact', names };
}

/** Whether `names` holds `name`, under the rule of {@link toolNamesOf}. */
export function toolNamesInclude(names: ToolNames, name: string): boolean {
  return names.kind === 'exact' ? names.names.has(name) : names.parts.some((part) => name.includes(part));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a hook whose frontmatter (or manifest) is `data` may run on `call`: `false` only when that is certain from
 * its `trigger` (another event) or its `matcher.tool` (a literal alternation that matches neither the tool's name nor
 * any other name of the tool, as the hook's own matcher tests them). Anything unusual — a trigger no dialect knows, a
 * matcher that is a real regex, a name too long to test — may run: the hook is then loaded, validated and trust-checked
 * as always, and decides for itself.
 */
export function mayRunOn(data: unknown, call: HookCall): boolean {
  if (!isRecord(data) || typeof data['trigger'] !== 'string') return true;
  let event: HookEventName;
  try {
    event = HookEvent.parse(data['trigger']);
  } catch {
    return true;
  }
  if (event !== call.event) return false;
  // A matcher means nothing on other events (validation drops it), and a tool event without a tool name is odd enough
  // to leave to the hook.
  if (!HookEvent.isToolEvent(event) || call.tool === undefined || call.tool.length > MATCH_INPUT_LIMIT) return true;
  const matcher = data['matcher'];
  if (!isRecord(matcher) || typeof matcher['tool'] !== 'string' || matcher['tool'] === '') return true;
  const names = toolNamesOf(matcher['tool']);
  if (names === undefined) return true;
  const tool = call.tool;
  return toolNamesInclude(names, tool) || toolAliases(tool).some((alias) => toolNamesInclude(names, alias));
}
