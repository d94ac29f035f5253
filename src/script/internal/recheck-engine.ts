/**
 * The ReDoS checker's engine: recheck's pure-JavaScript analysis, shipped inside this package.
 *
 * The `recheck` package itself is not a dependency: its optional dependencies (a 23 MB Java archive and a 29 MB
 * native program per platform) are installed with it, and only its pure-JavaScript engine is ever run here. The build
 * copies that engine (`recheck/lib/browser.js`, one self-contained file with no imports), brotli-compressed (0.3 MB in
 * place of 2.9 in the installed package), and its licence to `dist/vendor/recheck/` (see tsup.config.ts).
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { lazyModule } from '../../core/internal/lazy-module.js';

const { readFileSync } = nodeFs;

// Loaded with the engine, the first time a pattern needs it: a bridged call that checks no pattern loads neither.
const vm = lazyModule<typeof import('node:vm')>('node:vm');
const zlib = lazyModule<typeof import('node:zlib')>('node:zlib');

/** What recheck says of one pattern. */
export type RecheckDiagnostics =
  | { readonly status: 'safe' }
  | {
      readonly status: 'vulnerable';
      readonly complexity: { readonly type: 'exponential' } | { readonly type: 'polynomial'; readonly degree: number };
    }
  | { readonly status: 'unknown'; readonly error?: { readonly kind?: string } };

/** The part of recheck used here. */
export interface RecheckEngine {
  /** The version of recheck the engine was taken from: a verdict holds for the engine that made it. */
  readonly version: string;
  /** Analyses `source` with `flags` in this thread, giving up after `timeout` ms of wall-clock time. */
  checkSync(source: string, flags: string, params: { readonly timeout: number }): RecheckDiagnostics;
}

/**
 * Where the engine is looked for, in order: the copy in the built package (next to the chunk this module is bundled
 * into), then recheck's own file, which is there when running from the sources with the development dependencies.
 */
const LOCATIONS = [
  { engine: './vendor/recheck/index.cjs.br', manifest: './vendor/recheck/package.json', compressed: true },
  { engine: 'recheck/lib/browser.js', manifest: 'recheck/package.json', compressed: false },
] as const;

type Location = (typeof LOCATIONS)[number];

/** The first location whose manifest can be read, with the version it names; `null` when there is none. */
let found: { readonly location: Location; readonly version: string } | null | undefined;

function locate(): typeof found {
  if (found === undefined) {
    found = null;
    // The CommonJS build shims `import.meta.url` with the chunk's own file URL.
    const load = createRequire(import.meta.url);
    for (const location of LOCATIONS) {
      try {
        const version = (load(location.manifest) as { version?: unknown }).version;
        if (typeof version === 'string') {
          found = { location, version };
          break;
        }
      } catch {
        // Not at this location: try the next.
      }
    }
  }
  return found;
}

/**
 * The version of the engine {@link loadRecheckEngine} loads, read without loading it (a verdict cache hit must not pay
 * for the engine); `undefined` when there is no engine.
 */
export function recheckEngineVersion(): string | undefined {
  return locate()?.version;
}

let loaded: RecheckEngine | null | undefined;

/**
 * The engine, loaded on first need: it is 3 MB of JavaScript that takes some 100 ms to load, which a process that only
 * ever sees simple patterns never pays. Synchronous, as the regex compile it serves. `null` when it cannot be loaded
 * (an install with files missing): every pattern that needed it is then refused as unproven, never accepted.
 *
 * The same object on every call, so that a test can watch its `checkSync`.
 */
export function loadRecheckEngine(): RecheckEngine | null {
  if (loaded === undefined) {
    loaded = null;
    const at = locate();
    try {
      const lib = at == null ? undefined : (engineModule(at.location) as Partial<Pick<RecheckEngine, 'checkSync'>> | undefined);
      const checkSync = lib?.checkSync;
      if (at != null && typeof checkSync === 'function') {
        loaded = { version: at.version, checkSync: (source, flags, params) => checkSync(source, flags, params) };
      }
    } catch {
      // A broken install: `null`, as documented.
    }
  }
  return loaded;
}

/**
 * The engine's exports: the shipped copy decompressed and run as the CommonJS module it is (in this context, with
 * its own `module`, `exports` and `require`), or recheck's own file required.
 */
function engineModule(location: Location): unknown {
  const load = createRequire(import.meta.url);
  if (!location.compressed) return load(location.engine);
  const file = load.resolve(location.engine);
  const source = zlib().brotliDecompressSync(readFileSync(file)).toString('utf8');
  const module = { exports: {} as unknown };
  const run = vm().compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file.replace(/\.br$/, '') });
  run(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}
