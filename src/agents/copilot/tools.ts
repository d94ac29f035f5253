/**
 * Copilot CLI's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Copilot CLI's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const copilotTools = {
  Shell: ['bash'],
  ReadFile: ['view'],
  WriteFile: ['create'],
  StrReplaceFile: ['edit'],
  Glob: ['glob'],
  Grep: ['grep'],
  FetchURL: ['web_fetch'],
  Task: ['task'],
} as const;
