/**
 * One dispatch through a stack, watched hook by hook: which hooks ran, what each returned, what its process did,
 * and every note — what `test` and `run` print.
 *
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import { HookEvent, type AnyHookContext, type HookOutcome, type Hook, type HookNote, type HookStack } from '../core/index.js';
import type { ScriptExit, ScriptHookEvents } from '../script/index.js';

/** One hook's part in the dispatch, in the order the hooks started. */
export interface HookRun {
  /** The hook. */
  readonly hook: Hook;
  /** Its name. */
  readonly name: string;
  /** Its priority. */
  readonly priority: number;
  /** What it returned: its own decision merged with those of the hooks after it (a hook that went on). */
  outcome: HookOutcome | undefined;
  /** What it threw, when it did. */
  error: unknown;
  /** Its own time in the chain, in milliseconds (the time of the hooks after it not counted). */
  durationMs: number | undefined;
  /** Its process, for a script hook (an async one's too: the dispatch waits for it). */
  exit: ScriptExit | undefined;
}

/** Everything one dispatch did. */
export interface ObservedDispatch {
  /** The context dispatched. */
  readonly ctx: AnyHookContext;
  /** The merged outcome, unless a hook threw. */
  readonly outcome: HookOutcome | undefined;
  /** What made the dispatch reject (a hook that threw), when it did. */
  readonly error: unknown;
  /** The hooks that ran, in the order they started. */
  readonly runs: readonly HookRun[];
  /** Every note the hooks reported, in order. */
  readonly notes: readonly HookNote[];
}

/** What a script hook reports its processes through; hooks of other kinds may offer the same. */
interface ExitReporter {
  readonly emitter: Pick<EventEmitter<ScriptHookEvents>, 'on' | 'off'>;
}

const reportsExits = (hook: Hook): hook is Hook & ExitReporter => {
  const emitter = (hook as Partial<ExitReporter>).emitter;
  return typeof emitter?.on === 'function' && typeof emitter.off === 'function';
};

/**
 * Dispatches `ctx` through `stack` as an agent would (notes collected, background work awaited), and records each
 * hook's run. Resolves once every process the dispatch started has ended; never rejects because of a hook.
 */
export async function observedDispatch(stack: HookStack, ctx: AnyHookContext): Promise<ObservedDispatch> {
  const runs: HookRun[] = [];
  const notes: HookNote[] = [];
  const background: Promise<unknown>[] = [];
  const pending = (name: string, missing: (run: HookRun) => boolean) => runs.find((run) => run.name === name && missing(run));

  const entries = stack.hooksFor(ctx.event);
  const reporters = entries.map((entry) => entry.hook).filter(reportsExits);
  const onExit = (exit: ScriptExit): void => {
    const run = pending(exit.hookName, (r) => r.exit === undefined);
    if (run !== undefined) run.exit = exit;
  };
  for (const hook of new Set(reporters)) hook.emitter.on('exit', onExit);

  let outcome: HookOutcome | undefined;
  let error: unknown;
  try {
    outcome = await stack.process(ctx, undefined, {
      onNote: (note) => notes.push(note),
      waitUntil: (work) => background.push(work),
      observer: {
        onHookStart: (info) => {
          const entry = entries.find((e) => e.name === info.hookName && e.priority === info.priority && !runs.some((r) => r.hook === e.hook));
          runs.push({ hook: entry!.hook, name: info.hookName, priority: info.priority, outcome: undefined, error: undefined, durationMs: undefined, exit: undefined });
        },
        onHookEnd: (info) => {
          const run = pending(info.hookName, (r) => r.outcome === undefined && r.error === undefined);
          if (run !== undefined) Object.assign(run, { outcome: info.outcome, durationMs: info.durationMs });
        },
        onHookError: (info) => {
          const run = pending(info.hookName, (r) => r.outcome === undefined && r.error === undefined);
          if (run !== undefined) Object.assign(run, { error: info.error, durationMs: info.durationMs });
        },
      },
    });
  } catch (thrown) {
    error = thrown;
  }
  await Promise.allSettled(background);
  for (const hook of new Set(reporters)) hook.emitter.off('exit', onExit);
  return { ctx, outcome, error, runs, notes };
}

/** The tool input the outcome goes on with, when a hook changed it; `undefined` when unchanged or not a tool event. */
export function modifiedInput(ctx: AnyHookContext, outcome: HookOutcome | undefined): Readonly<Record<string, unknown>> | undefined {
  if (!HookEvent.isToolEvent(ctx.event) || !('toolCall' in ctx)) return undefined;
  const after = outcome?.context;
  if (after === undefined || !('toolCall' in after) || after.toolCall.args === ctx.toolCall.args) return undefined;
  try {
    return after.toolCall.argsJson() === ctx.toolCall.argsJson() ? undefined : after.toolCall.args;
  } catch {
    // Input too deep to serialise cannot be compared; a hook that handed back other arguments changed it.
    return after.toolCall.args;
  }
}

/** Whether a note says that a hook failed (crashed, timed out, answered nonsense), rather than just informing. */
export const isFailure = (note: HookNote): boolean => note.level === 'warning';
