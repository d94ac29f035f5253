#!/usr/bin/env node
// The `agent-hooks` executable as an ES module, `dist/cli.js`: the one bridge lines written before `dist/cli.cjs`
// (bin.ts, the package's executable now) name, and what they keep running. An agent starts `bridge` once per hook
// call, so that one first goes through the bridge's first stage, which loads next to nothing and answers alone when no
// hook can run on the call; the rest is run-main.ts.
import { enableCompileCache } from './compile-cache.js';
import { endWith } from './exit-code.js';
import { readStdin } from './read-stdin.js';
import type { RecordedRun } from '../process/recorded-run.js';

const argv = process.argv.slice(2);

// Before anything else is imported, so every module after this one is compiled from the cache (Node ≥ 22.1).
enableCompileCache();

async function run(): Promise<number> {
  let input: string | undefined;
  let recorded: RecordedRun | undefined;
  if (argv[0] === 'bridge') {
    const { bridgeFirstStage } = await import('../bridge/first-stage.js');
    const early = await bridgeFirstStage(argv.slice(1), { env: process.env, cwd: process.cwd(), readStdin });
    if (early.answered) return early.exitCode;
    input = early.input;
    recorded = early.recorded;
  }
  return (await import('./run-main.js')).runCommandLine(argv, input, recorded);
}

endWith(run());
