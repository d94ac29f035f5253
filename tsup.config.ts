import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { defineConfig, type Options } from 'tsup';
import { hookFrontmatterJsonSchema } from './src/script/frontmatter-schema.js';

/** Writes the HOOK.md frontmatter JSON Schema beside the build, for editors (see the package's exports map). */
const frontmatterSchema: NonNullable<Options['plugins']>[number] = {
  name: 'hook-frontmatter-schema',
  buildEnd() {
    const outDir = this.options.outDir ?? 'dist';
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'hook-frontmatter.schema.json'), `${JSON.stringify(hookFrontmatterJsonSchema, null, 2)}\n`);
  },
};

/**
 * Values the sources would otherwise compute as they load, written into every build: the HOOK.md frontmatter's JSON
 * Schema (see src/script/frontmatter-schema.ts), and the build's own stamp.
 */
const builtValues: Options['define'] = {
  BUILT_HOOK_FRONTMATTER_JSON_SCHEMA: JSON.stringify(hookFrontmatterJsonSchema),
  // One value for every file of this build, new on each (src/script/internal/build-stamp.ts): the caches one file of
  // the build writes, the others read.
  BUILT_AGENT_HOOKS_BUILD: JSON.stringify(`${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`),
};

/**
 * The same for the CommonJS builds, which have no `import.meta` (tsup's shims give them `import.meta.url` alone): the
 * code that asks for `import.meta.resolve` (src/core/internal/zod-module.ts) is told there is none.
 */
const commonJsValues: Options['define'] = { ...builtValues, 'import.meta.resolve': 'undefined' };

/**
 * Ships recheck's pure-JavaScript engine (one self-contained file) in `dist/vendor/recheck/`, with its licence and
 * version, instead of depending on `recheck`: installing that package installs its optional dependencies too, a Java
 * archive and a native program of some 50 MB that are never run (see src/script/internal/recheck-engine.ts). The
 * engine is stored brotli-compressed (`index.cjs.br`): 0.3 MB in place of 2.9, read back with Node's own zlib on the
 * first pattern that needs it.
 */
const recheckEngine: NonNullable<Options['plugins']>[number] = {
  name: 'recheck-engine',
  buildEnd() {
    const outDir = join(this.options.outDir ?? 'dist', 'vendor', 'recheck');
    const manifestFile = createRequire(import.meta.url).resolve('recheck/package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { version: string; license: string; homepage: string };
    mkdirSync(outDir, { recursive: true });
    const engine = readFileSync(join(dirname(manifestFile), 'lib', 'browser.js'));
    writeFileSync(join(outDir, 'index.cjs.br'), brotliCompressSync(engine, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: engine.length } }));
    copyFileSync(join(dirname(manifestFile), 'LICENSE'), join(outDir, 'LICENSE'));
    const { version, license, homepage } = manifest;
    const about = { name: 'recheck', version, license, homepage, description: "recheck's pure-JavaScript engine (lib/browser.js)" };
    writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(about, null, 2)}\n`);
  },
};

/**
 * Source maps that map stack traces to `src/` lines without holding the sources themselves (which are not shipped):
 * with them the maps were 4.3 MB of the 7.3 MB build, without them 0.9 MB.
 */
const mapsWithoutSources: Options['esbuildOptions'] = (options) => {
  options.sourcesContent = false;
};

/**
 * What the executable's builds share: minified, names kept, and without source maps — a third copy of the code beside
 * the library's two builds, it would otherwise take the installed package past its 15 MB budget.
 */
const executable: Options = {
  define: builtValues,
  minify: true,
  sourcemap: false,
  esbuildOptions: (options) => {
    options.keepNames = true;
  },
  target: 'node20',
  outDir: 'dist',
  // Loaded only for an agent-hooks.config.ts, from the user's project, when they have it.
  external: ['tsx', 'tsx/esm/api'],
};

/**
 * For the CommonJS executable's body (src/cli/bin-stage.ts): each `import()` of its graph becomes a read of that
 * module's namespace in the file of the listing that names it (`export * as name from …`): the first stage's lessons,
 * loaded only when its index misses, in `dist/cli-lazy.cjs` (src/cli/bin-lazy.ts); the run of the one hook a call can
 * run on in `dist/cli-run.cjs` (src/cli/bin-run.ts). So a bridged call parses some 30 KB of ours instead of the 200 KB
 * that bundling them in would make. A lazily imported module no listing names fails the build.
 */
const LAZY_LISTINGS = [
  ['bin-lazy.ts', 'cli-lazy.cjs'],
  ['bin-run.ts', 'cli-run.cjs'],
] as const;
const lazyFirstStage: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'lazy-first-stage',
  setup(build) {
    const modules = new Map<string, { name: string; file: string }>();
    for (const [listingName, file] of LAZY_LISTINGS) {
      const listing = join(process.cwd(), 'src', 'cli', listingName);
      for (const [, name, from] of readFileSync(listing, 'utf8').matchAll(/^export \* as (\w+) from '([^']+)';$/gm)) {
        modules.set(join(dirname(listing), from!.replace(/\.js$/, '.ts')), { name: name!, file });
      }
    }
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const found = modules.get(join(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      if (found === undefined) return { errors: [{ text: `${args.importer} imports ${args.path} lazily: list it in src/cli/bin-lazy.ts or bin-run.ts, the files the CommonJS executable loads such modules from.` }] };
      return { path: `${found.file}#${found.name}`, namespace: 'cli-lazy' };
    });
    build.onLoad({ filter: /.*/, namespace: 'cli-lazy' }, (args) => {
      const [file, name] = args.path.split('#') as [string, string];
      return { contents: `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(file)}))[${JSON.stringify(name)}];`, loader: 'js' };
    });
  },
};

/**
 * Keeps the agent runtime in the chunk that holds the core (stack, contexts, outcomes) in the library's split builds.
 * esbuild puts a module in the chunk of the entry points that reach it, so when `agent-hooks/opencode` reached the core
 * but not the runtime, the two fell into different chunks, and an agent step with hooks on every event ran at about
 * twice the time it takes with both in one (`npm run bench -- agent-built`; which V8 optimisation the split defeats
 * was not found). The plugin's entry imports the runtime here, for the layout only: the plugin uses none of it.
 * `test/build/chunk-layout.test.ts` fails when an entry splits them again.
 */
const LAYOUT_ONLY = 'agent-hooks:runtime-layout';
const oneRuntimeChunk: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'one-runtime-chunk',
  setup(build) {
    const plugin = join(process.cwd(), 'src', 'agents', 'opencode', 'index.ts');
    const runtime = join(process.cwd(), 'src', 'agent', 'index.ts');
    build.onLoad({ filter: /[\\/]agents[\\/]opencode[\\/]index\.ts$/ }, (args) => {
      if (args.path !== plugin) return undefined;
      return { contents: `${readFileSync(plugin, 'utf8')}\nimport ${JSON.stringify(LAYOUT_ONLY)};\n`, loader: 'ts' };
    });
    // Kept, though the package says its modules have no side effects: esbuild would otherwise ignore the bare import,
    // and say so on every build.
    build.onResolve({ filter: new RegExp(`^${LAYOUT_ONLY}$`) }, () => ({ path: runtime, sideEffects: true }));
  },
};

const library = {
  index: 'src/index.ts',
  'ai-sdk': 'src/integrations/ai-sdk/index.ts',
  'openai-agents': 'src/integrations/openai-agents/index.ts',
  'claude-agent-sdk': 'src/integrations/claude-agent-sdk/index.ts',
  langchain: 'src/integrations/langchain/index.ts',
  // The checkpointers on a database: they load no client (the user gives theirs), so they share the library's chunks.
  postgres: 'src/integrations/postgres/index.ts',
  redis: 'src/integrations/redis/index.ts',
  sqlite: 'src/integrations/sqlite/index.ts',
  // The plugin OpenCode and Kilo load from a project's plugin folder: it runs the project's hooks in their process.
  opencode: 'src/agents/opencode/index.ts',
};

/**
 * The JavaScript builds; the declarations are made apart (see `declarations`). `tsup` with `dts: false` (the tests'
 * build of the command line, test/support/build.ts) makes these alone.
 */
const builds: Options[] = [
  {
    // The library (ESM), split among its own entry points only. Built with the executable, whose lazy imports cut the
    // code into some 80 chunks, an agent step with hooks on every event ran two to three times slower from
    // dist/index.js than from the same sources bundled alone (`npm run bench -- agent-built`). The integrations are
    // subpath exports (importing the package never loads their SDKs).
    entry: library,
    format: ['esm'],
    splitting: true,
    define: builtValues,
    sourcemap: true,
    esbuildOptions: mapsWithoutSources,
    target: 'node20',
    outDir: 'dist',
    plugins: [frontmatterSchema, recheckEngine],
    esbuildPlugins: [oneRuntimeChunk],
  },
  {
    // The `agent-hooks` executable, with chunks of its own: a bridged call loads a few small modules first (see
    // src/bridge/first-stage.ts). The hooks a user's agent-hooks.config.mjs builds with `agent-hooks` are of the
    // library's classes, which the executable's own copy recognises by their brands, as it does another installed
    // copy's (see src/core/internal/brand.ts).
    ...executable,
    entry: { cli: 'src/cli/index.ts', 'cli-main': 'src/cli/run-main.ts' },
    format: ['esm'],
    splitting: true,
  },
  {
    // The package's executable, `dist/cli.cjs` (src/cli/bin.ts), and the body it compiles from a code cache,
    // `dist/cli-stage.cjs` (src/cli/bin-stage.ts): CommonJS, so that a bridged call starts neither Node's ES module
    // loader nor more files of ours than these; what the stage imports lazily is in `cli-lazy.cjs` and `cli-run.cjs`.
    ...executable,
    entry: { cli: 'src/cli/bin.ts', 'cli-stage': 'src/cli/bin-stage.ts' },
    format: ['cjs'],
    define: commonJsValues,
    splitting: false,
    shims: true,
    esbuildPlugins: [lazyFirstStage],
  },
  {
    ...executable,
    entry: { 'cli-lazy': 'src/cli/bin-lazy.ts' },
    format: ['cjs'],
    define: commonJsValues,
    splitting: false,
    shims: true,
  },
  {
    // The first stage's run of a call's one hook; what it learns comes from cli-lazy.cjs, as for the first stage.
    ...executable,
    entry: { 'cli-run': 'src/cli/bin-run.ts' },
    format: ['cjs'],
    define: commonJsValues,
    splitting: false,
    shims: true,
    esbuildPlugins: [lazyFirstStage],
  },
  {
    // A bridged hook call (src/cli/bridge-entry.ts), which the executable requires for `bridge`: one CommonJS file,
    // so that Node loads one file rather than the forty-odd ES modules of the same code (`npm run bench -- bridge`).
    // What the call reaches only by a lazy `import()` is inside, and runs only when imported.
    ...executable,
    entry: { bridge: 'src/cli/bridge-entry.ts' },
    format: ['cjs'],
    define: commonJsValues,
    splitting: false,
    // `import.meta.url` (the lazy requires, the caches' build stamp) becomes this file's own URL.
    shims: true,
    // The packages every call runs are bundled in: Node resolving a package by name reads the package.json files on its
    // way, which cost a call more than the package's code (eventemitter3: 1.5 to 9 ms of 120 to 135). What only some hooks
    // need (micromatch for a glob, yaml for a manifest the light parser leaves, zod to validate one) is still required
    // from node_modules, when they need it.
    noExternal: ['p-timeout', 'eventemitter3'],
  },
  {
    // CommonJS, with shared chunks too: without them each entry would carry its own HookStack and contexts.
    entry: library,
    format: ['cjs'],
    define: commonJsValues,
    splitting: true,
    // `import.meta.url` (the lazy require of the ReDoS checker) becomes the chunk's own file URL.
    shims: true,
    // ESM-only dependencies are bundled in: Node 20.0 to 20.18 cannot require() an ES module. p-timeout holds no state
    // a copy could disagree on, so the CommonJS build carrying its own is harmless.
    noExternal: ['p-timeout'],
    esbuildPlugins: [oneRuntimeChunk],
    // No source maps: with the executable's own copy of the code, the package would pass its 15 MB budget; the ES
    // module build keeps its maps.
    sourcemap: false,
    target: 'node20',
    outDir: 'dist',
  },
  {
    // `agent-hooks/otel`: built on its own, importing the library by name, so it never holds a second copy of it;
    // `@opentelemetry/api` is an optional peer dependency the main entry point never loads.
    entry: { otel: 'src/integrations/otel/index.ts' },
    format: ['esm', 'cjs'],
    sourcemap: true,
    esbuildOptions: mapsWithoutSources,
    target: 'node20',
    outDir: 'dist',
    external: ['agent-hooks', '@opentelemetry/api'],
  },
];

/**
 * The type declarations of every entry point, `.d.ts` for `import` and `.d.cts` for `require`, in one pass: a pass
 * for each build above made the compiler load the sources and the SDKs' types three times. `agent-hooks/otel`
 * imports the library by name here too, so its declarations name the library's types rather than copy them.
 * `noCheck`: the declarations are emitted without type-checking the sources again, which `npm run typecheck` does
 * (and `npm test`, and CI); an error that prevents a declaration from being written still fails the build.
 */
const declarations: Options = {
  entry: { ...library, otel: 'src/integrations/otel/index.ts' },
  format: ['esm', 'cjs'],
  dts: { only: true, compilerOptions: { noCheck: true } },
  outDir: 'dist',
  external: ['agent-hooks', '@opentelemetry/api'],
};

export default defineConfig((flags) => (flags.dts === false ? builds : [...builds, declarations]));
