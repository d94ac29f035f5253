/**
 * No double runs, across processes: one process interrupts the run, a second resumes it — the deploy runs, then its
 * model fails — and a third goes on from the checkpoint the second kept after the deploy's step. The deploy ran once:
 * the log the tool appends to, from whichever process, has one line.
 */
import { spawnSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/script-fixture.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function child(args: string[], out: string): Promise<Record<string, unknown>> {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'resume-checkpoint-process.ts'), ...args], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`child process failed (${run.status ?? run.signal}): ${run.stderr}`);
  return JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
}

describe('a resumed run that fails after the approved call ran, in another process', () => {
  it('goes on in a third process from the step checkpoint, and the deploy ran once', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-step-checkpoint-');
    cleanups.push(cleanup);
    const first = await child(['run', dir, join(dir, 'out1.json')], join(dir, 'out1.json'));
    expect(first['status']).toBe('interrupted');
    const [id] = first['pending'] as string[];
    await writeFile(join(dir, 'approve.json'), JSON.stringify({ [id!]: true }));

    const second = await child(['resume', dir, join(dir, 'approve.json'), join(dir, 'out2.json'), 'fail'], join(dir, 'out2.json'));
    expect(second['error']).toBe('Error: the model provider answered 503');
    const log = async () => (await readFile(join(dir, 'deploys.log'), 'utf8')).trim().split('\n');
    expect(await log()).toHaveLength(1);

    await writeFile(join(dir, 'none.json'), '{}');
    const third = await child(['resume', dir, join(dir, 'none.json'), join(dir, 'out3.json')], join(dir, 'out3.json'));
    expect(third).toEqual({ status: 'completed', text: 'released', pending: [] });
    expect(await log()).toHaveLength(1);
    expect((await readdir(join(dir, 'checkpoints'))).filter((f) => f.endsWith('.json'))).toEqual([]);

    // Once more: nothing is left to resume, so nothing runs.
    const fourth = await child(['resume', dir, join(dir, 'none.json'), join(dir, 'out4.json')], join(dir, 'out4.json'));
    expect(fourth['error']).toMatch(/^ResumeError: No interrupted run is saved under 'release'/);
    expect(await log()).toHaveLength(1);
  }, 120_000);
});
