/**
 * The YAML 1.1 scalars of a HOOK.md frontmatter, read as the format's reference runtime reads them: its YAML parser
 * (PyYAML) is YAML 1.1, where `yes`, `no`, `on` and `off` are booleans and `1_000` is a number. The `yaml` package
 * reads YAML 1.2, where they are text, which would refuse a hook the reference runtime loads. So the typed fields
 * written that way take the value YAML 1.1 gives, with a warning naming the portable spelling.
 *
 * @module
 */
import type { HookProblem } from './problem.js';

// PyYAML's resolver: these spellings only (no `y` or `n`).
const TRUE = /^(?:yes|Yes|YES|on|On|ON)$/;
const FALSE = /^(?:no|No|NO|off|Off|OFF)$/;
// A decimal integer with underscores between digits, as YAML 1.1 writes it.
const INT = /^[-+]?(?:0|[1-9][0-9_]*)$/;

const BOOLEAN_FIELDS = ['async'];
const INTEGER_FIELDS = ['timeout', 'priority'];

/** The 1-based line in the file of top-level key `field` in `text` (which starts on `textLine`). */
function lineOfKey(text: string, field: string, textLine: number): number | undefined {
  const index = text.split('\n').findIndex((l) => l.startsWith(`${field}:`));
  return index === -1 ? undefined : index + textLine;
}

/**
 * `data` (a parsed frontmatter) with its YAML 1.1 booleans and integers read as YAML 1.1 reads them, and a warning
 * for each. Only plain scalars count: `source` says whether the field was written unquoted.
 *
 * @internal
 */
export function readYaml11Scalars(
  data: unknown,
  block: { readonly text: string; readonly textLine: number },
  file: string,
): { data: unknown; problems: HookProblem[] } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { data, problems: [] };
  const record = data as Record<string, unknown>;
  const problems: HookProblem[] = [];
  let out: Record<string, unknown> | undefined;
  const set = (field: string, value: unknown, written: string, portable: string): void => {
    out ??= { ...record };
    out[field] = value;
    problems.push({
      file,
      line: lineOfKey(block.text, field, block.textLine),
      field,
      found: written,
      allowed: portable,
      severity: 'warning',
      code: 'yaml-1.1-scalar',
      message: `${field}: ${written} is read as ${portable}, as the reference runtime's YAML 1.1 reads it; YAML 1.2 readers take it as text: write ${portable}.`,
    });
  };
  for (const field of BOOLEAN_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || !unquoted(block.text, field, value)) continue;
    if (TRUE.test(value)) set(field, true, value, 'true');
    else if (FALSE.test(value)) set(field, false, value, 'false');
  }
  for (const field of INTEGER_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || !value.includes('_') || !INT.test(value) || !unquoted(block.text, field, value)) continue;
    const number = Number(value.replace(/_/g, ''));
    if (Number.isSafeInteger(number)) set(field, number, value, String(number));
  }
  return { data: out ?? data, problems };
}

/** Whether top-level `field` is written as the plain scalar `value` (a quoted `"yes"` is text in YAML 1.1 too). */
function unquoted(text: string, field: string, value: string): boolean {
  return text.split('\n').some((line) => line.startsWith(`${field}:`) && line.slice(field.length + 1).replace(/\s+#.*$/, '').trim() === value);
}
