/**
 * Script hooks: HOOK.md manifests and their discovery.
 *
 * @module
 */
export * from './manifest.js';
export * from './problem.js';
export * from './trigger-names.js';
export * from './manifest-regex.js';
export * from './unsafe-regex-error.js';
export * from './frontmatter-schema.js';
export * from './frontmatter.js';
export * from './entry.js';
export * from './validate.js';
export * from './hook-properties.js';
export * from './hooks-prompt.js';
export * from './hook-dirs.js';
export * from './load-manifest.js';
export * from './discovery.js';
export * from '../process/run-process.js';
export * from '../dialects/dialect.js';
export * from '../dialects/hookmd.js';
export * from './manifest-matcher.js';
export * from './script-hook.js';
export * from './discover-hooks.js';
export * from './trust/index.js';
export * from './process-hook.js';
export * from '../process/process-pool.js';
export { DEFAULT_ORPHAN_WATCH_AFTER_MS, guardAgainstOrphans, killLiveProcessGroups, liveProcessGroups } from '../process/live-groups.js';
export * from './hook-environment.js';
export { claudeDialect } from '../dialects/claude.js';
export { vscodeDialect } from '../dialects/vscode.js';
export { copilotDialect } from '../dialects/copilot.js';
export { geminiDialect } from '../dialects/gemini.js';
export {
  codexAnswer,
  codexDialect,
  codexEventFields,
  CODEX_EVENTS,
  CodexPayloadError,
  interpretCodex,
  readCodexPayload,
  type CodexPayloadReading,
} from '../dialects/codex.js';
export {
  createCursorDialect,
  cursorDialect,
  CURSOR_DEFAULT_LOOP_LIMIT,
  CURSOR_EVENTS,
  type CursorDialectOptions,
} from '../dialects/cursor.js';
export { DIALECT_NAMES, dialectNamed } from '../dialects/registry.js';
export * from './command-hook.js';
export * from './sample-context.js';
