/**
 * Qwen Code's names for the tools of the shared vocabulary, as its hook payloads name them (its `ToolNames`, 0.24).
 * It imports nothing: core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Qwen Code's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const qwenTools = {
  Shell: ['run_shell_command'],
  ReadFile: ['read_file'],
  WriteFile: ['write_file'],
  StrReplaceFile: ['edit'],
  Glob: ['glob'],
  Grep: ['grep_search'],
  FetchURL: ['web_fetch'],
  SearchWeb: ['web_search'],
  Task: ['agent'],
} as const;
