/**
 * The stack a long-running server dispatches through, loaded again whenever what it was loaded from changes.
 *
 * @module
 */
import { HookStack } from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { SILENT_LOG, type ServeLog } from './serve-log.js';

/**
 * One load of the hooks.
 *
 * @internal
 */
export interface StackLoad {
  /** The hooks to dispatch through. */
  readonly stack: HookStack;
  /** What the load warns about (untrusted hooks skipped, definitions with errors), one line each. */
  readonly problems: readonly string[];
  /**
   * What the agent's user is to be told of this load, once per session, in the answers (the hooks it skipped for
   * want of trust, and how to trust them); `undefined`: nothing.
   */
  readonly notice?: string | undefined;
}

/**
 * Where a server's hooks come from: how to load them (trust checked on every load), and a cheap signature of
 * everything a load reads — files, their sizes and times, the trust store — that changes whenever a load would.
 *
 * @internal
 */
export interface StackSource {
  /** Loads the hooks. */
  load(): Promise<StackLoad>;
  /** The signature of what {@link StackSource.load} reads; a change means the hooks must be loaded again. */
  signature(): Promise<string>;
}

/**
 * What {@link ReloadingStack} needs besides its source.
 *
 * @internal
 */
export interface ReloadingStackOptions {
  /** How often the signature is checked, in ms (default 1000; 0: never, only {@link ReloadingStack.check}). */
  readonly intervalMs?: number | undefined;
  /** Where loads and their problems are logged. */
  readonly log?: ServeLog | undefined;
}

/**
 * The hooks a server dispatches through, checked for changes every {@link ReloadingStackOptions.intervalMs} and
 * loaded again — with the trust check of a first load — when the source's signature changes. A dispatch keeps the
 * stack it started with; the next gets the new one. A load that fails leaves no stack at all: requests are refused
 * (see {@link ReloadingStack.failure}) until a load succeeds, rather than served by hooks whose files have changed
 * since they were checked.
 *
 * @internal
 */
export class ReloadingStack {
  private stack: HookStack = new HookStack();
  private error: string | undefined;
  private sig = '';
  private timer: ReturnType<typeof setInterval> | undefined;
  private checking: Promise<boolean> | undefined;
  private readonly log: ServeLog;
  /** The notice of the load each stack came from: a dispatch tells the one of the stack it runs on. */
  private readonly notices = new WeakMap<HookStack, string>();
  /** Every stack that was current at some point, for draining their async hooks on shutdown. */
  readonly served = new Set<HookStack>();
  /** How many loads there were, the first included. */
  loads = 0;

  private constructor(
    private readonly source: StackSource,
    options: ReloadingStackOptions,
  ) {
    this.log = options.log ?? SILENT_LOG;
  }

  /** Loads the hooks a first time, and starts watching for changes. */
  static async start(source: StackSource, options: ReloadingStackOptions = {}): Promise<ReloadingStack> {
    const holder = new ReloadingStack(source, options);
    holder.sig = await source.signature();
    await holder.reload('start');
    const interval = options.intervalMs ?? 1000;
    if (interval > 0) {
      holder.timer = setInterval(() => void holder.check(), interval);
      holder.timer.unref();
    }
    return holder;
  }

  /** The stack to dispatch through now. */
  get current(): HookStack {
    return this.stack;
  }

  /** What the agent's user is to be told of the load `stack` came from (see {@link StackLoad.notice}). */
  noticeOf(stack: HookStack): string | undefined {
    return this.notices.get(stack);
  }

  /** Why the last load failed, while no stack can be served; `undefined` when one can. */
  get failure(): string | undefined {
    return this.error;
  }

  /** Checks the signature once, and loads again when it changed; resolves `true` when it did. */
  check(): Promise<boolean> {
    this.checking ??= (async () => {
      try {
        const sig = await this.source.signature();
        if (sig === this.sig) return false;
        this.sig = sig;
        await this.reload('change');
        return true;
      } catch (error) {
        this.log.write('error', 'cannot check the hooks for changes', { error: messageOf(error) });
        return false;
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
  }

  /** Stops watching. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async reload(why: 'start' | 'change'): Promise<void> {
    this.loads++;
    try {
      const { stack, problems, notice } = await this.source.load();
      for (const problem of problems) this.log.write('warn', problem, { reload: why });
      if (notice !== undefined) this.notices.set(stack, notice);
      this.stack = stack;
      this.error = undefined;
      this.served.add(stack);
      this.log.write('info', why === 'start' ? 'hooks loaded' : 'hooks reloaded', { hooks: stack.count, skipped: problems.length });
    } catch (error) {
      this.error = messageOf(error);
      this.stack = new HookStack();
      this.log.write('error', 'the hooks cannot be loaded: hook requests are refused until they can', { error: this.error, reload: why });
    }
  }
}
