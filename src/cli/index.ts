#!/usr/bin/env node
// The `agent-hooks` executable: runs the command line and exits with its code. An agent starts `bridge` once per hook
// call, so that one first goes through the bridge's first stage, which loads next to nothing and answers alone when no
// hook can run on the call; a call it hands over goes straight to the bridge command's call (`bridge-entry.ts`, built
// as the one file `bridge.cjs`), and the rest of the command line (its table, the terminal's colours and prompts) is
// loaded only for other commands.
import { createRequire } from 'node:module';
import { enableCompileCache } from './compile-cache.js';
import type { FirstStageResult } from '../bridge/first-stage.js';

const argv = process.argv.slice(2);

// Before anything else is imported, so every module after this one is compiled from the cache (Node ≥ 22.1).
enableCompileCache();

async function run(): Promise<number> {
  let early: FirstStageResult | undefined;
  if (argv[0] === 'bridge') {
    const { bridgeFirstStage } = await import('../bridge/first-stage.js');
    early = await bridgeFirstStage(argv.slice(1), { env: process.env, cwd: process.cwd(), readStdin: readProcessStdin });
    if (early.answered) return early.exitCode;
  }
  const input = early?.answered === false ? early.input : undefined;
  if (input !== undefined) {
    // A usage error, which the bridge raises before it does anything, is left to `main` (`undefined`), which words it.
    const handled = await (await bridgeEntry()).runBridgedCall(argv.slice(1), input);
    if (handled !== undefined) return handled;
  }
  const [{ colorEnabled, cliIO }, { main }] = await Promise.all([import('./io.js'), import('./main.js')]);
  const io = cliIO({ color: colorEnabled(process.env, process.stdout.isTTY === true), ...(input === undefined ? {} : { readStdin: () => Promise.resolve(input) }) });
  return main(argv, io);
}

/** The whole of standard input, read as the bridge command reads it. */
async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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

run().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`agent-hooks: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
