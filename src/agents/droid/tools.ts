/**
 * Factory Droid's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Factory Droid's tool names, by the tool's canonical name. Its shell tool, `Execute`, takes `summary`, `riskLevel`
 * and `riskLevelReason` beside the `command` every agent's shell shares.
 *
 * @internal
 */
export const droidTools = {
  Shell: ['Execute'],
  ReadFile: ['Read'],
  WriteFile: ['Create'],
  StrReplaceFile: ['Edit', 'ApplyPatch'],
  Glob: ['Glob'],
  Grep: ['Grep'],
  FetchURL: ['FetchUrl'],
  SearchWeb: ['WebSearch'],
  Task: ['Task'],
} as const;
