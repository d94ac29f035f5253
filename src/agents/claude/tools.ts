/**
 * Claude Code's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Claude Code's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const claudeTools = {
  Shell: ['Bash'],
  ReadFile: ['Read'],
  WriteFile: ['Write'],
  StrReplaceFile: ['Edit', 'MultiEdit'],
  Glob: ['Glob'],
  Grep: ['Grep'],
  FetchURL: ['WebFetch'],
  SearchWeb: ['WebSearch'],
  Task: ['Task', 'Agent'],
} as const;
