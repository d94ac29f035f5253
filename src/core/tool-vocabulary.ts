/**
 * One tool vocabulary across agents: the same tool goes by a different name in each agent (Claude Code's `Bash` is
 * Gemini CLI's `run_shell_command` and Copilot CLI's `bash`), so a hook written against one name would miss the
 * others. Each tool has a canonical name — the HOOK.md format's own (`Shell`, `ReadFile`, `WriteFile`, …) — and
 * every tool-name matcher tests it beside the agent's own name.
 *
 * @module
 */

// Each agent's names live in its room (`src/agents/<id>/tools.ts`), files that import nothing, gathered in one table.
import { AGENT_TOOL_NAMES } from '../agents/tool-registry.js';

/** The agents whose tool names the vocabulary knows. */
export type ToolVocabularyAgent = keyof typeof AGENT_TOOL_NAMES;

/** Every agent of the vocabulary, in the order the docs list them. */
export const TOOL_VOCABULARY_AGENTS: readonly ToolVocabularyAgent[] = Object.freeze(Object.keys(AGENT_TOOL_NAMES) as ToolVocabularyAgent[]);

/** One tool, under its canonical name and each agent's names for it. */
export interface ToolVocabularyEntry {
  /** The HOOK.md name: what a hook written against the HOOK.md spec matches (`tool: Shell`). */
  readonly canonical: string;
  /** What the tool does, in a few words. */
  readonly description: string;
  /** Each agent's own names for it; an agent without such a tool is absent. */
  readonly names: Readonly<Partial<Record<ToolVocabularyAgent, readonly string[]>>>;
  /** The argument every agent's version of the tool shares, when there is one (`command` for the shell). */
  readonly sharedArgument?: string | undefined;
}

/** A tool of the vocabulary, with each agent's names for it. */
function entry(value: Omit<ToolVocabularyEntry, 'names'>): ToolVocabularyEntry {
  const names: Partial<Record<ToolVocabularyAgent, readonly string[]>> = {};
  for (const agent of TOOL_VOCABULARY_AGENTS) {
    const own = (AGENT_TOOL_NAMES[agent] as Readonly<Record<string, readonly string[]>>)[value.canonical];
    if (own !== undefined) names[agent] = Object.freeze([...own]);
  }
  return Object.freeze({ ...value, names: Object.freeze(names) });
}

/**
 * The vocabulary. Names are those each agent puts in its hook payloads' tool name (which can differ from what it
 * shows the model: Codex hands hooks `Bash` for its shell tool). MCP tools are not in it: each agent names them
 * after their server (`mcp__server__tool` in Claude Code and Codex), and a matcher names them as that agent does.
 */
export const TOOL_VOCABULARY: readonly ToolVocabularyEntry[] = Object.freeze([
  entry({ canonical: 'Shell', description: 'runs a shell command', sharedArgument: 'command' }),
  entry({ canonical: 'ReadFile', description: 'reads a file' }),
  entry({ canonical: 'WriteFile', description: 'writes a whole file' }),
  entry({ canonical: 'StrReplaceFile', description: 'edits part of a file' }),
  entry({ canonical: 'Glob', description: 'finds files by name' }),
  entry({ canonical: 'Grep', description: 'searches file contents' }),
  entry({ canonical: 'FetchURL', description: 'fetches a web page' }),
  entry({ canonical: 'SearchWeb', description: 'searches the web' }),
  entry({ canonical: 'Task', description: 'starts a subagent' }),
]);

const CANONICAL = new Map<string, string>();
const ALIASES = new Map<string, readonly string[]>();
for (const tool of TOOL_VOCABULARY) {
  const names = [...new Set([tool.canonical, ...Object.values(tool.names).flat()])];
  for (const name of names) {
    CANONICAL.set(name, tool.canonical);
    ALIASES.set(name, Object.freeze(names));
  }
}

/**
 * Every name the vocabulary knows, canonical and agents' own.
 *
 * @internal
 */
export const KNOWN_TOOL_NAMES: readonly string[] = Object.freeze([...CANONICAL.keys()]);

/**
 * The canonical (HOOK.md) name of the tool an agent calls `name` — `Shell` for `Bash`, `run_shell_command` and
 * `bash` — or `undefined` for a name the vocabulary does not know (a tool of your own, an MCP tool). Exact and
 * case-sensitive, as tool names are.
 */
export function canonicalToolName(name: string): string | undefined {
  return CANONICAL.get(name);
}

/** Every name of the tool called `name` (its canonical name first), or just `[name]` for an unknown name. */
export function toolAliases(name: string): readonly string[] {
  return ALIASES.get(name) ?? [name];
}
