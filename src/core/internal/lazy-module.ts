// Internal: not exported from the package.
import { createRequire } from 'node:module';

/**
 * A package loaded on first call rather than at import: an agent starts the bridge once per hook call, and a package
 * its call never uses (the YAML parser for a frontmatter the fast path reads, micromatch for a glob nobody wrote)
 * must not cost it the load. Synchronous, as the code it serves; the CommonJS build shims the URL.
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(import.meta.url)(id) as T);
}
