// Internal: not exported from the package.

const MAX = 60;

/**
 * A value as a problem report shows it: JSON, cut to one short line. Never throws, because it runs on whatever a
 * user's YAML produced, and a report that crashes on odd input hides the very problem it describes.
 */
export function describeValue(value: unknown, max = MAX): string {
  let text: string;
  try {
    text =
      typeof value === 'bigint'
        ? `${value}n`
        : typeof value === 'number' && !Number.isFinite(value)
          ? String(value)
          : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
