/**
 * A hook that times runs, steps and tool calls.
 *
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import type { AnyHookContext, Hook, HookEventName, HookOutcome, MaybePromise, NextFn, RunStatus } from '../core/index.js';
import { isThenable } from '../core/internal/thenable.js';
import { checkPriority } from './internal/refuse.js';

/** How long one run took: from ExecutionStart to ExecutionEnd. */
export interface RunTiming {
  /** Always `'run'`. */
  readonly kind: 'run';
  /** The agent's id. */
  readonly agentId: string;
  /** How the run ended. */
  readonly status: RunStatus | undefined;
  /** Milliseconds. */
  readonly durationMs: number;
}

/** How long one step took: from the end of its BeforeStep hooks to the start of its AfterStep hooks. */
export interface StepTiming {
  /** Always `'step'`. */
  readonly kind: 'step';
  /** The agent's id. */
  readonly agentId: string;
  /** The step's 0-based index. */
  readonly stepIndex: number;
  /** Milliseconds. */
  readonly durationMs: number;
}

/**
 * How long one tool call took: from the end of its PreToolUse hooks to the start of its PostToolUse (or
 * PostToolUseFailure) hooks — approval, when asked for, and the tool itself.
 */
export interface ToolTiming {
  /** Always `'tool'`. */
  readonly kind: 'tool';
  /** The agent's id. */
  readonly agentId: string;
  /** The 0-based index of the step that made the call. */
  readonly stepIndex: number;
  /** The tool's name. */
  readonly toolName: string;
  /** The call's id. */
  readonly toolCallId: string;
  /** Whether the tool succeeded. */
  readonly ok: boolean;
  /** Milliseconds. */
  readonly durationMs: number;
}

/** One measurement of an {@link ExecutionTimingHook}. */
export type ExecutionTiming = RunTiming | StepTiming | ToolTiming;

/** Every measurement of one run so far, as kept in its metadata under {@link ExecutionTimingHook.metadataKey}. */
export interface ExecutionTimings {
  /** The run, once it ended. */
  readonly run?: RunTiming | undefined;
  /** Each finished step, in order. */
  readonly steps: readonly StepTiming[];
  /** Each finished tool call, in order. */
  readonly tools: readonly ToolTiming[];
}

/** The events of {@link ExecutionTimingHook.emitter}: one per kind of measurement, and `timing` for all of them. */
export interface ExecutionTimingEvents {
  /** A run ended. */
  run: [timing: RunTiming];
  /** A step ended. */
  step: [timing: StepTiming];
  /** A tool call ended. */
  tool: [timing: ToolTiming];
  /** Any of the above. */
  timing: [timing: ExecutionTiming];
}

/** Options of an {@link ExecutionTimingHook}. */
export interface ExecutionTimingHookOptions {
  /** Called with every measurement (besides the emitter's events). */
  readonly onTiming?: ((timing: ExecutionTiming) => void) | undefined;
  /** The clock, in milliseconds (default: `performance.now` since the epoch, so that marks survive a resume in another process); tests pass their own. */
  readonly now?: (() => number) | undefined;
  /** Where the timings live in the run's metadata (default {@link ExecutionTimingHook.metadataKey}). */
  readonly metadataKey?: string | undefined;
  /**
   * The priority to register at when the registration names none (default 10000: before every other hook, so that
   * step and tool times leave the hooks out; registered later, they include the After hooks that run before it).
   */
  readonly priority?: number | undefined;
}

/** When each open span of a run started, by the hook's clock. */
interface Marks {
  readonly run?: number | undefined;
  readonly step?: number | undefined;
  readonly tools: Readonly<Record<string, number>>;
}

const EVENTS: readonly HookEventName[] = Object.freeze([
  'ExecutionStart',
  'ExecutionEnd',
  'BeforeStep',
  'AfterStep',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
]);
const NO_MARKS: Marks = Object.freeze({ tools: Object.freeze({}) });
const NO_TIMINGS: ExecutionTimings = Object.freeze({ steps: Object.freeze([]), tools: Object.freeze([]) });

/**
 * Measures how long runs, steps and tool calls take, writes the measurements into the run's metadata and emits them.
 *
 * - metadata key {@link ExecutionTimingHook.metadataKey} (`'agent_hooks.timing'`): an {@link ExecutionTimings} —
 *   `run` (at ExecutionEnd), `steps` and `tools`, each with `durationMs`; it ends up in `result.metadata`;
 * - {@link ExecutionTimingHook.emitter}: `run`, `step`, `tool` and `timing` events; or the `onTiming` option.
 *
 * A step is measured from the end of its BeforeStep hooks to the start of its AfterStep hooks (compaction, the model
 * call and the step's tool calls); a tool call from the end of its PreToolUse hooks to the start of its PostToolUse
 * hooks (approval and the tool); a run from its ExecutionStart to its ExecutionEnd, hooks included. That holds at its
 * default priority, which runs it before every other hook. Start marks are kept in the metadata too, under
 * `${metadataKey}.marks`, so concurrent runs never mix their measurements. A tool call that a hook refuses is not
 * measured; a measurement taken at an event whose hooks then stop the run is emitted but not kept (a stop carries no
 * metadata forward).
 *
 * ```ts
 * const timing = new ExecutionTimingHook();
 * timing.emitter.on('tool', (t) => console.log(`${t.toolName} took ${t.durationMs.toFixed(1)} ms`));
 * const agent = AgentBuilder.new().withModel(model).withTools(bash).withHook(timing).build();
 * const result = await agent.run('Build the project');
 * const { run, steps, tools } = result.metadata[ExecutionTimingHook.metadataKey] as ExecutionTimings;
 * ```
 */
export class ExecutionTimingHook implements Hook {
  /** The default metadata key of the measurements. */
  static readonly metadataKey = 'agent_hooks.timing';

  /** Always `'ExecutionTimingHook'`. */
  readonly name = 'ExecutionTimingHook';
  /** The events it measures between. */
  readonly events: readonly HookEventName[] = EVENTS;
  /** The priority it registers at by default. */
  readonly priority: number;
  /** Emits every measurement: `run`, `step`, `tool`, and `timing` for all of them. */
  readonly emitter: EventEmitter<ExecutionTimingEvents> = new EventEmitter<ExecutionTimingEvents>();
  /** The metadata key the measurements are kept under. */
  readonly metadataKey: string;
  private readonly marksKey: string;
  private readonly now: () => number;
  private readonly onTiming: ((timing: ExecutionTiming) => void) | undefined;

  constructor(options: ExecutionTimingHookOptions = {}) {
    if (options.onTiming !== undefined && typeof options.onTiming !== 'function') throw new TypeError('ExecutionTimingHook: onTiming must be a function.');
    // Milliseconds since the epoch, not since this process started: marks kept in an interrupted run's snapshot
    // measure on in the process that resumes it.
    this.now = options.now ?? (() => performance.timeOrigin + performance.now());
    this.onTiming = options.onTiming;
    this.metadataKey = options.metadataKey ?? ExecutionTimingHook.metadataKey;
    this.marksKey = `${this.metadataKey}.marks`;
    this.priority = checkPriority('ExecutionTimingHook', options.priority, 10_000);
  }

  /** The measurements of a context's run so far. */
  timings(ctx: AnyHookContext): ExecutionTimings {
    return ctx.get<ExecutionTimings | undefined>(this.metadataKey) ?? NO_TIMINGS;
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    const marks = ctx.get<Marks | undefined>(this.marksKey) ?? NO_MARKS;
    switch (ctx.event) {
      case 'ExecutionStart':
        return next(ctx.withMetadata(this.marksKey, { ...marks, run: this.now() }));
      case 'BeforeStep':
        return this.markAfter(next(ctx), (m) => ({ ...m, step: this.now() }));
      case 'PreToolUse': {
        const id = ctx.toolCall.id;
        return this.markAfter(next(ctx), (m) => ({ ...m, tools: { ...m.tools, [id]: this.now() } }));
      }
      case 'AfterStep': {
        if (marks.step === undefined) return next(ctx);
        const timing: StepTiming = { kind: 'step', agentId: ctx.state.agentId, stepIndex: ctx.stepIndex, durationMs: this.now() - marks.step };
        // Calls refused after PreToolUse (by the approver) never reach PostToolUse; their marks end with the step.
        return next(this.record(ctx, timing, { ...marks, step: undefined, tools: {} }, 'steps'));
      }
      case 'PostToolUse':
      case 'PostToolUseFailure': {
        const id = ctx.toolCall.id;
        const started = marks.tools[id];
        if (started === undefined) return next(ctx);
        const { [id]: _done, ...open } = marks.tools;
        const timing: ToolTiming = {
          kind: 'tool',
          agentId: ctx.state.agentId,
          stepIndex: ctx.state.stepCount,
          toolName: ctx.toolCall.name,
          toolCallId: id,
          ok: ctx.event === 'PostToolUse' && ctx.execution?.isError !== true,
          durationMs: this.now() - started,
        };
        return next(this.record(ctx, timing, { ...marks, tools: open }, 'tools'));
      }
      case 'ExecutionEnd': {
        if (marks.run === undefined) return next(ctx);
        const timing: RunTiming = { kind: 'run', agentId: ctx.state.agentId, status: ctx.status, durationMs: this.now() - marks.run };
        return next(this.record(ctx, timing, NO_MARKS, 'run'));
      }
      default:
        return next(ctx);
    }
  }

  /** Marks the time once the hooks after this one are done, on the context the chain goes on with. */
  private markAfter(result: MaybePromise<HookOutcome>, mark: (marks: Marks) => Marks): MaybePromise<HookOutcome> {
    const apply = (outcome: HookOutcome): HookOutcome => {
      const ctx = outcome.context;
      // A refused call or a halted run has nothing left to measure.
      if (ctx === undefined || (outcome.type !== 'proceed' && outcome.type !== 'ask')) return outcome;
      return outcome.withContext(ctx.withMetadata(this.marksKey, mark(ctx.get<Marks | undefined>(this.marksKey) ?? NO_MARKS)));
    };
    return isThenable(result) ? Promise.resolve(result).then(apply) : apply(result);
  }

  /** The context carrying `timing` in the run's measurements, and `marks`; tells the listeners. */
  private record<C extends AnyHookContext>(ctx: C, timing: ExecutionTiming, marks: Marks, into: 'run' | 'steps' | 'tools'): C {
    const timings = this.timings(ctx);
    const next: ExecutionTimings =
      into === 'run'
        ? { ...timings, run: timing as RunTiming }
        : into === 'steps'
          ? { ...timings, steps: [...timings.steps, timing as StepTiming] }
          : { ...timings, tools: [...timings.tools, timing as ToolTiming] };
    this.emitter.emit(timing.kind, timing as never);
    this.emitter.emit('timing', timing);
    this.onTiming?.(timing);
    return ctx.withMetadata(this.metadataKey, next).withMetadata(this.marksKey, marks) as C;
  }
}
