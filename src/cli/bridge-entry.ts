// A bridged hook call the bridge's first stage handed over, run by the bridge command's call. The build makes this
// module (and all it imports) one CommonJS file of its own, `dist/bridge.cjs`, which the executable requires then: an
// agent starts such a call for every bridged event of a tool call a hook may guard, and Node loads one file by
// `require` for less than the forty-odd ES modules the same code is otherwise cut into, each resolved, read, linked
// and instantiated apart (`npm run bench -- bridge`). Code the call reaches only by a lazy `import()` is in the file
// too, and runs only when imported, as before (test/cli/bridge-loads.test.ts checks what runs). The first stage itself
// stays a few small ES modules: a call no hook can run on loads none of this.
import { createRequire } from 'node:module';
import { useBlockingFiles } from '../process/file-reads.js';
import { recordedRunLeft, useRecordedRun, type RecordedRun } from '../process/recorded-run.js';
import { bridgedCall } from './commands/bridge-call.js';
import type { CliIO } from './io.js';

export { useModuleImporter } from './module-import.js';

/**
 * Runs `agent-hooks bridge ARGS` (`args` without `bridge`) on a payload the first stage read (`input`), with the
 * process's streams as they are — the answer is for the agent — and without the command line's table of commands, the
 * bridge command's help and installers, every other agent's profile, and the terminal's colours and prompts. A usage
 * error, which the bridge raises before it does anything, is left to the command line (`undefined`), which words it.
 * The process's file reads block while it loads the call's hooks (see `process/file-reads.ts`): nothing else runs
 * meanwhile. They are asynchronous again once a hook may run. `recorded` is the run of the call's one hook when the
 * first stage made it: the call takes it for the run it would start (the hook does not run twice).
 */
export async function runBridgedCall(args: readonly string[], input: string, recorded?: RecordedRun): Promise<number | undefined> {
  useBlockingFiles();
  useRecordedRun(recorded);
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
    hooksStarting: () => useBlockingFiles(false),
    flush: () => Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve())))).then(() => undefined),
  };
  try {
    return await bridgedCall(args, io);
  } finally {
    const left = recordedRunLeft();
    useRecordedRun(undefined);
    // The first stage ran the hook and the call did not come to it (its trust or its files changed in between): the
    // user hears that its answer was not read.
    if (left !== undefined) console.error(`agent-hooks bridge: ${left.command.join(' ')} ran, but the call did not come to it again; its answer was not read.`);
  }
}
