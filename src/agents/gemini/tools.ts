/**
 * Gemini CLI's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Gemini CLI's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const geminiTools = {
  Shell: ['run_shell_command'],
  ReadFile: ['read_file', 'read_many_files'],
  WriteFile: ['write_file'],
  StrReplaceFile: ['replace'],
  Glob: ['glob'],
  Grep: ['search_file_content', 'grep_search'],
  FetchURL: ['web_fetch'],
  SearchWeb: ['google_web_search'],
} as const;
