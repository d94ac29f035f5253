#!/usr/bin/env node
// Runs vitest under another Node release: `npm run test:node -- 24 [vitest options and file filters]`. The release
// is installed into the cache once (install-node.mjs); vitest and its workers run on it, and its folder comes first on
// PATH, so every `node` a test starts — `#!/usr/bin/env node` scripts, npx, the built CLI — is that Node too.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode, versionOf } from './install-node.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const [wanted, ...args] = process.argv.slice(2);
let node;
try {
  node = installNode(versionOf(wanted));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\nUsage: npm run test:node -- <22|24|26|x.y.z> [vitest arguments]\n`);
  process.exit(2);
}
process.stderr.write(`Testing under ${node}\n`);
// AGENT_HOOKS_TEST_NODE lets test/process/node-under-test.test.ts check that the run is on the Node it was asked for.
const version = versionOf(wanted);
const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}`, AGENT_HOOKS_TEST_NODE: version };
const child = spawn(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
