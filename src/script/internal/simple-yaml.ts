// Internal: not exported from the package.

/*
 * A fast path for the YAML that frontmatters are nearly always written in: `key: scalar` lines and one level of
 * nested `key:` mappings of scalars (a `matcher:`, a flat `metadata:`). It returns `undefined` for anything outside
 * that subset, and the caller then parses with the `yaml` package; so it never has to be a YAML parser, only never
 * wrong about what it accepts. A property test holds it to that against `yaml` itself.
 *
 * Why: `yaml` costs ~100 µs per small document, which was half the time of discovering a thousand hooks; this is ~1 µs.
 */

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?$/;
// Words the core schema reads as null or booleans: as keys they would not stay strings.
const SPECIAL_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '__proto__']);
const INT = /^(?:0|-?[1-9][0-9]{0,14})$/;
// Tabs, control characters, DEL, C1 controls, BOM and the Unicode line separators: YAML treats some specially.
// eslint-disable-next-line no-control-regex
const AWKWARD = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
// A plain scalar must not start with an indicator, a digit, a sign, a dot or a space (numbers, floats and the
// like are left to `yaml`: their resolution has more cases than are worth copying). `^` starts no YAML token, and an
// anchored matcher regex (`tool: ^Bash$`) starts with it.
const PLAIN_START = /^[\p{L}_/\\(^]/u;

// YAML's white space is the space (tabs are refused above), not JavaScript's \s with its Unicode spaces.
const trimSpaces = (s: string): string => s.replace(/^ +| +$/g, '');
const isEmptyValue = (raw: string): boolean => {
  const value = trimSpaces(raw);
  return value === '' || value.startsWith('#');
};

/** The value of one scalar, or `undefined` when it is not plainly in the subset. */
function scalar(raw: string): unknown {
  const first = raw[0];
  if (first === '"' || first === "'") {
    const close = raw.indexOf(first, 1);
    if (close === -1) return undefined;
    const content = raw.slice(1, close);
    // Escapes, and '' inside single quotes, have rules of their own.
    if (first === '"' && content.includes('\\')) return undefined;
    const rest = raw.slice(close + 1);
    if (rest !== '' && !/^[ ]+(?:#.*)?$/.test(rest)) return undefined;
    return content;
  }
  // A comment starts at " #"; what is before it, trimmed, is the value.
  const hash = raw.search(/[ ]#/);
  const text = trimSpaces(hash === -1 ? raw : raw.slice(0, hash));
  if (text === '' || text.startsWith('#')) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (INT.test(text)) return Number(text);
  if (!PLAIN_START.test(text)) return undefined;
  // ": " would start a nested mapping, and a trailing ":" is a key; the null and boolean spellings are not strings.
  if (text.includes(': ') || text.endsWith(':') || SPECIAL_KEYS.has(text)) return undefined;
  return text;
}

/** The mapping `text` denotes, or `undefined` when it is outside the subset (the caller then uses `yaml`). */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let nested: Record<string, unknown> | undefined;
  let nestedIndent = 0;
  let sawKey = false;
  const lines = text.split('\n');
  for (let line of lines) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (AWKWARD.test(line)) return undefined;
    const body = line.replace(/^ +/, '');
    if (body === '' || body.startsWith('#')) continue;
    const indent = line.length - body.length;
    const match = KEY.exec(body);
    if (match === null) return undefined;
    const key = match[1]!;
    const raw = match[2] ?? '';
    if (SPECIAL_KEYS.has(key)) return undefined;
    if (indent === 0) {
      nested = undefined;
      if (Object.hasOwn(out, key)) return undefined;
      sawKey = true;
      if (isEmptyValue(raw)) {
        // "key:" opens a nested mapping if indented lines follow; otherwise it is null.
        const opened: Record<string, unknown> = {};
        out[key] = opened;
        nested = opened;
        nestedIndent = 0;
        continue;
      }
      const value = scalar(raw);
      if (value === undefined) return undefined;
      out[key] = value;
    } else {
      if (nested === undefined) return undefined;
      if (nestedIndent === 0) nestedIndent = indent;
      else if (indent !== nestedIndent) return undefined;
      if (Object.hasOwn(nested, key)) return undefined;
      if (isEmptyValue(raw)) return undefined;
      const value = scalar(raw);
      if (value === undefined) return undefined;
      nested[key] = value;
    }
  }
  if (!sawKey) return undefined;
  // A "key:" with no indented lines after it is null, as in YAML.
  for (const [key, value] of Object.entries(out)) {
    if (value !== null && typeof value === 'object' && Object.keys(value).length === 0) out[key] = null;
  }
  return out;
}
