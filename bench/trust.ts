/**
 * Trust: what checking 100 project HOOK.md hooks against the trust store adds to their discovery — a fingerprint of
 * each hook (reading and hashing its HOOK.md and scripts) and one read of the store — against the same discovery with
 * `trust: 'all'`, measured in the same run; and a cold read of a store of 100 entries on its own.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverHooks, hookMdFingerprint, TrustStore } from '../src/script/index.js';
import { measure, timingRow, type Row } from './harness.js';

const HOOKS = 100;

async function makeHooks(projectDir: string): Promise<void> {
  const body = `\n# Hook\n\n${'This hook guards the shell against destructive commands. '.repeat(40)}\n`;
  for (let i = 0; i < HOOKS; i++) {
    const name = `hook-${String(i).padStart(3, '0')}`;
    const dir = join(projectDir, '.agents', 'hooks', name);
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: Blocks dangerous commands (${i}).\ntrigger: pre-tool-call\n---\n${body}`);
    await writeFile(join(dir, 'scripts', 'run'), `#!/bin/sh\n# hook ${i}\ninput=$(cat)\ncase "$input" in *"rm -rf /"*) exit 2 ;; esac\nexit 0\n`);
    await chmod(join(dir, 'scripts', 'run'), 0o755);
  }
}

export async function trustSuite(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-bench-trust-'));
  try {
    const projectDir = join(root, 'project');
    await makeHooks(projectDir);
    const storePath = join(root, 'config', 'agent-hooks', 'trust.json');
    const options = { projectDir, userDir: false as const };
    const first = await discoverHooks({ ...options, trust: new TrustStore(storePath) });
    await new TrustStore(storePath).trust(first.trustChecks.map((c) => c.fingerprint));
    // A new store object each time, as a new process (the bridge, the command line) has: nothing is cached.
    const check = await discoverHooks({ ...options, trust: new TrustStore(storePath) });
    if (check.hooks.length !== HOOKS || check.problems.length > 0) {
      throw new Error(`trust bench: expected ${HOOKS} trusted hooks, got ${check.hooks.length} and ${check.problems.length} problems`);
    }
    const manifests = check.manifests;

    const suite = `Trust, ${HOOKS} project HOOK.md hooks`;
    const BASE = "discoverHooks, trust: 'all'";
    const STORE = 'discoverHooks, checked against the store';
    const cases = [
      { name: BASE, op: () => discoverHooks({ ...options, trust: 'all' }), async: true },
      { name: STORE, op: () => discoverHooks({ ...options, trust: new TrustStore(storePath) }), async: true },
      { name: `hookMdFingerprint × ${HOOKS}`, op: () => Promise.all(manifests.map((m) => hookMdFingerprint(m))), async: true },
      { name: `TrustStore.load(), ${HOOKS} entries, cold`, op: () => new TrustStore(storePath).load(), async: true },
    ];
    const m = await measure(cases, { batch: 1, time: 800, rounds: 2, iterations: 8 });
    const base = { name: BASE, timing: m.get(BASE)! };
    const extra = m.get(STORE)!.median - base.timing.median;
    return cases.map((c) =>
      c.name === BASE
        ? timingRow(suite, BASE, base.timing)
        : timingRow(suite, c.name, m.get(c.name)!, c.name === STORE ? base : undefined, undefined, c.name === STORE ? `${(extra / HOOKS / 1000).toFixed(1)} µs a hook over trust: 'all'` : undefined),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
