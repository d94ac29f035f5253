/**
 * Qwen Code's other names for its tools, as its hook matchers accept them: the display name, the display name with
 * `Tool`, the names of old, and Claude Code's (`Bash` for `run_shell_command`), read from Qwen Code 0.24.4
 * (`getToolMatcherTargets`). Only the tools of the shared vocabulary and a few more are listed: another tool matches
 * by its own name.
 *
 * @module
 * @internal
 */

const ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  run_shell_command: ['Shell', 'ShellTool', 'Bash'],
  read_file: ['ReadFile', 'ReadFileTool', 'Read'],
  write_file: ['WriteFile', 'WriteFileTool', 'Write'],
  edit: ['Edit', 'EditTool', 'replace'],
  glob: ['Glob', 'GlobTool', 'FindFiles'],
  grep_search: ['Grep', 'GrepTool', 'search_file_content', 'SearchFiles'],
  web_fetch: ['WebFetch', 'WebFetchTool'],
  web_search: ['WebSearch', 'WebSearchTool'],
  agent: ['Agent', 'AgentTool', 'task', 'Task', 'TaskTool'],
  list_directory: ['ListFiles', 'ListFilesTool', 'ReadFolder'],
  todo_write: ['TodoList', 'TodoListTool', 'TodoWrite', 'TodoWriteTool'],
  notebook_edit: ['NotebookEdit', 'NotebookEditTool'],
  save_memory: ['SaveMemory', 'SaveMemoryTool'],
});

/**
 * Qwen Code's other names for the tool it calls `name`.
 *
 * @internal
 */
export const qwenToolAliases = (name: string): readonly string[] => (Object.hasOwn(ALIASES, name) ? ALIASES[name]! : []);
