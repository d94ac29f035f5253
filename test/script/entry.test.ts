import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveScriptEntry } from '../../src/script/index.js';
import { tempDirs, writeHook } from '../support/hook-folders.js';

const dirs = tempDirs();
afterEach(dirs.cleanup);

const hook = async (spec: Parameters<typeof writeHook>[2]) => writeHook(await dirs.make(), 'my-hook', spec);

describe.skipIf(process.platform === 'win32')('resolveScriptEntry', () => {
  it('runs an executable scripts/run directly, so its shebang picks the interpreter', async () => {
    const dir = await hook({ script: 'run' });
    const path = join(dir, 'scripts', 'run');
    expect(await resolveScriptEntry(dir)).toEqual({ ok: true, path, command: [path] });
  });

  it('reports a scripts/run without execute bits as not-executable, saying chmod +x, rather than falling through', async () => {
    const dir = await hook({ script: 'run', executable: false });
    await writeHook(join(dir, '..'), 'my-hook', { hookMd: false, script: 'run.sh' });
    const result = await resolveScriptEntry(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({ file: join(dir, 'scripts', 'run'), code: 'not-executable', severity: 'error' });
    expect(result.problem.message).toContain('chmod +x');
  });

  it('runs scripts/run.sh with sh when it is not executable, and directly when it is', async () => {
    const plain = await hook({ script: 'run.sh', executable: false });
    const sh = join(plain, 'scripts', 'run.sh');
    expect(await resolveScriptEntry(plain)).toEqual({ ok: true, path: sh, command: ['sh', sh] });
    const exec = await hook({ script: 'run.sh' });
    const direct = join(exec, 'scripts', 'run.sh');
    expect(await resolveScriptEntry(exec)).toEqual({ ok: true, path: direct, command: [direct] });
  });

  it('runs scripts/run.py with python3 when it is not executable', async () => {
    const dir = await hook({ script: 'run.py', executable: false });
    const py = join(dir, 'scripts', 'run.py');
    expect(await resolveScriptEntry(dir)).toEqual({ ok: true, path: py, command: ['python3', py] });
  });

  it('prefers run over run.sh over run.py', async () => {
    const dir = await hook({ script: 'run.py' });
    await writeHook(join(dir, '..'), 'my-hook', { hookMd: false, script: 'run.sh' });
    expect(await resolveScriptEntry(dir)).toMatchObject({ ok: true, path: join(dir, 'scripts', 'run.sh') });
    await writeHook(join(dir, '..'), 'my-hook', { hookMd: false, script: 'run' });
    expect(await resolveScriptEntry(dir)).toMatchObject({ path: join(dir, 'scripts', 'run') });
  });

  it('passes over a scripts/run that is a folder', async () => {
    const dir = await hook({ script: 'run.sh' });
    await mkdir(join(dir, 'scripts', 'run'));
    expect(await resolveScriptEntry(dir)).toMatchObject({ ok: true, path: join(dir, 'scripts', 'run.sh') });
  });

  it('reports no entry against the HOOK.md, listing the three names', async () => {
    const dir = await hook({ script: false });
    const result = await resolveScriptEntry(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({ file: join(dir, 'HOOK.md'), code: 'no-entry', severity: 'error' });
    for (const name of ['scripts/run', 'scripts/run.sh', 'scripts/run.py']) expect(result.problem.message).toContain(name);
    expect(result.problem.allowed).toBe('scripts/run, scripts/run.sh, scripts/run.py');
  });

  it('reports no entry for a folder that does not exist, without throwing', async () => {
    const result = await resolveScriptEntry(join(await dirs.make(), 'nowhere'));
    expect(!result.ok && result.problem.code).toBe('no-entry');
  });
});
