/**
 * The command line after the bridge's first stage: a bridged call the first stage handed over goes to the bridge
 * command's call (`bridge-entry.ts`, built as the one file `bridge.cjs`); everything else, and a bridged call's usage
 * error, to `main` with the command line's table, colours and prompts. Both executables end here: `dist/cli.cjs`
 * (`bin.ts`, through `bin-stage.ts`) and `dist/cli.js` (`index.ts`).
 *
 * @module
 * @internal
 */
import { createRequire } from 'node:module';
import type { RecordedRun } from '../process/recorded-run.js';

/**
 * Runs the command line `argv` (without `node` and the script); `input` is standard input when the first stage read it
 * already (nothing may read it again), and `recorded` the run of the call's one hook, when the first stage made it.
 * Resolves with the exit code.
 *
 * @internal
 */
export async function runCommandLine(argv: readonly string[], input: string | undefined, recorded?: RecordedRun): Promise<number> {
  if (argv[0] === 'bridge' && input !== undefined) {
    // A usage error, which the bridge raises before it does anything, is left to `main` (`undefined`), which words it.
    const handled = await (await bridgeEntry()).runBridgedCall(argv.slice(1), input, recorded);
    if (handled !== undefined) return handled;
  }
  return runMain(argv, input);
}

/**
 * Runs the command line `argv` with its table, colours and prompts, for a caller that has tried the bridged call
 * already (a usage error, which `main` words) or has none to try; `input` as for {@link runCommandLine}.
 *
 * @internal
 */
export async function runMain(argv: readonly string[], input: string | undefined): Promise<number> {
  const [{ colorEnabled, cliIO }, { main }] = await Promise.all([import('./io.js'), import('./main.js')]);
  const io = cliIO({ color: colorEnabled(process.env, process.stdout.isTTY === true), ...(input === undefined ? {} : { readStdin: () => Promise.resolve(input) }) });
  return main([...argv], io);
}

/**
 * The bridge's entry: the built `bridge.cjs` beside this file, or, where there is none (the sources run as they are),
 * the module it is built from.
 */
async function bridgeEntry(): Promise<typeof import('./bridge-entry.js')> {
  const require = createRequire(import.meta.url);
  let file: string;
  try {
    file = require.resolve('./bridge.cjs');
  } catch {
    return import('./bridge-entry.js');
  }
  return require(file) as typeof import('./bridge-entry.js');
}
