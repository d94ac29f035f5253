/**
 * VS Code's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * VS Code's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const vscodeTools = {
  Shell: ['run_in_terminal', 'runTerminalCommand'],
  ReadFile: ['read_file', 'readFile'],
  WriteFile: ['create_file', 'createFile'],
  StrReplaceFile: ['replace_string_in_file', 'editFiles'],
  Glob: ['file_search'],
  Grep: ['grep_search'],
  FetchURL: ['fetch_webpage'],
  Task: ['runSubagent'],
} as const;
