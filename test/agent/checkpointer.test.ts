import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpointer } from '../../src/agent/checkpointer.js';
import { FileCheckpointer } from '../../src/agent/file-checkpointer.js';
import { MemoryCheckpointer } from '../../src/agent/memory-checkpointer.js';
import { RUN_SNAPSHOT_FORMAT, RUN_SNAPSHOT_VERSION, type RunSnapshot, type ToolCallJson } from '../../src/agent/run-snapshot.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILE_CHECKPOINTER = resolve(import.meta.dirname, '../../src/agent/file-checkpointer.ts');

/** A run interrupted at its first tool call, waiting for approval. */
function snapshotOf(id: string, interruptId = `interrupt-${id}`, blob?: string): RunSnapshot {
  const call: ToolCallJson = { id: 'call-1', name: 'write_file', args: { path: 'report.md', content: 'Hello' } };
  return {
    format: RUN_SNAPSHOT_FORMAT,
    version: RUN_SNAPSHOT_VERSION,
    id,
    interruptId,
    createdAt: '2025-01-02T03:04:05.000Z',
    pending: [{ id: 'approval-1', toolCall: call, reason: 'Writes a file', agentId: 'agent-1', subagentPath: [] }],
    agent: { name: 'writer', tools: [{ name: 'write_file', schema: 'sha256:0123' }], hooks: [], subagents: [] },
    run: {
      prompt: 'Write the report',
      state: {
        agentId: 'agent-1',
        stepCount: 0,
        messages: [{ role: 'user', content: 'Write the report' }],
        steps: [],
        metadata: {},
      },
      metadata: blob === undefined ? {} : { blob },
      pendingContext: [],
      systemMessages: [],
      text: '',
      stopBlocks: 0,
      childRuns: 0,
      elapsedMs: 42,
      at: {
        stepIndex: 0,
        response: { text: '', toolCalls: [call] },
        executions: [],
        callIndex: 0,
        phase: 'approval',
        call,
        reason: 'Writes a file',
      },
    },
  };
}

interface Store {
  readonly checkpointer: Checkpointer;
  readonly cleanup: () => Promise<void>;
}

const stores: { name: string; make: () => Promise<Store> }[] = [
  { name: 'MemoryCheckpointer', make: async () => ({ checkpointer: new MemoryCheckpointer(), cleanup: async () => {} }) },
  {
    name: 'FileCheckpointer',
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), 'agent-hooks-checkpoints-'));
      return { checkpointer: new FileCheckpointer(join(root, 'store')), cleanup: () => rm(root, { recursive: true, force: true }) };
    },
  },
];

describe.each(stores)('$name', ({ make }) => {
  let store: Store;
  let checkpointer: Checkpointer;
  beforeEach(async () => {
    store = await make();
    checkpointer = store.checkpointer;
  });
  afterEach(() => store.cleanup());

  it('gives back what was saved, as a copy: changing either side changes nothing stored', async () => {
    const saved = snapshotOf('run-1');
    await checkpointer.save(saved);
    const loaded = await checkpointer.load('run-1');
    expect(loaded).toEqual(snapshotOf('run-1'));
    expect(loaded).not.toBe(saved);

    (saved.run.metadata as Record<string, unknown>)['changed'] = 'after save';
    (loaded!.pending as unknown[]).length = 0;
    expect(await checkpointer.load('run-1')).toEqual(snapshotOf('run-1'));
  });

  it('gives back JSON, as a text store would: no undefined fields', async () => {
    await checkpointer.save({ ...snapshotOf('run-1'), session: undefined });
    expect(Object.keys((await checkpointer.load('run-1'))!)).not.toContain('session');
  });

  it('replaces what was saved under the same id', async () => {
    await checkpointer.save(snapshotOf('run-1', 'first'));
    await checkpointer.save(snapshotOf('run-1', 'second'));
    expect((await checkpointer.load('run-1'))?.interruptId).toBe('second');
    expect(await checkpointer.list()).toEqual(['run-1']);
  });

  it('loads, takes and deletes nothing under an unknown id, before and after a first save', async () => {
    expect(await checkpointer.load('nope')).toBeUndefined();
    expect(await checkpointer.take('nope')).toBeUndefined();
    expect(await checkpointer.delete('nope')).toBe(false);
    expect(await checkpointer.list()).toEqual([]);
    await checkpointer.save(snapshotOf('run-1'));
    expect(await checkpointer.load('nope')).toBeUndefined();
  });

  it('take returns the snapshot once and removes it', async () => {
    await checkpointer.save(snapshotOf('run-1'));
    expect(await checkpointer.take('run-1')).toEqual(snapshotOf('run-1'));
    expect(await checkpointer.take('run-1')).toBeUndefined();
    expect(await checkpointer.load('run-1')).toBeUndefined();
    expect(await checkpointer.list()).toEqual([]);
  });

  it('delete says whether there was a snapshot', async () => {
    await checkpointer.save(snapshotOf('run-1'));
    await checkpointer.save(snapshotOf('run-2'));
    expect(await checkpointer.delete('run-1')).toBe(true);
    expect(await checkpointer.delete('run-1')).toBe(false);
    expect(await checkpointer.load('run-1')).toBeUndefined();
    expect(await checkpointer.load('run-2')).toEqual(snapshotOf('run-2'));
  });

  it('lists the saved ids', async () => {
    for (const id of ['b', 'a', 'c']) await checkpointer.save(snapshotOf(id));
    expect([...(await checkpointer.list())].sort()).toEqual(['a', 'b', 'c']);
    await checkpointer.take('b');
    expect([...(await checkpointer.list())].sort()).toEqual(['a', 'c']);
  });

  it('of 20 concurrent takes of one snapshot, exactly one gets it', async () => {
    await checkpointer.save(snapshotOf('run-1'));
    const taken = await Promise.all(Array.from({ length: 20 }, () => checkpointer.take('run-1')));
    expect(taken.filter((s) => s !== undefined)).toEqual([snapshotOf('run-1')]);
  });

  it('refuses to save something with no id, naming the field', async () => {
    await expect(checkpointer.save(null as unknown as RunSnapshot)).rejects.toThrow(TypeError);
    await expect(checkpointer.save([] as unknown as RunSnapshot)).rejects.toThrow(/an array/);
    await expect(checkpointer.save({ ...snapshotOf('x'), id: '' })).rejects.toThrow(/'id'.*empty string/);
    await expect(checkpointer.save({ ...snapshotOf('x'), id: 7 } as unknown as RunSnapshot)).rejects.toThrow(/'id'.*number/);
    expect(await checkpointer.list()).toEqual([]);
  });

  it('refuses to save what is not JSON, naming the snapshot', async () => {
    const odd = { ...snapshotOf('run-1'), run: { ...snapshotOf('run-1').run, metadata: { big: 1n } } } as unknown as RunSnapshot;
    await expect(checkpointer.save(odd)).rejects.toThrow(/snapshot 'run-1'.*not plain JSON/);
    expect(await checkpointer.load('run-1')).toBeUndefined();
  });
});

describe('MemoryCheckpointer', () => {
  it('lists ids in the order they were first saved', async () => {
    const checkpointer = new MemoryCheckpointer();
    for (const id of ['b', 'a', 'c', 'b']) await checkpointer.save(snapshotOf(id));
    expect(await checkpointer.list()).toEqual(['b', 'a', 'c']);
  });
});

describe('FileCheckpointer', () => {
  let root: string;
  let directory: string;
  let checkpointer: FileCheckpointer;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'agent-hooks-checkpoints-'));
    directory = join(root, 'store');
    checkpointer = new FileCheckpointer(directory);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** Every path under `dir`, relative to it. */
  const tree = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).sort();

  it('keeps one file per snapshot, named after its id, with nothing left over', async () => {
    expect(checkpointer.directory).toBe(directory);
    await checkpointer.save(snapshotOf('run-1'));
    await checkpointer.save(snapshotOf('run-1', 'again'));
    expect(await tree(root)).toEqual(['store', join('store', 'run-1.json')]);
    expect(JSON.parse(await readFile(join(directory, 'run-1.json'), 'utf8'))).toEqual(snapshotOf('run-1', 'again'));
  });

  it('lists ids sorted', async () => {
    for (const id of ['b', 'a', 'c']) await checkpointer.save(snapshotOf(id));
    expect(await checkpointer.list()).toEqual(['a', 'b', 'c']);
  });

  it('takes any id string as one file inside the directory, and lists it back', async () => {
    const ids = [
      'a/b',
      '../escape',
      '..',
      '.',
      '.hidden',
      '/abs',
      'back\\slash',
      'with space',
      'ünïcødé ✓ 🐱',
      'star*',
      'q?<>|:"',
      'nul\u0000byte',
      'con',
      'Aux.txt',
      'Run',
      'run',
      'lone \uD800 surrogate',
      '%41',
      '%uD800',
      'x'.repeat(200),
    ];
    for (const id of ids) await checkpointer.save(snapshotOf(id));
    expect(await checkpointer.list()).toEqual([...ids].sort());
    for (const id of ids) expect(await checkpointer.load(id)).toEqual(snapshotOf(id));

    expect(await readdir(root)).toEqual(['store']);
    const names = await tree(directory);
    expect(names).toHaveLength(ids.length);
    for (const name of names) {
      expect(name).toMatch(/^[^./\\*][^/\\*]*\.json$/);
      // Reserved device names on Windows, whatever follows their first dot.
      expect(name).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)\./i);
    }
    // Where case is ignored (macOS, Windows), 'Run' and 'run' must still be two files.
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(ids.length);
  });

  it('refuses an id too long for a file name, saying how long it may be', async () => {
    const id = 'x'.repeat(217);
    await expect(checkpointer.save(snapshotOf(id))).rejects.toThrow(/217 characters long once encoded.*at most 216/);
    expect(await checkpointer.load(id)).toBeUndefined();
    expect(await checkpointer.take(id)).toBeUndefined();
    expect(await checkpointer.delete(id)).toBe(false);
  });

  it('refuses to save an object that is not a run snapshot', async () => {
    await expect(checkpointer.save({ ...snapshotOf('run-1'), format: 'other' } as unknown as RunSnapshot)).rejects.toThrow(
      /'format' is 'agent-hooks\/run-snapshot'; snapshot 'run-1' has "other"/,
    );
    expect(await checkpointer.list()).toEqual([]);
  });

  it('throws, naming the file, when a file does not hold a run snapshot', async () => {
    await mkdir(directory);
    const bad = join(directory, 'bad.json');
    await writeFile(bad, '{"format": "agent-hooks/run-snap');
    await expect(checkpointer.load('bad')).rejects.toThrow(`Checkpoint file ${bad} is not valid JSON`);

    await writeFile(bad, JSON.stringify({ ...snapshotOf('bad'), format: 'something-else' }));
    await expect(checkpointer.load('bad')).rejects.toThrow(`Checkpoint file ${bad} does not hold a run snapshot`);

    await writeFile(bad, 'null');
    await expect(checkpointer.load('bad')).rejects.toThrow(`Checkpoint file ${bad} does not hold a run snapshot`);

    await checkpointer.save(snapshotOf('good'));
    await copyFile(join(directory, 'good.json'), bad);
    await expect(checkpointer.load('bad')).rejects.toThrow(`Checkpoint file ${bad} holds snapshot "good", not 'bad'`);
  });

  it('take of a corrupt file throws, naming where the file was left, and takes it out of the store', async () => {
    await mkdir(directory);
    await writeFile(join(directory, 'bad.json'), 'not json');
    const error: unknown = await checkpointer.take('bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyntaxError);
    const left = /Checkpoint file (\S+\.taken) is not valid JSON/.exec((error as Error).message)?.[1];
    expect(left).toBeDefined();
    expect(await readFile(left!, 'utf8')).toBe('not json');
    expect(await checkpointer.list()).toEqual([]);
  });

  it('lists neither the leftovers of a crashed save or take, nor files it did not name', async () => {
    await checkpointer.save(snapshotOf('kept'));
    const stray = JSON.stringify(snapshotOf('stray'));
    for (const name of ['stray.json.123-00ff.tmp', 'stray.json.123-00ff.taken', 'notes.txt', 'README.json', '%zz.json', '.json', '%2e.json']) {
      await writeFile(join(directory, name), stray);
    }
    expect(await checkpointer.list()).toEqual(['kept']);
    expect(await checkpointer.load('stray')).toBeUndefined();
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    await mkdir(directory);
    const outside = join(root, 'outside.json');
    await writeFile(outside, 'precious');
    await symlink(outside, join(directory, 'run-1.json'));
    await checkpointer.save(snapshotOf('run-1'));
    expect(await readFile(outside, 'utf8')).toBe('precious');
    expect(await checkpointer.load('run-1')).toEqual(snapshotOf('run-1'));
  });

  it('a reader never sees a half-written file', async () => {
    const blob = 'x'.repeat(2_000_000);
    await checkpointer.save(snapshotOf('big', 'v0', blob));
    let saving = true;
    const saves = (async () => {
      for (let i = 1; i <= 10; i++) await checkpointer.save(snapshotOf('big', `v${i}`, blob));
      saving = false;
    })();
    const seen = new Set<string>();
    while (saving) {
      const loaded = await checkpointer.load('big');
      expect(loaded?.run.metadata['blob']).toBe(blob);
      seen.add(loaded!.interruptId);
    }
    await saves;
    expect(seen.size).toBeGreaterThan(0);
    expect((await checkpointer.load('big'))?.interruptId).toBe('v10');
  });

  it('of 4 processes taking the same snapshots at once, exactly one gets each', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `run-${i}`);
    for (const id of ids) await checkpointer.save(snapshotOf(id));
    // .mts: the temporary directory has no package.json saying the script is a module.
    const script = join(root, 'take.mts');
    await writeFile(
      script,
      [
        `import { FileCheckpointer } from ${JSON.stringify(pathToFileURL(FILE_CHECKPOINTER).href)};`,
        'const [directory, ...ids] = process.argv.slice(2);',
        'const checkpointer = new FileCheckpointer(directory!);',
        "process.stdout.write('ready\\n');",
        // Wait for the go, so that the processes race for real rather than one after another as they start.
        "process.stdin.once('data', async () => {",
        '  const taken = await Promise.all(ids.map((id) => checkpointer.take(id)));',
        '  process.stdout.write(JSON.stringify(taken.filter((s) => s !== undefined).map((s) => s.id)) + "\\n");',
        '  process.exit(0);',
        '});',
      ].join('\n'),
    );

    const children = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, directory, ...ids], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const ready = new Promise<void>((resolveReady, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.startsWith('ready\n')) resolveReady();
        });
        child.on('error', reject);
        child.on('close', (code) => reject(new Error(`child exited (${code}) before it was ready: ${stderr}`)));
      });
      const done = new Promise<string[]>((resolveDone, reject) => {
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolveDone(JSON.parse(stdout.slice('ready\n'.length)) as string[]) : reject(new Error(`child exited (${code}): ${stderr}`)),
        );
      });
      return { child, ready, done };
    });
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.stdin.end('go\n');
    const results = await Promise.all(children.map((c) => c.done));

    expect(results.flat().sort()).toEqual([...ids].sort());
    expect(await checkpointer.list()).toEqual([]);
    expect(await readdir(directory)).toEqual([]);
  });

  it('property: any set of ids round-trips through save, list and load, each to a file of its own', async () => {
    const unit16 = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
      fc.string({ unit: unit16, minLength: 1, maxLength: 12 }),
      fc.constantFrom('.', '..', '*', 'con', 'CON', 'Con.json', '%2E', 'run', 'Run'),
    );
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { minLength: 1, maxLength: 6 }), async (ids) => {
        const dir = join(root, `round-${round++}`);
        const files = new FileCheckpointer(dir);
        try {
          for (const each of ids) await files.save(snapshotOf(each));
          expect(await files.list()).toEqual([...ids].sort());
          for (const each of ids) expect(await files.load(each)).toEqual(snapshotOf(each));
          const names = await readdir(dir);
          expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(ids.length);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 50 },
    );
    // Nothing was ever written beside the round directories.
    expect(await readdir(root)).toEqual([]);
  });
});
