/**
 * HOOK.md discovery: 1,000 hook folders (frontmatter, a 4 KiB body, an executable scripts/run) found and validated by
 * `discoverManifests`, against a bare `readdir` + `stat` of the same HOOK.md files measured in the same run; and the
 * bytes discovery reads against the bytes on disk (progressive disclosure: bodies are not read).
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverManifests } from '../src/script/index.js';
import { measure, type Row } from './harness.js';

const FOLDERS = 1000;

async function makeHooks(root: string): Promise<number> {
  const hooks = join(root, '.agents', 'hooks');
  let total = 0;
  const body = `\n# Hook\n\n${'This hook guards the shell against destructive commands. '.repeat(80).slice(0, 4096)}\n`;
  for (let i = 0; i < FOLDERS; i++) {
    const name = `hook-${String(i).padStart(4, '0')}`;
    const dir = join(hooks, name);
    await mkdir(join(dir, 'scripts'), { recursive: true });
    const hookMd =
      `---\nname: ${name}\ndescription: Blocks dangerous shell commands (${i}).\ntrigger: ${i % 2 ? 'pre-tool-call' : 'before_tool'}\n` +
      `matcher:\n  tool: Shell|Bash\n  pattern: "rm -rf /|mkfs"\ntimeout: 5000\npriority: ${i % 1000}\n---\n${body}`;
    await writeFile(join(dir, 'HOOK.md'), hookMd);
    await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\nexit 0\n');
    await chmod(join(dir, 'scripts', 'run'), 0o755);
    total += Buffer.byteLength(hookMd);
  }
  return total;
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

export async function discoveryBench(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-bench-'));
  try {
    const fileBytes = await makeHooks(root);
    const hooks = join(root, '.agents', 'hooks');
    const options = { projectDir: root, userDir: false as const };
    const check = await discoverManifests(options);
    if (check.manifests.length !== FOLDERS || check.problems.length > 0) {
      throw new Error(`discovery bench: expected ${FOLDERS} clean hooks, got ${check.manifests.length} and ${check.problems.length} problems`);
    }

    const suite = `Discovery, ${FOLDERS.toLocaleString('en')} HOOK.md folders`;
    const base = 'readdir + stat';
    const cases = [
      { name: base, op: () => readdirStat(hooks), async: true },
      { name: 'readdir + readFile (whole files)', op: () => readdirReadFile(hooks), async: true },
      { name: 'discoverManifests', op: () => discoverManifests(options), async: true },
      { name: 'discoverManifests (checkEntries: false)', op: () => discoverManifests({ ...options, checkEntries: false }), async: true },
    ];
    const m = await measure(cases, 1, 2000);
    const baseline = m.get(base)!;
    const rows: Row[] = cases.map((c) => {
      const r = m.get(c.name)!;
      return {
        suite,
        name: c.name,
        nsPerOp: r.ns,
        rme: r.rme,
        ...(c.name === base ? {} : { baseline: base, ratio: r.ns / baseline.ns }),
        ...(c.name === 'discoverManifests' ? { target: '< 100 ms' } : {}),
      };
    });
    const read = check.stats.bytesRead;
    console.log(
      `${suite}: discovery read ${read.toLocaleString('en')} of ${fileBytes.toLocaleString('en')} HOOK.md bytes ` +
        `(${((100 * read) / fileBytes).toFixed(1)}%, ${(read / FOLDERS).toFixed(0)} B per hook); one discovery took ${check.stats.durationMs.toFixed(1)} ms.`,
    );
    return rows;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
