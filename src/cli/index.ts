#!/usr/bin/env node
// The `agent-hooks` executable: runs the command line and exits with its code.
import { main } from './main.js';

process.exitCode = main(process.argv.slice(2));
