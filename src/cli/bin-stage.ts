// The `agent-hooks` executable's body, `dist/cli-stage.cjs`, which `dist/cli.cjs` (bin.ts) compiles from its code
// cache. An agent starts `bridge` once per hook call, and a call that starts Node's ES module loader, or reads standard
// input through `process.stdin`, pays some 10 ms for each before it does anything (`npm run bench -- bridge`): this
// file needs neither. It holds the bridge's first stage, which answers alone when no hook can run on the call; what
// the first stage loads only when it learns something new comes from `dist/cli-lazy.cjs` (bin-lazy.ts). A call it
// hands over runs from `dist/bridge.cjs`; every other command from the ES modules of `dist/cli-main.js` (run-main.ts).
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';
import { endWith } from './exit-code.js';
import { bridgeFirstStage } from '../bridge/first-stage.js';
import { importModule, useModuleImporter, type ModuleImporter } from './module-import.js';
import { readStdin } from './read-stdin.js';

// Before anything else is loaded, so every module after this one is compiled from the cache (Node ≥ 22.1).
enableCompileCache();

/**
 * What `dist/cli.cjs` lends the stage it runs.
 *
 * @internal
 */
export interface StageHost {
  /** Its own `import()`, for the ES modules the stage loads: `dist/cli-main.js`, a project's config module. */
  readonly importModule: ModuleImporter;
  /** Writes the stage's code cache when it had none to use; called once a bridged call has answered. */
  readonly saveCodeCache: () => unknown;
}

const argv = process.argv.slice(2);

/** The first stage's run of a call's one hook, `dist/cli-run.cjs`, compiled from its code cache as `bridge.cjs` is. */
function loadRunner(): { runner: typeof import('../bridge/first-stage-run.js'); done(): void } {
  const file = requireWithCodeCache<typeof import('./bin-run.js')>(fileURLToPath(new URL('./cli-run.cjs', import.meta.url)));
  return { runner: file.exports.run, done: () => file.save() };
}

/** Once a bridged call has answered: the stage's cache then holds the functions the call ran (see code-cache.ts). */
function saved(host: StageHost, code: number): number {
  host.saveCodeCache();
  return code;
}

async function run(host: StageHost): Promise<number> {
  let input: string | undefined;
  if (argv[0] === 'bridge') {
    const early = await bridgeFirstStage(argv.slice(1), { env: process.env, cwd: process.cwd(), readStdin, loadRunner });
    if (early.answered) return saved(host, early.exitCode);
    input = early.input;
    if (input !== undefined) {
      const bridge = requireWithCodeCache<typeof import('./bridge-entry.js')>(fileURLToPath(new URL('./bridge.cjs', import.meta.url)));
      // Compiled by node:vm, the file has no import() of its own: a config module is imported from here.
      bridge.exports.useModuleImporter(importModule);
      const handled = await bridge.exports.runBridgedCall(argv.slice(1), input, early.recorded);
      if (handled !== undefined) {
        // Once the call has answered: the cache then holds the functions it ran.
        bridge.save();
        return saved(host, handled);
      }
      // A usage error: the command line words it, from the payload already read.
    }
  }
  // The bridged call, when there was one to make, was made above.
  const main = (await importModule(new URL('./cli-main.js', import.meta.url).href)) as typeof import('./run-main.js');
  return main.runMain(argv, input);
}

/**
 * Runs the command line of this process, with what `host` lends.
 *
 * @internal
 */
export function start(host: StageHost): void {
  useModuleImporter(host.importModule);
  endWith(run(host));
}
