/**
 * The pieces every agent's answer writer is made of: a JSON answer, no answer, and an object without the fields
 * nothing was decided for.
 *
 * @module
 * @internal
 */
import type { BridgeAnswer } from '../dialects/outcome-changes.js';

/**
 * `value` as a JSON answer on stdout, exit 0.
 *
 * @internal
 */
export const json = (value: Record<string, unknown>): BridgeAnswer => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });

/**
 * No answer: nothing on stdout or stderr, exit 0.
 *
 * @internal
 */
export const nothing: BridgeAnswer = Object.freeze({ exitCode: 0, stdout: '', stderr: '' });

/**
 * `value` without its undefined fields and empty objects, so an answer carries only what was decided.
 *
 * @internal
 */
export function compact(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 0) continue;
    out[key] = item;
  }
  return out;
}

/**
 * The texts joined by blank lines, or `undefined` for none.
 *
 * @internal
 */
export const joined = (items: readonly string[]): string | undefined => (items.length === 0 ? undefined : items.join('\n\n'));

/**
 * A field that holds the tool's arguments as a JSON string (Copilot's `toolArgs`, Cursor's MCP `tool_input`), parsed;
 * any other value as it is.
 *
 * @internal
 */
export function parseJsonString(value: unknown, field: string, fail: (message: string) => Error): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw fail(`${field} is a string that is not JSON; it should hold the tool's arguments.`);
  }
}
