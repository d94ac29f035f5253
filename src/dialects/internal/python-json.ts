// Internal: not exported from the package.

/*
 * JSON written byte for byte as Python's `json.dumps(value)` writes it with its defaults — `", "` between items,
 * `": "` after keys, and `ensure_ascii`: every character outside printable ASCII escaped as \uXXXX (lowercase hex,
 * astral characters as a surrogate pair). The HOOK.md reference runtime sends events that way, and the hooks written
 * for it read them with `grep '"command": "'`: compact JSON would make such a guard see nothing.
 *
 * Numbers: an integral value is written as Python writes an int (all its digits, never an exponent); any other as
 * Python's float repr (shortest round-trip digits, an exponent below 1e-4 or from 1e16, with at least two exponent
 * digits). NaN and the infinities are written null, as JSON.stringify writes them (Python's NaN is not JSON).
 * Everything else (toJSON, undefined and functions left out of objects and null in arrays, BigInt refused) is
 * JSON.stringify's behaviour. The caller bounds the depth beforehand.
 */

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

// Python's ESCAPE_ASCII: a quote, a backslash, or anything outside the printable ASCII range.
const NEEDS_ESCAPE = /["\\]|[^ -~]/g;

function escapeChar(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A string literal as Python writes it with `ensure_ascii=True` (a JS string's UTF-16 units are Python's escapes). */
export function pythonJsonString(text: string): string {
  return `"${text.replace(NEEDS_ESCAPE, escapeChar)}"`;
}

/** A number as Python writes the int or float it would hold. */
export function pythonJsonNumber(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (Number.isInteger(value)) {
    // -0 is the int 0; large integral doubles are Python ints, written in full.
    if (Object.is(value, -0)) return '0';
    return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
  }
  // Same shortest digits as JavaScript; only the notation differs.
  const [mantissa, exp] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}

function write(value: unknown, key: string, out: string[]): boolean {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      out.push(pythonJsonString(value));
      return true;
    case 'number':
      out.push(pythonJsonNumber(value));
      return true;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return true;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'undefined':
    case 'function':
    case 'symbol':
      return false;
  }
  if (value === null) {
    out.push('null');
    return true;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return write(value.valueOf(), key, out);
  }
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(', ');
      if (!write(item, String(index), out)) out.push('null');
    });
    out.push(']');
    return true;
  }
  out.push('{');
  let first = true;
  for (const name of Object.keys(value as object)) {
    const mark = out.length;
    out.push(first ? '' : ', ', pythonJsonString(name), ': ');
    if (write((value as Record<string, unknown>)[name], name, out)) first = false;
    else out.length = mark;
  }
  out.push('}');
  return true;
}

/**
 * `value` as Python's `json.dumps(value)` writes it (see the module comment).
 *
 * @throws TypeError for a BigInt, as JSON.stringify does.
 */
export function pythonJsonDumps(value: unknown): string {
  const out: string[] = [];
  return write(value, '', out) ? out.join('') : 'null';
}
