#!/usr/bin/env node
// The `agent-hooks` executable: runs the command line and exits with its code.
import { colorEnabled, cliIO } from './io.js';
import { main } from './main.js';

main(process.argv.slice(2), cliIO({ color: colorEnabled(process.env, process.stdout.isTTY === true) })).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`agent-hooks: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
