// The rest of the `agent-hooks` executable, `dist/cli-stage.cjs`, which `dist/cli.cjs` (bin.ts) compiles from a code
// cache of V8 that a bridged call leaves (see code-cache.ts). It holds the bridge's first stage, which answers alone
// when no hook can run on the call; what the first stage loads only when it learns something new comes from
// `dist/cli-lazy.cjs` (bin-lazy.ts). A call it hands over runs from `dist/bridge.cjs`; every other command from the ES
// modules of `dist/cli-main.js` (run-main.ts). Compiled by node:vm, this file has no `import()` of its own: ES modules
// are imported through the executable's (`StageHost.importModule`).
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';
import { endWith } from './exit-code.js';
import type { ModuleImporter } from './module-import.js';
import { bridgeFirstStage } from '../bridge/first-stage.js';
import { readStdin } from './read-stdin.js';

/**
 * What the executable lends this file.
 *
 * @internal
 */
export interface StageHost {
  /** `import()` of the executable itself, a module Node loaded. */
  readonly importModule: ModuleImporter;
  /** Writes this file's code cache when there was none to use; called once a bridged call has answered. */
  readonly saveStage: () => void;
}

/**
 * Runs the command line of the process (`process.argv`), and ends the process with its exit code.
 *
 * @internal
 */
export function start(host: StageHost): void {
  // Before anything else is loaded, so every module Node loads after this one is compiled from the cache (Node ≥ 22.1).
  enableCompileCache();
  endWith(run(process.argv.slice(2), host));
}

async function run(argv: readonly string[], host: StageHost): Promise<number> {
  let input: string | undefined;
  if (argv[0] === 'bridge') {
    const early = await bridgeFirstStage(argv.slice(1), { env: process.env, cwd: process.cwd(), readStdin });
    if (early.answered) {
      // Once the call has answered: the cache then holds the functions the first stage ran. Only a bridged call
      // writes it, so that the first command a user types (`trust`, say) does not leave one without them.
      host.saveStage();
      return early.exitCode;
    }
    input = early.input;
    if (input !== undefined) {
      const bridge = requireWithCodeCache<typeof import('./bridge-entry.js')>(fileURLToPath(new URL('./bridge.cjs', import.meta.url)));
      // Compiled by node:vm, the file has no import() of its own either: a config module is imported by the executable.
      bridge.exports.useModuleImporter(host.importModule);
      const handled = await bridge.exports.runBridgedCall(argv.slice(1), input);
      if (handled !== undefined) {
        bridge.save();
        host.saveStage();
        return handled;
      }
      // A usage error: the command line words it, from the payload already read.
    }
  }
  // The bridged call, when there was one to make, was made above.
  const main = (await host.importModule(new URL('./cli-main.js', import.meta.url).href)) as typeof import('./run-main.js');
  return main.runMain(argv, input);
}
