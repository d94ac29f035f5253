// What the CommonJS executable's body (bin-stage.ts, `dist/cli-stage.cjs`) loads lazily, as one file of its own,
// `dist/cli-lazy.cjs`: every module its first stage imports with `import()` — loaded only when the first stage learns
// what its index does not know yet. The build turns each such `import()` in cli-stage.cjs into a read of the namespace
// of the same module here (tsup.config.ts, `lazyFirstStage`), and fails when one is missing: add it below.
export * as lessons from '../bridge/first-stage-lessons.js';
export * as events from '../core/events.js';
export * as codexDialect from '../dialects/codex.js';
export * as cursorDialect from '../dialects/cursor.js';
