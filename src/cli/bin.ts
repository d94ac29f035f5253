#!/usr/bin/env node
// The `agent-hooks` executable, `dist/cli.cjs`: one small CommonJS file that runs the rest of it, `dist/cli-stage.cjs`
// (bin-stage.ts), compiled from a code cache of V8 as the bridged call's files are (see code-cache.ts). An agent starts
// the executable once per hook call, and the bridge's first stage, which answers most calls alone, spent a large part
// of a call compiling its functions the first time each ran: from the cache a call compiles none of them. This file
// holds only what finds and reads that cache.
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from './code-cache.js';

const stage = requireWithCodeCache<typeof import('./bin-stage.js')>(fileURLToPath(new URL('./cli-stage.cjs', import.meta.url)));
stage.exports.start({
  // Compiled by node:vm, the stage has no import() of its own (see code-cache.ts): ES modules are imported from here.
  importModule: (specifier) => import(specifier),
  saveCodeCache: () => stage.save(),
});
