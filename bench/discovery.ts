/**
 * HOOK.md discovery: 1,000 hook folders (frontmatter, a 4 KiB body, an executable scripts/run) found and validated by
 * `discoverManifests`, against a bare `readdir` + `stat` of the same HOOK.md files measured in the same run; and the
 * bytes discovery reads against the bytes of the frontmatters and of the whole files (progressive disclosure: bodies
 * are not read). Bytes are counted by the kernel (`rchar` of /proc/self/io), not taken from discovery's own report.
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverManifests } from '../src/script/index.js';
import { finishRow, measure, timingRow, valueTarget, type Row } from './harness.js';

const FOLDERS = 1000;

async function makeHooks(root: string): Promise<{ fileBytes: number; frontmatterBytes: number }> {
  const hooks = join(root, '.agents', 'hooks');
  let fileBytes = 0;
  let frontmatterBytes = 0;
  const body = `\n# Hook\n\n${'This hook guards the shell against destructive commands. '.repeat(80).slice(0, 4096)}\n`;
  for (let i = 0; i < FOLDERS; i++) {
    const name = `hook-${String(i).padStart(4, '0')}`;
    const dir = join(hooks, name);
    await mkdir(join(dir, 'scripts'), { recursive: true });
    const frontmatter =
      `---\nname: ${name}\ndescription: Blocks dangerous shell commands (${i}).\ntrigger: ${i % 2 ? 'pre-tool-call' : 'before_tool'}\n` +
      `matcher:\n  tool: Shell|Bash\n  pattern: "rm -rf /|mkfs"\ntimeout: 5000\npriority: ${i % 1000}\n---\n`;
    const hookMd = `${frontmatter}${body}`;
    await writeFile(join(dir, 'HOOK.md'), hookMd);
    await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\nexit 0\n');
    await chmod(join(dir, 'scripts', 'run'), 0o755);
    fileBytes += Buffer.byteLength(hookMd);
    frontmatterBytes += Buffer.byteLength(frontmatter);
  }
  return { fileBytes, frontmatterBytes };
}

/** Bytes this process has read through read(2) and friends so far, as the kernel counts them; undefined off Linux. */
function kernelBytesRead(): number | undefined {
  try {
    const match = /^rchar:\s*(\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes `op` makes this process read, as the kernel counts them, minus what reading the counter itself costs. */
async function bytesReadBy(op: () => Promise<unknown>): Promise<number | undefined> {
  const a = kernelBytesRead();
  const b = kernelBytesRead();
  const before = kernelBytesRead();
  await op();
  const after = kernelBytesRead();
  if (a === undefined || b === undefined || before === undefined || after === undefined) return undefined;
  return after - before - (b - a);
}

/** The least any discovery must do: list the folders and look at each HOOK.md. */
async function readdirStat(hooks: string): Promise<number> {
  const names = await readdir(hooks);
  const stats = await Promise.all(names.map((name) => stat(join(hooks, name, 'HOOK.md'))));
  return stats.length;
}

/** What a loader without progressive disclosure does: read every HOOK.md whole. */
async function readdirReadFile(hooks: string): Promise<number> {
  const names = await readdir(hooks);
  const texts = await Promise.all(names.map((name) => readFile(join(hooks, name, 'HOOK.md'), 'utf8')));
  return texts.length;
}

export async function discoverySuite(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-bench-'));
  try {
    const { fileBytes, frontmatterBytes } = await makeHooks(root);
    const hooks = join(root, '.agents', 'hooks');
    const options = { projectDir: root, userDir: false as const };
    const check = await discoverManifests(options);
    if (check.manifests.length !== FOLDERS || check.problems.length > 0) {
      throw new Error(`discovery bench: expected ${FOLDERS} clean hooks, got ${check.manifests.length} and ${check.problems.length} problems`);
    }

    const suite = `Discovery, ${FOLDERS.toLocaleString('en')} HOOK.md folders`;
    const BASE = 'readdir + stat';
    const cases = [
      { name: BASE, op: () => readdirStat(hooks), async: true },
      { name: 'readdir + readFile (whole files)', op: () => readdirReadFile(hooks), async: true },
      { name: 'discoverManifests', op: () => discoverManifests(options), async: true },
      { name: 'discoverManifests (checkEntries: false)', op: () => discoverManifests({ ...options, checkEntries: false }), async: true },
    ];
    const m = await measure(cases, { batch: 1, time: 800, rounds: 2, iterations: 8 });
    const base = { name: BASE, timing: m.get(BASE)! };
    const rows: Row[] = cases.map((c) =>
      c.name === BASE
        ? timingRow(suite, BASE, base.timing)
        : timingRow(suite, c.name, m.get(c.name)!, base, c.name === 'discoverManifests' ? valueTarget(100e6, '≤ 100 ms') : undefined),
    );

    const bytes = await bytesReadBy(() => discoverManifests(options));
    const whole = await bytesReadBy(() => readdirReadFile(hooks));
    const bytesSuite = `${suite}, bytes read`;
    rows.push(finishRow({ suite: bytesSuite, name: 'frontmatters (first to closing --- line)', unit: 'B', mean: frontmatterBytes }));
    rows.push(finishRow({ suite: bytesSuite, name: 'HOOK.md files on disk', unit: 'B', mean: fileBytes }));
    if (whole !== undefined) rows.push(finishRow({ suite: bytesSuite, name: 'readdir + readFile (whole files)', unit: 'B', mean: whole, baseline: 'frontmatters', ratio: whole / frontmatterBytes }));
    if (bytes !== undefined) {
      rows.push(
        finishRow({
          suite: bytesSuite,
          name: 'discoverManifests (kernel count)',
          unit: 'B',
          mean: bytes,
          baseline: 'frontmatters',
          ratio: bytes / frontmatterBytes,
          // Reads come in blocks, so some of the body is read with the end of the frontmatter; never more than a
          // small read's worth, however long the body.
          target: valueTarget(frontmatterBytes + FOLDERS * 512, '≤ frontmatters + 512 B a hook'),
          note: `${(bytes / FOLDERS).toFixed(0)} B per hook, ${((100 * bytes) / fileBytes).toFixed(1)}% of the files`,
        }),
      );
    }
    rows.push(finishRow({ suite: bytesSuite, name: 'discoverManifests (its own stats.bytesRead)', unit: 'B', mean: check.stats.bytesRead }));
    return rows;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
