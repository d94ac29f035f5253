/**
 * What importing the built package loads, in a fresh process of the Node running the tests: a dependency that only
 * some classes need is loaded when the first of them is made, not by `import('agent-hooks')`. The ESM and CommonJS
 * builds both put CommonJS dependencies in `require.cache`, which is what is read here.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from '../support/build.js';

const DIST = join(CLI, '..');

beforeAll(ensureCliBuilt, 300_000);

/** Runs `code` as an ES module after importing dist/index.js as `lib`; its stdout parsed as JSON. */
function probe(code: string): unknown {
  const script = `import { createRequire } from 'node:module';
    const lib = await import(${JSON.stringify(join(DIST, 'index.js'))});
    const loaded = (name) => Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('/node_modules/' + name + '/'));
    ${code}`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as unknown;
}

describe("import('agent-hooks')", () => {
  it('does not load micromatch until a ProtectedPathsHook is made, which then protects as before', () => {
    const out = probe(`
      const before = loaded('micromatch');
      const hook = new lib.ProtectedPathsHook({ projectDir: '/proj' });
      console.log(JSON.stringify({ before, after: loaded('micromatch'), env: hook.protects('config/.env'), readme: hook.protects('README.md') ?? null }));`);
    expect(out).toEqual({ before: false, after: true, env: '.env', readme: null });
  });
});
