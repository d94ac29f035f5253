// Internal: not exported from the package.
import { createRequire } from 'node:module';

/**
 * A package loaded on first call rather than at import: an agent starts the bridge once per hook call, and a package
 * its call never uses (the YAML parser for a frontmatter the fast path reads, micromatch for a glob nobody wrote)
 * must not cost it the load. Synchronous, as the code it serves; the CommonJS build shims the URL.
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere()(id) as T);
}

let bundleRequire: NodeJS.Require | undefined;

/**
 * One `require` for every module of this file's bundle that loads a package or a Node module: each `createRequire`
 * makes a module object and its folder's `node_modules` search path, and a bridged call made eight of them, one per
 * lazily loaded module. They all resolve from the same folder, this file's.
 */
export function requireHere(): NodeJS.Require {
  return (bundleRequire ??= createRequire(import.meta.url));
}

/**
 * A value made on first call rather than at import, then kept: what `import 'agent-hooks'` runs before the first line
 * of its user's code is paid by every process that imports it, and a zod schema only the agent's runtime reads (a
 * snapshot's, a subagent's input) costs its construction — zod compiles its checks as it builds — whether or not the
 * process ever runs an agent.
 */
export function lazyValue<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
