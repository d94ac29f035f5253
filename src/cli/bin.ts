#!/usr/bin/env node
// The `agent-hooks` executable, `dist/cli.cjs`: a small CommonJS file. An agent starts `bridge` once per hook call, and
// a call that starts Node's ES module loader, or reads standard input through `process.stdin`, pays some 10 ms for
// each before it does anything (`npm run bench -- bridge`): the executable needs neither. This file runs the rest of
// the executable, `dist/cli-stage.cjs` (bin-stage.ts: the bridge's first stage, and what starts every other command),
// compiled from a code cache of V8 that a bridged call leaves, which holds the functions that call ran (see
// code-cache.ts): Node would otherwise compile that file, and each function of it a call runs, on every call.
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from './code-cache.js';

const stage = requireWithCodeCache<typeof import('./bin-stage.js')>(fileURLToPath(new URL('./cli-stage.cjs', import.meta.url)));
stage.exports.start({ importModule: (specifier) => import(specifier), saveStage: () => void stage.save() });
