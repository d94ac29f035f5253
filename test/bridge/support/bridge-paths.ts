/**
 * One path of `agent-hooks bridge` alone, for the tests that compare the two: `first-stage ARGS…` runs the first stage
 * and exits with its answer, or 99 where it hands the call over; `full ARGS…` runs the command line without the first
 * stage, as `src/cli/index.ts` runs a call the first stage handed over unread. Test-only: nothing in the shipped CLI
 * lets its environment choose a path.
 */
import { bridgeFirstStage } from '../../../src/bridge/first-stage.js';
import { cliIO, colorEnabled } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';

/** What the test reads as "the first stage handed the call over". */
export const HANDED_OVER = 99;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function run(mode: string | undefined, argv: string[]): Promise<number> {
  if (mode === 'first-stage') {
    if (argv[0] !== 'bridge') throw new Error('first-stage runs a bridge command line: first-stage bridge --from AGENT …');
    const early = await bridgeFirstStage(argv.slice(1), { env: process.env, cwd: process.cwd(), readStdin });
    return early.answered ? early.exitCode : HANDED_OVER;
  }
  if (mode === 'full') return main(argv, cliIO({ color: colorEnabled(process.env, process.stdout.isTTY === true) }));
  throw new Error(`the mode must be first-stage or full, not ${JSON.stringify(mode)}`);
}

const [mode, ...argv] = process.argv.slice(2);
run(mode, argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`bridge-paths: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
