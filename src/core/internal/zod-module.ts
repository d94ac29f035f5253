// Internal: not exported from the package.
import { fileURLToPath } from 'node:url';
import type { z as Z } from 'zod';
import { lazyValue, requireHere } from './lazy-module.js';

/**
 * zod, loaded on first use rather than at import: loading it (95 modules, its locales among them) took about 55 ms on
 * Node 24, twice a bare start, and `import 'agent-hooks'` paid it before the first line of its user's code whether or
 * not anything was validated. The schemas the package makes are made on first use too (`lazyValue`).
 *
 * One process, one zod. Where the package runs as an ES module, this is the ES module that `import 'zod'` gives the
 * user (from the place the package resolves it, through `require()` of an ES module, which Node has from 20.19 and
 * 22.12): a schema the user made and one the package made are of the same classes, and the module is loaded once,
 * whichever of the two comes first. Where Node cannot `require()` an ES module, and in the CommonJS build, it is
 * zod's CommonJS build, which is what `require('zod')` gives the user there. (zod keeps its registry and settings on
 * `globalThis`, and tells its classes by their traits rather than by `instanceof` of one copy, so a schema of the other
 * build still works, at the cost of the second load.)
 */
export const zod = lazyValue((): typeof Z => {
  const require = requireHere();
  // `undefined` in the CommonJS builds (tsup.config.ts), which have no `import.meta`.
  if (typeof import.meta.resolve === 'function') {
    try {
      return (require(fileURLToPath(import.meta.resolve('zod'))) as { z: typeof Z }).z;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    }
  }
  return (require('zod') as { z: typeof Z }).z;
});

/** What zod's `safeParse` takes and gives, whichever copy of zod made the schema. */
interface SafeParsing<T> {
  safeParse(value: unknown, params?: { error?: (issue: Z.core.$ZodRawIssue) => string }): Z.ZodSafeParseResult<T>;
}

/**
 * `schema.safeParse(value)`, but never a throw where the value is odd. zod writes its messages when the error is first
 * read, and the English one for a wrong type names what was received by its constructor's `name`: for an object
 * whose `constructor.name` is an object without a prototype (a value a caller can hand us, not one YAML or JSON
 * makes), writing the message threw `Cannot convert object to primitive value` out of a validation that promises
 * problems, not throws. The messages stay zod's (a `z.config({ customError })` of the user's included); where writing
 * one throws, a plainer one takes its place.
 */
export function safeParseOf<T>(schema: SafeParsing<T>, value: unknown): Z.ZodSafeParseResult<T> {
  return schema.safeParse(value, { error: issueMessage });
}

function issueMessage(issue: Z.core.$ZodRawIssue): string {
  const { customError, localeError } = zod().config();
  try {
    const written = customError?.(issue) ?? localeError?.(issue);
    const text = typeof written === 'string' ? written : written?.message;
    if (text !== undefined) return text;
  } catch {
    // Below: the message zod could not write.
  }
  return issue.code === 'invalid_type' ? `Invalid input: expected ${String(issue.expected)}` : 'Invalid input';
}
