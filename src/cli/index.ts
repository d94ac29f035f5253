#!/usr/bin/env node
// The `agent-hooks` executable: runs the command line and exits with its code. An agent starts `bridge` once per hook
// call, so that one first goes through the bridge's first stage, which loads next to nothing and answers alone when no
// hook can run on the call; a call it hands over goes straight to the bridge command, and the rest of the command line
// (its table, the terminal's colours and prompts) is loaded only for other commands.
import { createRequire } from 'node:module';
import { enableCompileCache } from './compile-cache.js';
import type { FirstStageResult } from '../bridge/first-stage.js';
import type { CliIO } from './io.js';

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
    const handled = await bridgeWith(input);
    if (handled !== undefined) return handled;
  }
  const [{ colorEnabled, cliIO }, { main }] = await Promise.all([import('./io.js'), import('./main.js')]);
  const io = cliIO({ color: colorEnabled(process.env, process.stdout.isTTY === true), ...(input === undefined ? {} : { readStdin: () => Promise.resolve(input) }) });
  return main(argv, io);
}

/**
 * A call the first stage handed over, with the payload it read: its options are ones the first stage checked
 * (`--from`, `--event`, `--project`), so the bridge command's call runs it as `main` would — with the streams as they
 * are, the answer being for the agent — without `main`'s table of commands, the bridge command's help and installers,
 * every other agent's profile, and the terminal's colours and prompts. A usage error, which the bridge raises before
 * it does anything, is left to `main` (`undefined`), which words it.
 */
async function bridgeWith(input: string): Promise<number | undefined> {
  const { bridgedCall } = await import('./commands/bridge-call.js');
  let colors: CliIO['style'] | undefined;
  const io: CliIO = {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    readStdin: () => Promise.resolve(input),
    cwd: process.cwd(),
    env: process.env,
    get style() {
      return (colors ??= (createRequire(import.meta.url)('picocolors') as typeof import('picocolors')).createColors(false));
    },
    interactive: false,
    flush: () => Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve())))).then(() => undefined),
  };
  return bridgedCall(argv.slice(1), io);
}

/** The whole of standard input, read as the bridge command reads it. */
async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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
