/**
 * One tool vocabulary across agents: the same tool goes by a different name in each agent (Claude Code's `Bash` is
 * Gemini CLI's `run_shell_command` and Copilot CLI's `bash`), so a hook written against one name would miss the
 * others. Each tool has a canonical name — the HOOK.md format's own (`Shell`, `ReadFile`, `WriteFile`, …) — and
 * every tool-name matcher tests it beside the agent's own name.
 *
 * @module
 */

/** The agents whose tool names the vocabulary knows. */
export type ToolVocabularyAgent = 'claude' | 'codex' | 'gemini' | 'copilot' | 'cursor' | 'vscode' | 'droid' | 'cline' | 'opencode';

/** Every agent of the vocabulary, in the order the docs list them. */
export const TOOL_VOCABULARY_AGENTS: readonly ToolVocabularyAgent[] = Object.freeze(['claude', 'codex', 'gemini', 'copilot', 'cursor', 'vscode', 'droid', 'cline', 'opencode']);

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

const entry = (value: ToolVocabularyEntry): ToolVocabularyEntry =>
  Object.freeze({ ...value, names: Object.freeze(Object.fromEntries(Object.entries(value.names).map(([k, v]) => [k, Object.freeze([...v])]))) });

/**
 * The vocabulary. Names are those each agent puts in its hook payloads' tool name (which can differ from what it
 * shows the model: Codex hands hooks `Bash` for its shell tool). MCP tools are not in it: each agent names them
 * after their server (`mcp__server__tool` in Claude Code and Codex), and a matcher names them as that agent does.
 */
export const TOOL_VOCABULARY: readonly ToolVocabularyEntry[] = Object.freeze([
  entry({
    canonical: 'Shell',
    description: 'runs a shell command',
    sharedArgument: 'command',
    names: { claude: ['Bash'], codex: ['Bash'], gemini: ['run_shell_command'], copilot: ['bash'], cursor: ['Shell'], vscode: ['run_in_terminal', 'runTerminalCommand'], droid: ['Execute'], cline: ['run_commands'], opencode: ['bash'] },
  }),
  entry({
    canonical: 'ReadFile',
    description: 'reads a file',
    names: { claude: ['Read'], gemini: ['read_file', 'read_many_files'], copilot: ['view'], cursor: ['Read'], vscode: ['read_file', 'readFile'], droid: ['Read'], cline: ['read_files'], opencode: ['read'] },
  }),
  entry({
    canonical: 'WriteFile',
    description: 'writes a whole file',
    names: { claude: ['Write'], gemini: ['write_file'], copilot: ['create'], cursor: ['Write'], vscode: ['create_file', 'createFile'], droid: ['Create'], opencode: ['write'] },
  }),
  entry({
    canonical: 'StrReplaceFile',
    description: 'edits part of a file',
    names: { claude: ['Edit', 'MultiEdit'], codex: ['apply_patch'], gemini: ['replace'], copilot: ['edit'], vscode: ['replace_string_in_file', 'editFiles'], droid: ['Edit'], cline: ['editor', 'apply_patch'], opencode: ['edit', 'apply_patch'] },
  }),
  entry({
    canonical: 'Glob',
    description: 'finds files by name',
    names: { claude: ['Glob'], gemini: ['glob'], copilot: ['glob'], cursor: ['Glob'], vscode: ['file_search'], droid: ['Glob'], opencode: ['glob'] },
  }),
  entry({
    canonical: 'Grep',
    description: 'searches file contents',
    names: { claude: ['Grep'], gemini: ['search_file_content', 'grep_search'], copilot: ['grep'], cursor: ['Grep'], vscode: ['grep_search'], droid: ['Grep'], opencode: ['grep'] },
  }),
  entry({
    canonical: 'FetchURL',
    description: 'fetches a web page',
    names: { claude: ['WebFetch'], gemini: ['web_fetch'], copilot: ['web_fetch'], vscode: ['fetch_webpage'], cline: ['fetch_web_content'], opencode: ['webfetch'] },
  }),
  entry({
    canonical: 'SearchWeb',
    description: 'searches the web',
    names: { claude: ['WebSearch'], codex: ['web_search'], gemini: ['google_web_search'], opencode: ['websearch'] },
  }),
  entry({
    canonical: 'Task',
    description: 'starts a subagent',
    names: { claude: ['Task', 'Agent'], copilot: ['task'], cursor: ['Task'], vscode: ['runSubagent'], droid: ['Task'], opencode: ['task'] },
  }),
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
