import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killLiveProcessGroups, liveProcessGroups } from '../../src/process/live-groups.js';
import { runProcess } from '../../src/process/run-process.js';
import { isRunning, readPid, tempDir, writeExecutable } from '../support/script-fixture.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

describe('live process groups', () => {
  it('tracks each group while it runs, forgets it once it ends, and kills every one on demand (SIGTERM ignored)', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const quick = await writeExecutable(join(dir, 'quick'), '#!/bin/sh\nexit 0\n');
    await runProcess({ command: [quick], timeoutMs: 5000 });
    expect(liveProcessGroups()).toEqual([]);

    const stubborn = await writeExecutable(join(dir, 'stubborn'), `#!/bin/sh\ntrap '' TERM\necho $$ > "${dir}/pid"\nwhile :; do sleep 1; done\n`);
    const running = runProcess({ command: [stubborn], timeoutMs: 120_000, killGraceMs: 60_000 });
    const pid = await readPid(join(dir, 'pid'));
    expect(liveProcessGroups()).toEqual([pid]);
    const started = Date.now();
    await killLiveProcessGroups(100);
    expect(await isRunning(pid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    const result = await running;
    expect(result.signal).toBe('SIGKILL');
    expect(liveProcessGroups()).toEqual([]);
  });
});
