/**
 * Codex CLI's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Codex CLI's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const codexTools = {
  Shell: ['Bash'],
  StrReplaceFile: ['apply_patch'],
  SearchWeb: ['web_search'],
} as const;
