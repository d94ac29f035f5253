/**
 * What every checkpointer must do, run against each store by its own test file (`*.test.ts` beside this one), on
 * real snapshots of a real interrupted run: round trips, odd ids, big snapshots, and — where the store has them —
 * other processes racing to resume one run, a restart of the server between the interruption and the resume, and a
 * connection dropped under a `take`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointerError, type Checkpointer, type RunSnapshot } from '../../../src/index.js';
import { buildAgent } from '../interrupt-support.js';
import { DEPLOY_SCENARIO, toolsRun } from './scenario.js';
import { openStore, type OpenedStore, type StoreConfig } from './stores.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const childScript = join(import.meta.dirname, 'store-process.ts');

/** A store under test, and what it can do beyond the five methods. */
export interface ConformanceTarget {
  /** The checkpointer's class name, as its errors name it. */
  readonly name: string;
  /** The config of a new, empty store for one test (its own table, key prefix, file or folder). */
  fresh(): Promise<StoreConfig>;
  /** Whether another process reaches the store (every store but the memory one). */
  readonly shared: boolean;
  /** Whether ids are held by a database (UTF-8 text, no NUL, at most 1,024 bytes). */
  readonly databaseIds: boolean;
  /** Stops the store's server and starts it again, keeping its data. */
  restart?(): Promise<void>;
  /** Opens the store at `config`, drops its connection under a `take(id)`, and resolves with what the take threw. */
  dropDuringTake?(config: StoreConfig, id: string): Promise<unknown>;
}

/** Ids with what a path, a glob, SQL, a URL or a terminal might read as their own. */
export const ODD_IDS = [
  'a/b',
  '../escape',
  '.',
  '.hidden',
  'with space',
  'ünïcødé ✓ 🐱',
  'star*',
  'q?[a-z]<>|:"',
  "'; DROP TABLE agent_hooks_runs; --",
  'back\\slash',
  '%41',
  '$1',
  'line\nbreak',
  'Run',
  'run',
  'x'.repeat(200),
];

/** What one child process saw: its run's status, or the error it ended with, and the deploys that ran in it. */
interface ChildResult {
  readonly status?: string;
  readonly text?: string;
  readonly error?: { readonly name: string; readonly code?: string; readonly message: string };
  readonly toolsRun: string[];
  readonly pid: number;
}

/** A child process of store-process.ts; with `wait`, it waits for `go()` once it has opened the store. */
function child(config: StoreConfig, args: string[], wait = false) {
  const proc = spawn(process.execPath, ['--import', 'tsx', childScript, JSON.stringify(config), ...args, ...(wait ? ['--wait'] : [])], {
    cwd: repo,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  proc.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) onReady();
  });
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<ChildResult>((resolve, reject) => {
    proc.once('exit', (code) => {
      const line = stdout.replace(/^ready\n/, '').trim();
      if (code !== 0 || line === '') reject(new Error(`child process failed (${code}): ${stderr}`));
      else resolve(JSON.parse(line) as ChildResult);
    });
  });
  return { ready, go: () => proc.stdin.write('go\n'), result };
}

/** Registers the conformance tests of `target`. */
export function conformance(target: ConformanceTarget): void {
  describe(`${target.name}: the Checkpointer contract`, () => {
    let config: StoreConfig;
    let store: OpenedStore;
    let checkpointer: Checkpointer;
    beforeEach(async () => {
      config = await target.fresh();
      store = await openStore(config);
      checkpointer = store.checkpointer;
    });
    afterEach(() => store.close());

    /** A real snapshot: the deploy scenario run to its interruption, saved in the store under `id`. */
    const interrupt = async (id: string): Promise<RunSnapshot> => {
      const result = await buildAgent(DEPLOY_SCENARIO, { kind: 'interrupt', checkpointer }).run('Ship it', { checkpointId: id });
      expect(result.status).toBe('interrupted');
      return JSON.parse(JSON.stringify(result.interruption!.snapshot)) as RunSnapshot;
    };
    const approveAll = (snapshot: RunSnapshot) => Object.fromEntries(snapshot.pending.map((p) => [p.id, { approved: true }]));

    it('keeps the snapshot of an interrupted run, gives it back as saved, and resumes it by id once', async () => {
      const snapshot = await interrupt('release-42');
      expect(await checkpointer.list()).toEqual(['release-42']);
      expect(await checkpointer.load('release-42')).toEqual(snapshot);

      const trace: string[] = [];
      const resumed = await buildAgent(DEPLOY_SCENARIO, { kind: 'interrupt', checkpointer }, trace).resume('release-42', approveAll(snapshot));
      expect(resumed.status).toBe('completed');
      expect(toolsRun(trace)).toEqual(['result "deployed to production"']);
      expect(await checkpointer.list()).toEqual([]);
      const again = await buildAgent(DEPLOY_SCENARIO, { kind: 'interrupt', checkpointer }).resume('release-42', approveAll(snapshot)).catch((e: unknown) => e);
      expect(again).toMatchObject({ name: 'ResumeError', code: 'not-found' });
    });

    it('saves over, takes once, deletes, and finds nothing under an unknown id', async () => {
      const snapshot = await interrupt('run-1');
      const later = { ...snapshot, interruptId: 'later' };
      await checkpointer.save(later);
      expect((await checkpointer.load('run-1'))?.interruptId).toBe('later');
      expect(await checkpointer.list()).toEqual(['run-1']);

      expect(await checkpointer.load('nope')).toBeUndefined();
      expect(await checkpointer.take('nope')).toBeUndefined();
      expect(await checkpointer.delete('nope')).toBe(false);

      expect(await checkpointer.take('run-1')).toEqual(later);
      expect(await checkpointer.take('run-1')).toBeUndefined();
      expect(await checkpointer.load('run-1')).toBeUndefined();

      await checkpointer.save({ ...snapshot, id: 'run-2' });
      expect(await checkpointer.delete('run-2')).toBe(true);
      expect(await checkpointer.delete('run-2')).toBe(false);
      expect(await checkpointer.list()).toEqual([]);
    });

    it('keeps ids with odd characters apart, and lists them back exactly', async () => {
      const snapshot = await interrupt('plain');
      for (const id of ODD_IDS) await checkpointer.save({ ...snapshot, id });
      expect([...(await checkpointer.list())].sort()).toEqual([...ODD_IDS, 'plain'].sort());
      for (const id of ODD_IDS) expect((await checkpointer.load(id))?.id).toBe(id);
      for (const id of ODD_IDS) expect((await checkpointer.take(id))?.id).toBe(id);
      expect(await checkpointer.list()).toEqual(['plain']);
    });

    it('keeps a big snapshot whole (5 MB of metadata)', async () => {
      const snapshot = await interrupt('big');
      const blob = 'x'.repeat(5_000_000) + 'ünïcødé';
      const big = { ...snapshot, run: { ...snapshot.run, metadata: { ...snapshot.run.metadata, blob } } };
      await checkpointer.save(big);
      expect((await checkpointer.load('big'))?.run.metadata['blob']).toBe(blob);
      expect(await checkpointer.take('big')).toEqual(big);
    });

    it('refuses to save what is not a snapshot, or not JSON, naming it; nothing is stored', async () => {
      const snapshot = await interrupt('run-1');
      await expect(checkpointer.save(null as unknown as RunSnapshot)).rejects.toThrow(TypeError);
      await expect(checkpointer.save({ ...snapshot, id: '' })).rejects.toThrow(/'id'.*empty string/);
      await expect(checkpointer.save({ ...snapshot, id: 'other', format: 'x' } as unknown as RunSnapshot)).rejects.toThrow(/'format'/);
      const odd = { ...snapshot, id: 'odd', run: { ...snapshot.run, metadata: { big: 1n } } } as unknown as RunSnapshot;
      await expect(checkpointer.save(odd)).rejects.toThrow(/snapshot 'odd'.*not plain JSON/);
      expect(await checkpointer.list()).toEqual(['run-1']);
    });

    it('of 20 concurrent takes of one snapshot, exactly one gets it', async () => {
      const snapshot = await interrupt('run-1');
      const taken = await Promise.all(Array.from({ length: 20 }, () => checkpointer.take('run-1')));
      expect(taken.filter((s) => s !== undefined)).toEqual([snapshot]);
    });

    if (target.databaseIds) {
      it('refuses at save an id a database cannot hold exactly, naming it, and finds nothing under it', async () => {
        const snapshot = await interrupt('run-1');
        for (const [id, why] of [
          ['nul\u0000byte', /NUL/],
          ['lone \uD800 surrogate', /unpaired surrogate/],
          ['é'.repeat(513), /1026 bytes long in UTF-8, and at most 1024/],
        ] as const) {
          await expect(checkpointer.save({ ...snapshot, id })).rejects.toThrow(why);
          expect(await checkpointer.load(id)).toBeUndefined();
          expect(await checkpointer.take(id)).toBeUndefined();
          expect(await checkpointer.delete(id)).toBe(false);
        }
        await checkpointer.save({ ...snapshot, id: 'é'.repeat(512) });
        expect((await checkpointer.load('é'.repeat(512)))?.id).toBe('é'.repeat(512));
      });
    }

    if (target.shared) {
      it('of two processes resuming one run by id at once, exactly one runs the tool; the other is told it was resumed', async () => {
        await interrupt('race');
        const racers = [child(config, ['resume', 'race'], true), child(config, ['resume', 'race'], true)];
        await Promise.all(racers.map((r) => r.ready));
        for (const r of racers) r.go();
        const results = await Promise.all(racers.map((r) => r.result));
        expect(new Set(results.map((r) => r.pid)).size).toBe(2);
        expect(results.flatMap((r) => r.toolsRun)).toEqual(['result "deployed to production"']);
        const winner = results.find((r) => r.status === 'completed');
        const loser = results.find((r) => r !== winner);
        expect(winner).toBeDefined();
        // It took the snapshot after the other: gone (already-resumed), gone before it looked (not-found), or, looked up
        // again by resume(), the winner's checkpoint between two steps in its place (already-resumed).
        expect(loser?.error?.name).toBe('ResumeError');
        expect(['already-resumed', 'not-found']).toContain(loser?.error?.code);
        expect(await checkpointer.list()).toEqual([]);
      }, 60_000);
    }

    if (target.restart !== undefined) {
      it('resumes in another process after the server restarted between the interruption and the resume', async () => {
        const interrupted = await child(config, ['run', 'across-restart']).result;
        expect(interrupted).toMatchObject({ status: 'interrupted', toolsRun: [] });
        expect(await checkpointer.list()).toEqual(['across-restart']);

        await target.restart!();

        // This test's own connection came back with the server, too.
        expect(await checkpointer.list()).toEqual(['across-restart']);
        const resumed = await child(config, ['resume', 'across-restart']).result;
        expect(resumed).toMatchObject({ status: 'completed', toolsRun: ['result "deployed to production"'] });
        expect(resumed.pid).not.toBe(interrupted.pid);
        expect(await checkpointer.list()).toEqual([]);
      }, 60_000);
    }

    if (target.dropDuringTake !== undefined) {
      it('a connection dropped under a take is a CheckpointerError naming the store, the take and the id; the snapshot stays', async () => {
        const snapshot = await interrupt('dropped');
        const error = await target.dropDuringTake!(config, 'dropped');
        expect(error).toBeInstanceOf(CheckpointerError);
        expect(error).toMatchObject({ operation: 'take', id: 'dropped' });
        expect((error as CheckpointerError).store).toContain(target.name);
        expect((error as Error).message).toMatch(new RegExp(`^${target.name} \\(.*\\) could not take snapshot "dropped": .+\\. The snapshot was not taken, unless`));
        expect((error as Error).cause).toBeDefined();
        // Not lost: still in the store, and it resumes.
        expect(await checkpointer.load('dropped')).toEqual(snapshot);
        const trace: string[] = [];
        const resumed = await buildAgent(DEPLOY_SCENARIO, { kind: 'interrupt', checkpointer }, trace).resume('dropped', approveAll(snapshot));
        expect(resumed.status).toBe('completed');
        expect(toolsRun(trace)).toHaveLength(1);
      }, 60_000);
    }
  });
}
