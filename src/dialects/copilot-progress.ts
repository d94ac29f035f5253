/**
 * Copilot CLI's progress lines: status messages a command hook prints on stdout before its answer.
 *
 * @module
 */
import type { ProcessResult } from './process-result.js';

/** Whether `line` is one progress message: a single JSON object, on that line alone, whose `type` is `progress`. */
function isProgressLine(line: string): boolean {
  const text = line.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { type?: unknown }).type === 'progress';
  } catch {
    return false;
  }
}

/**
 * `result` with its progress lines taken out of stdout, as Copilot CLI 1.0.102 does before it parses the rest as the
 * hook's answer: each line that is, trimmed, one JSON object with `"type": "progress"` is a status message for its
 * timeline; every other line stays as it was. A guard that reports its progress and then denies must deny here too:
 * left in, the progress line would make the answer unreadable.
 *
 * @internal
 */
export function withoutProgressLines(result: ProcessResult): ProcessResult {
  if (!result.stdout.includes('progress')) return result;
  const lines = result.stdout.split('\n');
  const kept = lines.filter((line) => !isProgressLine(line));
  return kept.length === lines.length ? result : { ...result, stdout: kept.join('\n') };
}
