/**
 * What a run is made of: its configuration, how it starts and resumes, and the signals its loop throws.
 *
 * @module
 */
import type { AgentState, HookStack, Metadata, ModelCallResponse, ModelSettings, StopReason, ToolCall, ToolExecution, Usage } from '../../core/index.js';
import type { EventEmitter } from 'eventemitter3';
import { lazyValue } from '../../core/internal/lazy-module.js';
import { zod } from '../../core/internal/zod-module.js';
import { nodeCrypto } from '../../core/internal/node-crypto.js';
import type { AgentEvents } from '../agent-events.js';
import type { AgentStreamEvent, StreamTextMode } from '../agent-stream.js';
import type { ApprovalDecision, ApprovalDecisions, ApprovalResponse, Approver } from '../approval.js';
import type { Checkpointer } from '../checkpointer.js';
import type { CompactionOptions } from '../compaction.js';
import type { Model } from '../model.js';
import type { RunResult } from '../run-result.js';
import type { Subagent } from '../subagent.js';
import type { WakeInbox } from '../wake-inbox.js';
import type { Tool, ToolDefinition } from '../tool.js';
import type { PendingApproval, RunFrameJson } from '../run-snapshot.js';

/**
 * Everything a run needs from its agent; immutable, so concurrent runs share it safely.
 *
 * @internal
 */
export interface AgentConfig {
  /** The agent's name, when given. */
  readonly name: string | undefined;
  /** The model. */
  readonly model: Model;
  /** The tools, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The subagents, by name. */
  readonly subagents: ReadonlyMap<string, ResolvedSubagent>;
  /** What the model is told about tools and subagents. */
  readonly definitions: readonly ToolDefinition[];
  /** The system prompt. */
  readonly systemPrompt: string | undefined;
  /** The step limit. */
  readonly maxSteps: number;
  /** Compaction, when enabled. */
  readonly compaction: CompactionOptions | undefined;
  /** The approver, when there is one. */
  readonly approver: Approver | undefined;
  /** Every hook, guarded by the error policy. */
  readonly stack: HookStack;
  /** How many Stop continuations in a row are honoured. */
  readonly stopLoopLimit: number;
  /** Sampling settings sent with every model call, when set. */
  readonly modelSettings: ModelSettings | undefined;
  /** How many times AfterModel hooks may have one step's model call made again. */
  readonly modelRetryLimit: number;
  /** Whether a call that needs approval, with no approver to decide it, interrupts the run instead of being refused. */
  readonly approvalInterrupts: boolean;
  /** Whether a step's whole batch is reviewed before any of its calls runs (`{ batch: true }`). */
  readonly approvalBatch: boolean;
  /** Where interrupted runs are saved, when set. */
  readonly checkpointer: Checkpointer | undefined;
  /** The key snapshots are signed and checked with, when set. */
  readonly snapshotKey: string | Uint8Array | undefined;
}

/**
 * A subagent with the configuration its runs use.
 *
 * @internal
 */
export interface ResolvedSubagent {
  /** Its definition. */
  readonly def: Subagent;
  /** The configuration of its runs. */
  readonly config: AgentConfig;
}

/** What a run shares with the runs of its subagents and with its session. */
export interface RunEnvironment {
  readonly emitter: EventEmitter<AgentEvents>;
  /** Keeps work hooks handed over (async script hooks) until a session or the agent drains it. */
  readonly track: (work: Promise<unknown>) => void;
  /** The messages background hooks hand the model, waiting for its next call (this run's, or the session's next turn's). */
  readonly wakes: WakeInbox;
  /**
   * Set for a plain run, which no turn follows: a hook that would wake the model once it is done (Claude Code's
   * `asyncRewake`) runs in the foreground instead, as Claude Code runs it under `claude -p`, so what it says reaches
   * the model beside the call's result rather than no model at all.
   */
  readonly noLaterTurn?: boolean;
}

/** How a run starts. */
export interface RunInit {
  readonly prompt: string;
  readonly state: AgentState;
  readonly metadata: Metadata;
  readonly signal: AbortSignal | undefined;
  /** Fire SessionStart first (the first run of a session). */
  readonly sessionStart?: boolean;
  /** Set when this is a subagent's run: its stop gate is SubagentStop. */
  readonly subagent?: { readonly name: string; readonly type: string } | undefined;
  /** Set when the run is streamed: where its events go. */
  readonly stream?: RunStream | undefined;
  /** Set when the run goes on from an interruption: where, and what its loop carried. */
  readonly resume?: ResumeInit | undefined;
  /**
   * Set when the run keeps a checkpoint after each step it completes (a resumed run with a checkpointer): saves the
   * run's frame between two steps, and what JSON could not hold of it.
   */
  readonly keepStep?: ((frame: RunFrameJson, lossy: readonly string[]) => Promise<void>) | undefined;
}

/** How a run goes on from an interruption: its frame read back, and the decisions. */
export interface ResumeInit {
  /** The interrupted run's frame. */
  readonly frame: RunFrameJson;
  /** The decisions, by request id. */
  readonly decisions: ApprovalDecisions;
}

/** Where a run stopped, with live objects. */
export interface InterruptPoint {
  readonly stepIndex: number;
  readonly turn: ModelTurn;
  readonly executions: readonly ToolExecution[];
  readonly callIndex: number;
  readonly phase: 'approval' | 'subagent';
  readonly call: ToolCall;
  readonly reason?: string;
  readonly requestId?: string;
  readonly child?: RunFrameJson;
  readonly startedAt?: number;
  /** With whole batches: the review of the step's calls, by index (none before the first call still to carry out). */
  readonly review?: readonly (Review | undefined)[];
}

/** Where a resumed run goes on: the interrupted step and call, read back. */
export type ResumePoint = InterruptPoint;

/** What an interrupted run hands its caller: its frame as JSON, the requests that wait, and what JSON could not hold. */
export interface RunInterruption {
  readonly frame: RunFrameJson;
  readonly pending: readonly PendingApproval[];
  readonly lossy: readonly string[];
}

/** Where a streamed run's events go, and when it hands out the model's text. */
export interface RunStream {
  readonly emit: (event: AgentStreamEvent) => void;
  readonly text: StreamTextMode;
}

/** A tool call checked against its tool's schema: what runs it and the parsed input, or why it cannot run. */
export type CheckedCall =
  | { readonly ok: true; readonly tool: Tool | undefined; readonly sub: ResolvedSubagent | undefined; readonly input: unknown }
  | { readonly ok: false; readonly error: Error };

/** A decision on a request, as the run applies it: an approval, a refusal, or a response in place of the tool's. */
export type Decision = ApprovalDecision | ApprovalResponse;

/**
 * A call reviewed up to the moment it runs — its input checked, PreToolUse, and when a hook asked, the permission
 * hooks and the approver — and what carrying it out does: run it, fail it (a tool or input it cannot run with: checked
 * again then), refuse it, or apply a decision (given inline, or by `requestId` when the run is resumed).
 */
export type Review =
  | { readonly kind: 'run'; readonly call: ToolCall; readonly checked?: CheckedCall & { ok: true } }
  | { readonly kind: 'fail'; readonly call: ToolCall; readonly error?: Error }
  | { readonly kind: 'refuse'; readonly call: ToolCall; readonly message: string; readonly by: 'hook' | 'permission' }
  | {
      readonly kind: 'ask';
      readonly call: ToolCall;
      readonly reason: string;
      /** The input check of the call when the hooks left it as the model made it. */
      readonly checked?: CheckedCall & { ok: true };
      readonly decision?: Decision;
      readonly reviewed?: boolean;
      readonly requestId?: string;
    };

/** One step's model call as the loop goes on with it: the answer, and the usage of every model call it took. */
export interface ModelTurn {
  readonly response: ModelCallResponse;
  readonly usage: Usage | undefined;
  /** Whether a hook answered instead of the model. */
  readonly synthetic?: boolean;
  /**
   * The names of the tools the answer's request offered, as the hooks around the model call left it; absent when
   * every tool of the agent was. A call to a tool of the agent outside it is refused, as a call to an unknown tool is.
   */
  readonly offered?: readonly string[] | undefined;
}

/** The input of a tool a hook offered the model without one of the agent's tools behind it. */
export const anyInput = lazyValue(() => {
  const z = zod();
  return z.record(z.string(), z.unknown());
});

/** What the model is told beside a refusal when a PermissionDenied hook says it may retry: Claude Code 2.1.332's words. */
export const RETRY_NOTE = 'The refusal above is not final for this call: the PermissionDenied hook set up for this session allows one more try, which goes through the same permission check. If the user asked for what this call does, make it again now. If they did not, leave it, and in your next words to them say that you made this call without being asked and that it was refused before it ran; then go on with what they did ask for.';

/** Thrown inside the loop when a hook halts the run; caught by the run itself. */
export class Halt {
  constructor(
    readonly reason: string,
    readonly stopReason: StopReason,
  ) {}
}

/** Thrown inside the loop when a call waits for a decision made later; caught by the run itself. */
export class Interrupt {
  constructor(
    readonly point: Omit<InterruptPoint, 'stepIndex' | 'turn' | 'executions' | 'callIndex'>,
    /** The requests of the subagent's run the call started; an approval's own request is made from the point. */
    readonly pending: readonly PendingApproval[] = [],
  ) {}
}

/** A value, named for an error message. */
export const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object without `approved`' : `${typeof value} ${String(value)}`);

/** A new approval request's id. */
export const requestId = (): string => `apr_${nodeCrypto().randomUUID()}`;

/** Milliseconds since the epoch, with the precision of `performance.now()`: comparable across processes. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/** What a run resolves with: its result, the error when it failed, and where it stopped when it was interrupted. */
export type RunOutcome = RunResult & { readonly failure?: { readonly error: unknown }; readonly interrupted?: RunInterruption };

/** The step and tool call a run's loop is at: where an interruption stops it. */
export interface LoopPosition {
  readonly stepIndex: number;
  readonly turn: ModelTurn;
  readonly executions: readonly ToolExecution[];
  callIndex: number;
  /** With whole batches: the review of the step's calls, by index. */
  review?: readonly (Review | undefined)[];
}

