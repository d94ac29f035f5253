/**
 * A bound on how many hook processes run at once: scheduling only, no process or file is touched here.
 *
 * @module
 */
import { availableParallelism, cpus } from 'node:os';

/** How a {@link ProcessPool} is sized. */
export interface ProcessPoolOptions {
  /** The most processes running at once (a positive integer, or `Infinity` for no bound). */
  readonly maxConcurrent: number;
}

/** A pool, or the size of a new one: what the `processPool` options accept. */
export type ProcessPoolLike = ProcessPool | ProcessPoolOptions;

/** A snapshot of a pool's counters, for logs and metrics. */
export interface ProcessPoolStats {
  /** Its bound. */
  readonly maxConcurrent: number;
  /** Slots held now: processes running (or about to be spawned, or being reaped). */
  readonly active: number;
  /** Runs waiting for a slot now. */
  readonly queued: number;
  /** The most slots ever held at once. */
  readonly peak: number;
}

/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

interface Waiter {
  readonly grant: (release: ReleaseSlot) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/** Node 20 has `availableParallelism`; older runtimes and some sandboxes only `cpus()`. */
function parallelism(): number {
  try {
    const n = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
    return n > 0 ? n : 1;
  } catch {
    return Math.max(1, cpus().length);
  }
}

/** The default bound: four processes per CPU (hook processes mostly wait on I/O and on their own children). */
export function defaultMaxConcurrent(): number {
  return parallelism() * 4;
}

function checkedLimit(maxConcurrent: unknown): number {
  if (maxConcurrent === Infinity) return Infinity;
  if (typeof maxConcurrent !== 'number' || !Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(`processPool.maxConcurrent must be a positive integer (or Infinity), got ${String(maxConcurrent)}.`);
  }
  return maxConcurrent;
}

/**
 * A counting semaphore for hook processes, fair in arrival order. A script hook takes a slot right before it spawns
 * its process and gives it back once the process's result is in, so its timeout only counts from the spawn: time
 * spent waiting in the queue is never charged to the hook.
 *
 * - **FIFO.** Slots go to waiting runs in the order they asked, whichever hook or agent they belong to.
 * - **Cancellable.** A run whose signal aborts while it waits leaves the queue at once and never gets a slot (so its
 *   process is never spawned).
 * - **No leaks.** The slot is given back however the run ends: exit, timeout, kill, or a process that failed to spawn.
 * - **No deadlock.** A slot is held only while a process runs, and a holder waits for nothing but that process, which
 *   its timeout bounds. A hook process that waits (on a lock, on the network, on a grandchild) only delays the runs
 *   queued behind it, never blocks them for good. It could deadlock only if a hook process needed another hook
 *   process of the same pool to finish first; nothing here does that (a hook process does not call back into the
 *   agent), and a script that starts `agent-hooks` itself gets a separate process with its own pool.
 *
 * By default every script hook shares {@link ProcessPool.shared} (four processes per CPU), so a hundred concurrent
 * agent runs built from one builder together respect one bound. Give hooks a pool of their own through the
 * `processPool` option of the loaders and of `withHooksFrom` / `withOptions`:
 *
 * ```ts
 * const pool = new ProcessPool({ maxConcurrent: 4 });
 * const agent = AgentBuilder.new().withModel(model).withHooksFrom({ projectDir, processPool: pool }).build();
 * // …
 * console.log(pool.stats()); // { maxConcurrent: 4, active: 0, queued: 0, peak: 4 }
 * ```
 */
export class ProcessPool {
  private static sharedPool: ProcessPool | undefined;

  /** The bound. */
  readonly maxConcurrent: number;
  private held = 0;
  private highest = 0;
  // A Set keeps insertion order (FIFO) and drops an aborted waiter in O(1).
  private readonly waiters = new Set<Waiter>();

  /** @throws RangeError when `maxConcurrent` is not a positive integer or `Infinity`. */
  constructor(options: ProcessPoolOptions = { maxConcurrent: defaultMaxConcurrent() }) {
    this.maxConcurrent = checkedLimit(options?.maxConcurrent);
  }

  /** The pool every script hook uses unless given another: {@link defaultMaxConcurrent} processes, process-wide. */
  static get shared(): ProcessPool {
    return (ProcessPool.sharedPool ??= new ProcessPool());
  }

  /** `like` as a pool: a pool as it is, options as a new pool, `undefined` as {@link ProcessPool.shared}. */
  static from(like: ProcessPoolLike | undefined): ProcessPool {
    if (like === undefined) return ProcessPool.shared;
    if (like instanceof ProcessPool) return like;
    if (like === null || typeof like !== 'object') {
      throw new TypeError(`processPool must be a ProcessPool or { maxConcurrent: number }, got ${String(like)}.`);
    }
    return new ProcessPool(like);
  }

  /** Slots held now. */
  get active(): number {
    return this.held;
  }

  /** Runs waiting for a slot now. */
  get queued(): number {
    return this.waiters.size;
  }

  /** The most slots held at once since the pool was made (or since {@link ProcessPool.resetPeak}). */
  get peak(): number {
    return this.highest;
  }

  /** The counters, as one snapshot. */
  stats(): ProcessPoolStats {
    return { maxConcurrent: this.maxConcurrent, active: this.held, queued: this.waiters.size, peak: this.highest };
  }

  /** Starts the peak over from the slots held now. */
  resetPeak(): void {
    this.highest = this.held;
  }

  /**
   * Waits for a slot and resolves with the function that gives it back. Rejects with the signal's reason when `signal`
   * aborts first (or is already aborted): the run then holds no slot and must not start its process.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.held < this.maxConcurrent && this.waiters.size === 0) return Promise.resolve(this.take());
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        signal,
        onAbort: () => {
          if (this.waiters.delete(waiter)) reject(signal!.reason);
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
    });
  }

  /**
   * Runs `task` in a slot: waits for one, runs the task, and gives the slot back when the task settles (whether it
   * resolves, rejects or throws). Rejects with the signal's reason, without running the task, when `signal` aborts
   * while the run waits.
   */
  async run<T>(task: () => T | PromiseLike<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  private take(): ReleaseSlot {
    this.held++;
    if (this.held > this.highest) this.highest = this.held;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      this.handOn();
    };
  }

  /** Gives free slots to the longest waiting runs. */
  private handOn(): void {
    while (this.held < this.maxConcurrent) {
      const next = this.waiters.values().next();
      if (next.done) return;
      const waiter = next.value;
      this.waiters.delete(waiter);
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.grant(this.take());
    }
  }
}
