// The least a command bridge can cost in Node, for `npm run bench -- bridge`: read the payload, read the hook's
// HOOK.md, start its script with the payload on stdin, wait for it and answer — none of agent-hooks' code, no
// matching, no trust check, no dialect. `node bridge-floor.cjs HOOK_FOLDER`.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawn } = require('node:child_process');

const folder = process.argv[2];
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const payload = Buffer.concat(chunks);
  JSON.parse(payload.toString('utf8'));
  readFileSync(join(folder, 'HOOK.md'), 'utf8');
  const script = join(folder, 'scripts', 'run');
  statSync(script);
  const child = spawn(script, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = [];
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.resume();
  child.on('close', (code) => {
    process.stdout.write(code === 0 ? '{}\n' : JSON.stringify({ decision: 'block' }));
  });
  child.stdin.end(payload);
});
