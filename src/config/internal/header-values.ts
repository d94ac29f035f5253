// Internal: not exported from the package.

/** `$VAR` or `${VAR}` in a header value: an upper-case name of letters, digits and `_`, not starting with a digit. */
const ENV_REFERENCE = /\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)/g;

/** What may never reach a header: it would end the header, or the request head, early. */
const UNSENDABLE = /[\r\n\0]/g;

/** The name `allowedEnvVars` entries must have to match a reference. */
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** Headers the request sets itself from its body; a value given for them is dropped. */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding']);

/** The variable names `value` refers to, in order, each once. */
export function envReferences(value: string): string[] {
  const names = new Set<string>();
  for (const match of value.matchAll(ENV_REFERENCE)) names.add((match[1] ?? match[2])!);
  return [...names];
}

/**
 * `value` with each `$VAR` / `${VAR}` replaced by the variable's value when `allowed` lists it (an unset one is
 * empty), and by nothing when it does not; CR, LF and NUL are removed from the result.
 */
export function interpolateHeader(value: string, allowed: ReadonlySet<string>, env: Readonly<Record<string, string | undefined>>): string {
  const filled = value.replace(ENV_REFERENCE, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return allowed.has(name) ? (env[name] ?? '') : '';
  });
  return filled.replace(UNSENDABLE, '');
}
