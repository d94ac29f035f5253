/**
 * How the command line imports an ES module it does not bundle: a project's config module, tsx. A bridged call runs
 * `dist/bridge.cjs` compiled by `node:vm` from its code cache (see `code-cache.ts`), where `import()` has no loader of
 * Node's to go to; the executable, which Node loaded as usual, lends it its own `import()` with
 * {@link useModuleImporter}. Everywhere else the module's own `import()` is used.
 *
 * @module
 * @internal
 */

/** Imports the ES module `specifier` (a file URL, or a package's name as the package's own files would). */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

let importer: ModuleImporter = (specifier) => import(specifier);

/** Imports `specifier` with the importer in use. @internal */
export const importModule: ModuleImporter = (specifier) => importer(specifier);

/** Makes this copy of the command line import ES modules with `use`. @internal */
export function useModuleImporter(use: ModuleImporter): void {
  importer = use;
}
