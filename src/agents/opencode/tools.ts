/**
 * OpenCode's (and Kilo's) names for the tools of the shared vocabulary, as its plugin hooks name them. It imports
 * nothing: core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * OpenCode's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const opencodeTools = {
  Shell: ['bash'],
  ReadFile: ['read'],
  WriteFile: ['write'],
  StrReplaceFile: ['edit', 'apply_patch'],
  Glob: ['glob'],
  Grep: ['grep'],
  FetchURL: ['webfetch'],
  SearchWeb: ['websearch'],
  Task: ['task'],
} as const;
