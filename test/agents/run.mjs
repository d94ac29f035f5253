#!/usr/bin/env node
// `npm run test:agents [-- vitest arguments]`: installs the pinned agent CLIs and runs the suite against them, passing
// the arguments to vitest. With `--latest`, runs latest.ts instead: the same suite against each agent's newest release
// beside its pin, and a report of what differs.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const run = (command, argv) => {
  const result = spawnSync(command, argv, { cwd: repo, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

if (args.includes('--latest')) {
  process.exit(run(process.execPath, ['--import', 'tsx', join(repo, 'test', 'agents', 'latest.ts'), ...args.filter((a) => a !== '--latest')]));
}
const installed = run(process.execPath, [join(repo, 'test', 'agents', 'install-agents.mjs')]);
if (installed !== 0) process.exit(installed);
process.exit(run(join(repo, 'node_modules', '.bin', 'vitest'), ['run', '--config', 'vitest.agents.config.ts', ...args]));
