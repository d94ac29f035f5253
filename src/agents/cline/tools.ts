/**
 * Cline's CLI's names for the tools of the shared vocabulary, as its hook payloads name them. It imports nothing:
 * core's vocabulary, which every tool-name matcher reads, is built from it.
 *
 * @module
 * @internal
 */

/**
 * Cline's CLI's tool names, by the tool's canonical name.
 *
 * @internal
 */
export const clineTools = {
  Shell: ['run_commands'],
  ReadFile: ['read_files'],
  StrReplaceFile: ['editor', 'apply_patch'],
  FetchURL: ['fetch_web_content'],
} as const;
