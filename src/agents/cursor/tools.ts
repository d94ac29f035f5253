/**
 * Cursor's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Cursor's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const cursorTools = {
  Shell: ['Shell'],
  ReadFile: ['Read'],
  WriteFile: ['Write'],
  Glob: ['Glob'],
  Grep: ['Grep'],
  Task: ['Task'],
} as const;
