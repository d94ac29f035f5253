/**
 * Every wire dialect by name: what a HOOK.md's `metadata.dialect` and the CLI's `--from` accept.
 *
 * @module
 */
import { claudeDialect } from './claude.js';
import { codexDialect } from './codex.js';
import { copilotDialect } from './copilot.js';
import { cursorDialect } from './cursor.js';
import type { WireDialect } from './dialect.js';
import { geminiDialect } from './gemini.js';
import { hookMdDialect } from './hookmd.js';
import { vscodeDialect } from './vscode.js';

const DIALECTS: ReadonlyMap<string, WireDialect> = new Map(
  [hookMdDialect, claudeDialect, copilotDialect, vscodeDialect, geminiDialect, cursorDialect, codexDialect].map((d) => [d.name, d]),
);

/**
 * The names of the dialects: `hookmd`, `claude`, `copilot`, `vscode`, `gemini`, `cursor`, `codex`.
 *
 * @internal
 */
export const DIALECT_NAMES: readonly string[] = Object.freeze([...DIALECTS.keys()]);

/**
 * The dialect called `name`, or `undefined`.
 *
 * @internal
 */
export function dialectNamed(name: string): WireDialect | undefined {
  return DIALECTS.get(name);
}
