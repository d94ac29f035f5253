#!/usr/bin/env node
// The `agent-hooks` executable, `dist/cli.cjs`: one CommonJS file. An agent starts `bridge` once per hook call, and a
// call that starts Node's ES module loader, or reads standard input through `process.stdin`, pays some 10 ms for each
// before it does anything (`npm run bench -- bridge`): this file needs neither. It holds the bridge's first stage,
// which answers alone when no hook can run on the call; what the first stage loads only when it learns something new
// comes from `dist/cli-lazy.cjs` (bin-lazy.ts). A call it hands over runs from `dist/bridge.cjs`; every other command
// from the ES modules of `dist/cli-main.js` (run-main.ts).
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';
import { endWith } from './exit-code.js';
import { bridgeFirstStage } from '../bridge/first-stage.js';
import { readStdin } from './read-stdin.js';

// Before anything else is loaded, so every module after this one is compiled from the cache (Node ≥ 22.1).
enableCompileCache();

const argv = process.argv.slice(2);

/** The first stage's run of a call's one hook, `dist/cli-run.cjs`, compiled from its code cache as `bridge.cjs` is. */
function loadRunner(): { runner: typeof import('../bridge/first-stage-run.js'); done(): void } {
  const file = requireWithCodeCache<typeof import('./bin-run.js')>(fileURLToPath(new URL('./cli-run.cjs', import.meta.url)));
  return { runner: file.exports.run, done: () => file.save() };
}

async function run(): Promise<number> {
  let input: string | undefined;
  if (argv[0] === 'bridge') {
    const early = await bridgeFirstStage(argv.slice(1), { env: process.env, cwd: process.cwd(), readStdin, loadRunner });
    if (early.answered) return early.exitCode;
    input = early.input;
    if (input !== undefined) {
      const bridge = requireWithCodeCache<typeof import('./bridge-entry.js')>(fileURLToPath(new URL('./bridge.cjs', import.meta.url)));
      // Compiled by node:vm, the file has no import() of its own: a config module is imported from here.
      bridge.exports.useModuleImporter((specifier) => import(specifier));
      const handled = await bridge.exports.runBridgedCall(argv.slice(1), input, early.recorded);
      if (handled !== undefined) {
        // Once the call has answered: the cache then holds the functions it ran.
        bridge.save();
        return handled;
      }
      // A usage error: the command line words it, from the payload already read.
    }
  }
  // The bridged call, when there was one to make, was made above.
  const main = (await import(new URL('./cli-main.js', import.meta.url).href)) as typeof import('./run-main.js');
  return main.runMain(argv, input);
}

endWith(run());
