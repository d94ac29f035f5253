/**
 * A tool result as text, as the run loop writes it into the conversation: what the model saw. Dialects that hand a
 * hook that text (Gemini's `llmContent`) use the same function, so the two never differ.
 *
 * @internal
 * @module
 */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
