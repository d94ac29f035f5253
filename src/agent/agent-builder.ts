/**
 * The fluent builder of agents, and of their hooks.
 *
 * @module
 */
import {
  CallableMatcher,
  CompositeMatcher,
  EventHook,
  HookEvent,
  HookStack,
  isHook,
  Matcher,
  type AnyHookContext,
  type EventCallback,
  type Hook,
  type HookEventName,
  type HookFn,
  type HookMatcher,
  type HookScope,
  type MatcherLike,
  type MaybePromise,
  type ModelSettings,
  type PrioritizedHook,
  type NextFn,
  type HookOutcome,
  ToolNameMatcher,
} from '../core/index.js';
import { resolve } from 'node:path';
import { Agent } from './agent.js';
import type { ApprovalOptions, Approver } from './approval.js';
import { batchOption } from './internal/approval-options.js';
import type { Checkpointer } from './checkpointer.js';
import type { CompactionOptions } from './compaction.js';
import { guardStack, type HookErrorPolicy } from './hook-error-policy.js';
import { checkTimeout, declareTimeout, DEFAULT_HOOK_TIMEOUT_MS } from './hook-timeout.js';
import type { Model } from './model.js';
import type { AgentConfig, ResolvedSubagent } from './run/index.js';
import type { HookLoader, LoadedHooks, WithHooksFromOptions } from './hook-loader.js';
import { skippedHooksNotice } from './internal/skipped-hooks-notice.js';
import type { HookProblem } from '../script/problem.js';
import type { Subagent } from './subagent.js';
import { subagentInput, subagentInputSchema } from './internal/subagent-input.js';
import { alreadyMatched, handleMatched } from '../core/internal/matched.js';
import { loadAllHookConfigs, prioritized, selectedSources } from '../agents/load-all.js';
import { modelJudge } from './model-judge.js';
import { modelVerifier } from './model-verifier.js';
import { ProcessPool, type ProcessPoolLike } from '../process/process-pool.js';
import type { Tool, ToolDefinition } from './tool.js';

/** Options of the `on…` methods and {@link AgentBuilder.addHook}. */
export interface HookOptions {
  /** Higher runs first (default 0). Equal priorities run in registration order. */
  readonly priority?: number | undefined;
  /**
   * Where the hook applies. A string follows the PHP rules (exact tool name, `*` wildcards, `a|b` lists,
   * `/regex/flags`); a function is a predicate over the context; a HookMatcher is used as is.
   */
  readonly matcher?: MatcherLike | undefined;
  /** A name for traces and errors (defaults to the callback's name). */
  readonly name?: string | undefined;
  /**
   * How long the hook's own work may take, in **milliseconds** (the Claude Agent SDK's matcher `timeout` is in
   * seconds; here, as everywhere in this API, time is in milliseconds), or `Infinity` for no limit. Default: a Hook's
   * own `timeout`, else the agent's `withOptions({ hookTimeout })`, 60 000 unless changed. Past it, the signal the
   * hook was handed (a callback's second argument, a Hook's `scope`) is aborted and the hook fails with a `HookError`
   * of code `timeout`, which the `onHookError` policy handles. Time spent inside `next` is not counted.
   */
  readonly timeout?: number | undefined;
}

/** Options of {@link AgentBuilder.withHook}. */
export interface WithHookOptions {
  /** Higher runs first (default: the hook's own `priority`, else 0). */
  readonly priority?: number | undefined;
  /** How long the hook's own work may take, in milliseconds (default: the hook's own `timeout`); see {@link HookOptions.timeout}. */
  readonly timeout?: number | undefined;
}

/** The limits and policies of {@link AgentBuilder.withOptions}. */
export interface AgentOptions {
  /** What happens when an in-process hook throws or runs past its timeout (default `'fail'`). */
  readonly onHookError?: HookErrorPolicy | undefined;
  /**
   * How long an in-process hook's own work may take when neither its registration nor the hook names a `timeout`, in
   * milliseconds, or `Infinity` for no limit (default 60 000, as the Claude Agent SDK's hook callbacks). Past it, the
   * hook's signal is aborted and it fails with a `HookError` of code `timeout`, handled by `onHookError`: the run
   * fails, the chain goes on with a `timeout` warning, or the action is blocked. Script, command, HTTP, prompt and
   * agent hooks keep their own timeout (a HOOK.md's or a config entry's `timeout`) and are not given this one.
   */
  readonly hookTimeout?: number | undefined;
  /** How many times in a row Stop hooks may keep the agent working before the run ends anyway (default 8). */
  readonly stopLoopLimit?: number | undefined;
  /**
   * How many times AfterModel hooks may have one step's model call made again (default 3): past it, the step goes on
   * with the last answer, and a `model-retry-forced` warning says so.
   */
  readonly modelRetryLimit?: number | undefined;
  /** The agent's id (default: generated). */
  readonly name?: string | undefined;
  /**
   * What bounds how many hook processes the agent's script and command hooks run at once, across all its runs: a
   * {@link ProcessPool}, or `{ maxConcurrent }` for a new one made now and shared by every agent this builder builds
   * (default: {@link ProcessPool.shared}, four per CPU, for the whole process). A `withHooksFrom` given its own
   * `processPool` uses that one instead.
   */
  readonly processPool?: ProcessPoolLike | undefined;
}

/**
 * A matcher of the model events: a string or RegExp is a pattern over the model's name (the rules of tool-name
 * patterns: exact, `*` wildcards, `a|b` lists, `/regex/flags`), since a tool-name matcher never matches them.
 */
function modelMatcher(matcher: MatcherLike | undefined): MatcherLike | undefined {
  if (typeof matcher !== 'string' && !(matcher instanceof RegExp)) return matcher;
  const names = new ToolNameMatcher(matcher);
  return new CallableMatcher(function modelName(ctx) {
    const name = ctx.subject;
    return name !== undefined && names.matchesName(name);
  });
}

/** One registration: a hook with its priority, or a source of hooks loaded at build. */
type Registration = PrioritizedHook | { readonly source: HookLoader };

/**
 * What {@link AgentBuilder.resolveHooks} returns.
 *
 * @internal
 */
export interface ResolvedHooks {
  /** Every hook, in the order they run, guarded by the builder's `onHookError` policy. */
  readonly stack: HookStack;
  /** What was wrong with the hook sources' definitions that did not load. */
  readonly problems: readonly HookProblem[];
  /** The builder's `modelRetryLimit` (`withOptions`), when it set one. */
  readonly modelRetryLimit?: number | undefined;
  /** What the sources ask to be said on stderr once (project hooks they skipped), without repeats. */
  readonly notices: readonly string[];
}

/**
 * A configuration and what loading its hook sources reported.
 *
 * @internal
 */
export interface ResolvedConfig {
  /** The configuration runs use. */
  readonly config: AgentConfig;
  /** Problems from hook sources (this agent's and its subagents'). */
  readonly problems: readonly HookProblem[];
  /** What the sources (this agent's and its subagents') ask to be said on stderr once, without repeats. */
  readonly notices: readonly string[];
}


/** A Hook restricted to one event, for `addHook(event, hook)`: the event given there is honoured. */
class EventScopedHook implements Hook {
  readonly events: readonly HookEventName[];
  readonly matcher: HookMatcher | undefined;
  readonly name: string | undefined;

  constructor(
    private readonly inner: Hook,
    event: HookEventName,
    matcher: HookMatcher | undefined,
    timeout?: number,
  ) {
    if (inner.events !== undefined && !inner.events.some((e) => HookEvent.parse(e) === event)) {
      throw new TypeError(
        `addHook('${event}', …): the hook '${inner.name ?? inner.constructor.name}' only handles ${inner.events.join(', ')}. ` +
          `Register it for one of those events, or with withHook().`,
      );
    }
    this.events = [event];
    this.innerMatcher = Matcher.from(inner.matcher);
    this.matcher = this.innerMatcher && matcher ? CompositeMatcher.and(this.innerMatcher, matcher) : (this.innerMatcher ?? matcher);
    this.name = inner.name ?? (inner.constructor !== Object ? inner.constructor.name : undefined);
    this.priority = inner.priority;
    this.timeout = timeout ?? inner.timeout;
    // A script hook keeps its own timeout: the guard tells it by this.
    const own = (inner as { readonly timeoutMs?: unknown }).timeoutMs;
    this.timeoutMs = typeof own === 'number' ? own : undefined;
  }

  /** The wrapped hook's own priority. */
  readonly priority: number | undefined;
  /** The registration's timeout, else the wrapped hook's own. */
  readonly timeout: number | undefined;
  /** The timeout the wrapped hook enforces itself, when it does (a script hook's). */
  readonly timeoutMs: number | undefined;
  private readonly innerMatcher: HookMatcher | undefined;

  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    // This hook's matcher includes the inner hook's: when the stack found it matching, the inner one need not run again.
    if (this.innerMatcher !== undefined && this.matcher !== undefined && alreadyMatched(this.matcher, ctx)) {
      return handleMatched(this.inner, this.innerMatcher, ctx, next, scope);
    }
    return this.inner.handle(ctx, next, scope);
  }
}

/**
 * Builds an {@link Agent}: model, tools, subagents, limits, and hooks. Every method returns the builder.
 *
 * ```ts
 * const agent = AgentBuilder.new()
 *   .withModel(model)
 *   .withTools(bash)
 *   .onBeforeToolUse((ctx) => {
 *     if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Dangerous command');
 *   }, { priority: 100, matcher: 'bash' })
 *   .build();
 * ```
 *
 * Hooks live apart from tools and subagents: adding either after the hooks never drops a hook. Subagents inherit the
 * parent's hooks unless their definition says `inheritHooks: false`.
 */
export class AgentBuilder {
  private model: Model | undefined;
  private readonly tools = new Map<string, Tool>();
  private readonly subagents = new Map<string, Subagent>();
  private systemPrompt: string | undefined;
  private maxSteps = 20;
  private modelSettings: ModelSettings | undefined;
  private compaction: CompactionOptions | undefined;
  private approver: Approver | undefined;
  private approvalInterrupts = false;
  private approvalBatch = false;
  private checkpointer: Checkpointer | undefined;
  private snapshotKey: string | Uint8Array | undefined;
  private options: AgentOptions = {};
  /** In-process hooks and hook sources, in registration order (which breaks priority ties). */
  private registrations: Registration[] = [];

  /** A new builder (same as `new AgentBuilder()`). */
  static new(): AgentBuilder {
    return new AgentBuilder();
  }

  /** The model the agent calls. */
  withModel(model: Model): this {
    if (model === null || typeof model !== 'object' || typeof model.generate !== 'function') {
      throw new TypeError('withModel() needs a Model: an object with generate(request).');
    }
    this.model = model;
    return this;
  }

  /** Adds tools (see `defineTool`). A tool with the name of an earlier one replaces it. */
  withTools(...tools: Tool[]): this {
    for (const tool of tools.flat()) {
      if (tool === null || typeof tool !== 'object' || typeof tool.execute !== 'function') {
        throw new TypeError(`withTools() takes tools made with defineTool(), got ${String(tool)}.`);
      }
      this.tools.set(tool.name, tool);
    }
    return this;
  }

  /** Adds subagents (see `defineSubagent`); the model calls each like a tool taking `{ task }`. */
  withSubagents(...subagents: Subagent[]): this {
    for (const sub of subagents.flat()) this.subagents.set(sub.name, sub);
    return this;
  }

  /** The system prompt. */
  withSystemPrompt(prompt: string): this {
    this.systemPrompt = prompt;
    return this;
  }

  /**
   * Sampling settings sent with every model call (`temperature`, `maxTokens`, …), merged over earlier ones. A model
   * honours those it has; BeforeModel hooks see and may change them per call.
   */
  withModelSettings(settings: ModelSettings): this {
    if (settings === null || typeof settings !== 'object') throw new TypeError('withModelSettings() needs an object such as { temperature: 0 }.');
    this.modelSettings = Object.freeze({ ...this.modelSettings, ...settings });
    return this;
  }

  /** The most steps (model calls) a run makes (default 20); reaching it fires Stop with `max_steps`. */
  withMaxSteps(steps: number): this {
    if (!Number.isInteger(steps) || steps < 1) throw new RangeError(`withMaxSteps() needs a positive integer, got ${steps}.`);
    this.maxSteps = steps;
    return this;
  }

  /** Compacts the conversation (PreCompact, PostCompact) when it outgrows `maxMessages`. */
  withCompaction(options: CompactionOptions): this {
    if (!Number.isInteger(options?.maxMessages) || options.maxMessages < 2) {
      throw new RangeError(`withCompaction() needs maxMessages ≥ 2, got ${String(options?.maxMessages)}.`);
    }
    this.compaction = options;
    return this;
  }

  /**
   * Who decides tool calls a hook asked about. Without one, such calls are refused. With `{ batch: true }`, every call
   * of a step's batch is reviewed before any of them runs, and the approver is asked in that review (see
   * {@link ApprovalOptions.batch}).
   */
  withApprover(approver: Approver, options: ApprovalOptions = {}): this {
    if (typeof approver !== 'function') throw new TypeError('withApprover() needs a function (request) => boolean | decision.');
    this.approver = approver;
    this.approvalBatch = batchOption(options, 'withApprover');
    return this;
  }

  /**
   * Calls that need approval interrupt the run instead of waiting for an approver: every `ask` that PermissionRequest
   * hooks leave undecided — a `RequireApprovalHook`, a HOOK.md hook's or a Claude Code hook's `ask` (and its
   * `defer`) — ends `run()` with status `interrupted`, the pending requests and a JSON snapshot of the run.
   * `agent.resume(snapshot, decisions)` goes on from that call, in this process or another, on an agent built the same
   * way. The hooks that ran for the call (PreToolUse, PermissionRequest, Notification) do not run again; a refusal
   * fires PermissionDenied as an approver's does. Subagents without an approver of their own interrupt too.
   *
   * An approver that decides some calls at once and leaves others for later answers `{ interrupt: true }` for those
   * instead (use `withApprover`, not this).
   *
   * With `{ batch: true }`, one interruption holds every request of a step's batch (see {@link ApprovalOptions.batch}).
   */
  withApprovalInterrupts(options: ApprovalOptions = {}): this {
    this.approvalInterrupts = true;
    this.approvalBatch = batchOption(options, 'withApprovalInterrupts');
    return this;
  }

  /**
   * Where interrupted runs wait (see {@link Checkpointer}): each interruption's snapshot is saved under its id — the
   * session's id for a session's turn — so `agent.resume(id, decisions)` can go on from it anywhere the store reaches,
   * and `agent.resume` takes it out of the store, so that a snapshot resumes once.
   */
  withCheckpointer(checkpointer: Checkpointer): this {
    const methods = ['save', 'load', 'take', 'delete', 'list'] as const;
    const missing = methods.filter((m) => typeof (checkpointer as unknown as Record<string, unknown> | null)?.[m] !== 'function');
    if (missing.length > 0) throw new TypeError(`withCheckpointer() needs a Checkpointer; this one has no ${missing.join(', ')} method (see MemoryCheckpointer, FileCheckpointer).`);
    this.checkpointer = checkpointer;
    return this;
  }

  /**
   * Signs each interrupted run's snapshot with this secret (HMAC-SHA256, `snapshot.signature`) and resumes only
   * snapshots it signed: one changed where it was kept — a tool call's input, a tool result, the conversation — or
   * never signed is refused (`ResumeError` `tampered`) before anything runs. The hooks that ran for the waiting call
   * checked the call as it was; without a key, keep snapshots where only you can write them. At least 16 bytes; give
   * every process that resumes the same key.
   */
  withSnapshotKey(key: string | Uint8Array): this {
    const length = typeof key === 'string' ? Buffer.byteLength(key) : key instanceof Uint8Array ? key.byteLength : -1;
    if (length < 16) {
      throw new TypeError(`withSnapshotKey() needs a secret of at least 16 bytes (a string or bytes), got ${length < 0 ? typeof key : `${length} bytes`}; e.g. crypto.randomBytes(32), kept in your secrets.`);
    }
    this.snapshotKey = key;
    return this;
  }

  /** Limits and policies: `onHookError`, `hookTimeout`, `stopLoopLimit`, `modelRetryLimit`, `name`, `processPool`. */
  withOptions(options: AgentOptions): this {
    if (options.onHookError !== undefined && !['fail', 'ignore', 'block'].includes(options.onHookError)) {
      throw new TypeError(`onHookError must be 'fail', 'ignore' or 'block', got ${String(options.onHookError)}.`);
    }
    checkTimeout(options.hookTimeout, 'withOptions({ hookTimeout })');
    if (options.stopLoopLimit !== undefined && (!Number.isInteger(options.stopLoopLimit) || options.stopLoopLimit < 0)) {
      throw new RangeError(`stopLoopLimit must be a non-negative integer, got ${options.stopLoopLimit}.`);
    }
    if (options.modelRetryLimit !== undefined && (!Number.isInteger(options.modelRetryLimit) || options.modelRetryLimit < 0)) {
      throw new RangeError(`modelRetryLimit must be a non-negative integer, got ${options.modelRetryLimit}.`);
    }
    // Made once here, so that every build, run and subagent of this builder shares one bound.
    const pool = options.processPool === undefined ? {} : { processPool: ProcessPool.from(options.processPool) };
    this.options = { ...this.options, ...options, ...pool };
    return this;
  }

  /** Shorthand for `withOptions({ onHookError: policy })`. */
  onHookError(policy: HookErrorPolicy): this {
    return this.withOptions({ onHookError: policy });
  }

  /** Adds a Hook class instance (its own `events`, `matcher` and `timeout` apply). */
  withHook(hook: Hook | HookFn, options: WithHookOptions = {}): this {
    const timeout = checkTimeout(options.timeout, 'withHook(hook, { timeout })');
    if (timeout === undefined) return this.register(hook, options.priority);
    // The hook as a stack takes it (checked there; a function made a CallableHook), with the timeout declared on it.
    const [entry] = new HookStack().with(hook, options.priority).all();
    return this.register(declareTimeout(entry!.hook, timeout), options.priority);
  }

  /** Adds every hook of `stack`, keeping their priorities and order. */
  withHookStack(stack: HookStack): this {
    for (const entry of stack.all()) this.register(entry.hook, entry.priority);
    return this;
  }

  /**
   * Adds the hooks of a project into the same stack as the callbacks: a script at priority 999 runs before a callback
   * at 500, which runs before a script at 100.
   *
   * With a directory, or options that name no agent, it loads HOOK.md hooks: the project's (`<projectDir>/.agents/hooks`),
   * the user's (`~/.config/agents/hooks`, or `$XDG_CONFIG_HOME/agents/hooks`) and any `extraDirs`'. Name agents to
   * load their config files too — `{ claude: true, copilot: true, vscode: true, gemini: true, cursor: true, codex:
   * true }` — each hook speaking its agent's protocol; HOOK.md hooks come along unless `hookmd: false`. Claude Code's prompt hooks
   * are judged by the agent's model, and its agent hooks verified by it ({@link modelVerifier}).
   *
   * Hooks load when the agent is built; `await agent.ready()` lists the problems of those that did not (they are also
   * emitted as `warning` events on the first run), and `strict: true` makes a bad definition fail the runs instead.
   *
   * How their processes run is set here too: `envPolicy` and `envDeny` (what a hook's process inherits from this
   * process's environment, see {@link HookEnvironment}), `env` (variables added to each hook's process) and
   * `processPool` (how many run at once; default: the builder's `withOptions({ processPool })`, else
   * {@link ProcessPool.shared}). Where the user's hooks and trust store are is read from `hostEnv` (default
   * `process.env`: `XDG_CONFIG_HOME`, `HOME`, `AGENT_HOOKS_TRUST`), or follows `homeDir`; `env` never moves them.
   *
   * The project's own hooks (its `.agents/hooks` and agent config files) load only once the user has trusted them
   * (`npx agent-hooks trust`) and while unchanged since; the others are `untrusted-hook` or `changed-hook` problems,
   * and the agent says so on stderr once, at its first run — each hook skipped, its file, and the command to run
   * (`stderrNotice: false` leaves that line out, for a program that reports the warnings itself). With
   * `strict: true`, a skipped project hook is a refusal instead: `ready()`, every run, stream and session turn reject
   * with an `UntrustedHooksError` naming the hooks and the fix, before any model call or tool runs.
   * `trust: 'all'` loads them all — for a project that is your own — and `trust: store` checks another
   * {@link TrustStore}. User-level hooks and `extraDirs` never need trust.
   *
   * ```ts
   * AgentBuilder.new().withModel(model).withHooksFrom({ projectDir: process.cwd(), claude: true, copilot: true });
   * ```
   */
  withHooksFrom(from: string | WithHooksFromOptions): this {
    const { stderrNotice = true, ...options }: WithHooksFromOptions = typeof from === 'string' ? { projectDir: from } : { ...from };
    const projectDir = options.projectDir ?? process.cwd();
    // HOOK.md hooks come along unless they are turned off; alone when no agent is named.
    const sources = options.hookmd === undefined ? { ...options, hookmd: true } : options;
    // `{ maxConcurrent }` becomes one pool now, shared by every build: each build loads the hooks anew.
    const ownPool = options.processPool === undefined ? undefined : ProcessPool.from(options.processPool);
    return this.withHookLoader({
      label: `hooks of ${projectDir} (${selectedSources(sources).join(', ')})`,
      load: async (context) => {
        const judge = options.judge ?? (context?.model === undefined ? undefined : modelJudge(context.model));
        const verify = options.verify ?? (context?.model === undefined ? undefined : modelVerifier(context.model));
        const processPool = ownPool ?? context?.processPool;
        const { hooks, problems } = await loadAllHookConfigs(projectDir, { ...sources, judge, verify, processPool });
        const notice = stderrNotice ? skippedHooksNotice(problems, resolve(projectDir)) : undefined;
        return { hooks: prioritized(hooks, { parallel: sources.parallel }), problems, ...(notice !== undefined ? { notice } : {}) };
      },
    });
  }

  /**
   * Adds hooks loaded from a {@link HookLoader} when the agent is built (the first run waits for them). The
   * `withHooksFrom` overloads for HOOK.md folders and agent config files are built on it.
   */
  withHookLoader(source: HookLoader): this {
    if (typeof source?.load !== 'function') throw new TypeError('withHookLoader() needs an object with load().');
    this.registrations.push({ source });
    return this;
  }

  /**
   * Registers a callback or a Hook for `event` (any dialect's name: `PreToolUse`, `pre-tool-call`, `before_tool`,
   * `preToolUse`, …). A Hook given here runs for that event only.
   */
  addHook<E extends HookEventName>(event: E, hook: EventCallback<E> | Hook, options?: HookOptions): this;
  addHook(event: string, hook: EventCallback<HookEventName> | Hook, options?: HookOptions): this;
  addHook(event: string, hook: EventCallback<HookEventName> | Hook, options: HookOptions = {}): this {
    const name = HookEvent.parse(event);
    const matcher = Matcher.from(HookEvent.info(name).family === 'model' ? modelMatcher(options.matcher) : options.matcher);
    const timeout = checkTimeout(options.timeout, `addHook('${name}', …, { timeout })`);
    const wrapped = isHook(hook)
      ? new EventScopedHook(hook, name, matcher, timeout)
      : new EventHook(name, hook as EventCallback<HookEventName>, { matcher, name: options.name, timeout });
    return this.register(wrapped, options.priority);
  }

  /** Before a tool runs: rewrite its input (return a ToolCall or a context), block it, or ask for approval. */
  onBeforeToolUse(callback: EventCallback<'PreToolUse'>, options?: HookOptions): this {
    return this.addHook('PreToolUse', callback, options);
  }

  /** After a tool succeeded: replace the result (return a ToolExecution), or reject it. */
  onAfterToolUse(callback: EventCallback<'PostToolUse'>, options?: HookOptions): this {
    return this.addHook('PostToolUse', callback, options);
  }

  /** After a tool failed (including invalid input and unknown tools). */
  onToolFailure(callback: EventCallback<'PostToolUseFailure'>, options?: HookOptions): this {
    return this.addHook('PostToolUseFailure', callback, options);
  }

  /** When a hook asked for approval: grant (`HookOutcome.allow()`), refuse (block), or leave it to the approver. */
  onPermissionRequest(callback: EventCallback<'PermissionRequest'>, options?: HookOptions): this {
    return this.addHook('PermissionRequest', callback, options);
  }

  /**
   * When the approver refused a tool call (not when a hook did): return `ctx.withRetry()` to tell the model it may
   * retry the call, as a Claude Code hook's `retry: true` does.
   */
  onPermissionDenied(callback: EventCallback<'PermissionDenied'>, options?: HookOptions): this {
    return this.addHook('PermissionDenied', callback, options);
  }

  /**
   * Once every tool call of a step has resolved, before the next model call (and before AfterStep): add context for
   * the model, or block (or stop) to end the run there, as Claude Code ends the turn.
   */
  onPostToolBatch(callback: EventCallback<'PostToolBatch'>, options?: HookOptions): this {
    return this.addHook('PostToolBatch', callback, options);
  }

  /** Before each step (model call). Return an AgentState to replace the state. */
  onBeforeStep(callback: EventCallback<'BeforeStep'>, options?: HookOptions): this {
    return this.addHook('BeforeStep', callback, options);
  }

  /**
   * Before each model call (after BeforeStep, and again before each retry): rewrite the request (`ctx.withSystem`,
   * `withMessages`, `withTools`, `withSettings`), or answer instead of the model (return a string, or
   * `ctx.withResponse({ text, toolCalls })`): the model is then not called. A block is a refusal: the model is not
   * called and the reason is the step's answer. A string or RegExp `matcher` is tested against the model's name.
   */
  onBeforeModel(callback: EventCallback<'BeforeModel'>, options?: HookOptions): this {
    return this.addHook('BeforeModel', callback, options);
  }

  /**
   * Before each model call, after BeforeModel: narrow the tools the model may choose (return their names, or
   * `ctx.allowTools(…)`, `ctx.removeTools(…)`, `ctx.withToolConfig({ mode, allowedFunctionNames })`).
   */
  onBeforeToolSelection(callback: EventCallback<'BeforeToolSelection'>, options?: HookOptions): this {
    return this.addHook('BeforeToolSelection', callback, options);
  }

  /**
   * After the model answered (or a BeforeModel hook answered for it), before any tool runs: rewrite the answer (return
   * a string for its text, or `ctx.withToolCalls(…)`), or block to have the call made again with the reason as
   * feedback, at most `modelRetryLimit` times a step.
   */
  onAfterModel(callback: EventCallback<'AfterModel'>, options?: HookOptions): this {
    return this.addHook('AfterModel', callback, options);
  }

  /** After each step. Return an AgentState to replace the state. */
  onAfterStep(callback: EventCallback<'AfterStep'>, options?: HookOptions): this {
    return this.addHook('AfterStep', callback, options);
  }

  /** When a run starts. Metadata set here is readable at ExecutionEnd. */
  onExecutionStart(callback: EventCallback<'ExecutionStart'>, options?: HookOptions): this {
    return this.addHook('ExecutionStart', callback, options);
  }

  /** When a run ends, whatever its status. */
  onExecutionEnd(callback: EventCallback<'ExecutionEnd'>, options?: HookOptions): this {
    return this.addHook('ExecutionEnd', callback, options);
  }

  /** When a session's first turn starts. */
  onSessionStart(callback: EventCallback<'SessionStart'>, options?: HookOptions): this {
    return this.addHook('SessionStart', callback, options);
  }

  /** When a session is closed. */
  onSessionEnd(callback: EventCallback<'SessionEnd'>, options?: HookOptions): this {
    return this.addHook('SessionEnd', callback, options);
  }

  /** Before the prompt is processed: rewrite it (return a string) or reject it (block). */
  onUserPromptSubmit(callback: EventCallback<'UserPromptSubmit'>, options?: HookOptions): this {
    return this.addHook('UserPromptSubmit', callback, options);
  }

  /** The quality gate: block to keep the agent working, with the reason as feedback. */
  onStop(callback: EventCallback<'Stop'>, options?: HookOptions): this {
    return this.addHook('Stop', callback, options);
  }

  /**
   * When the turn ends on a model (API) error, in place of Stop and before AgentFailed: observe it (`ctx.errorType`,
   * `ctx.error`); what the hook answers is ignored, with a warning.
   */
  onStopFailure(callback: EventCallback<'StopFailure'>, options?: HookOptions): this {
    return this.addHook('StopFailure', callback, options);
  }

  /** After the agent stopped responding for this turn. */
  onAfterStop(callback: EventCallback<'AfterStop'>, options?: HookOptions): this {
    return this.addHook('AfterStop', callback, options);
  }

  /** When the turn is finished, before ExecutionEnd. */
  onAfterAgent(callback: EventCallback<'AfterAgent'>, options?: HookOptions): this {
    return this.addHook('AfterAgent', callback, options);
  }

  /** Before a subagent starts: rewrite its task or refuse it. */
  onSubagentStart(callback: EventCallback<'SubagentStart'>, options?: HookOptions): this {
    return this.addHook('SubagentStart', callback, options);
  }

  /** The subagent's quality gate: block to keep it working. */
  onSubagentStop(callback: EventCallback<'SubagentStop'>, options?: HookOptions): this {
    return this.addHook('SubagentStop', callback, options);
  }

  /** Before the conversation is compacted. */
  onPreCompact(callback: EventCallback<'PreCompact'>, options?: HookOptions): this {
    return this.addHook('PreCompact', callback, options);
  }

  /** After the conversation was compacted. */
  onPostCompact(callback: EventCallback<'PostCompact'>, options?: HookOptions): this {
    return this.addHook('PostCompact', callback, options);
  }

  /** When a run fails, before ExecutionEnd. */
  onAgentFailed(callback: EventCallback<'AgentFailed'>, options?: HookOptions): this {
    return this.addHook('AgentFailed', callback, options);
  }

  /** When the agent notifies the user (e.g. it needs approval). */
  onNotification(callback: EventCallback<'Notification'>, options?: HookOptions): this {
    return this.addHook('Notification', callback, options);
  }

  /** The in-process hooks registered so far, as a stack (hook sources load at build). */
  get hooks(): HookStack {
    return new HookStack(this.registrations.filter((r): r is Exclude<Registration, { source: HookLoader }> => !('source' in r)));
  }

  /**
   * Builds the agent. Hook sources start loading now; the first run waits for them (or call `agent.ready()`). The
   * builder can be changed and built again; agents already built do not change.
   */
  build(): Agent {
    this.check(undefined);
    const preview = guardStack(this.hooks, this.options.onHookError ?? 'fail', this.options.hookTimeout ?? DEFAULT_HOOK_TIMEOUT_MS);
    return new Agent(preview, this.configure(undefined), this.options.name);
  }

  /** @internal Throws what would make the agent unusable, at build time rather than at the first run. */
  check(inheritedModel: Model | undefined): void {
    const model = this.model ?? inheritedModel;
    if (model === undefined) throw new TypeError('The agent has no model: call withModel(model) before build().');
    if (this.approver !== undefined && this.approvalInterrupts) {
      throw new TypeError('The agent has an approver and approval interrupts: choose one. An approver that leaves a call for later answers { interrupt: true }.');
    }
    for (const def of this.subagents.values()) {
      if (this.tools.has(def.name)) throw new TypeError(`A tool and a subagent are both named '${def.name}'; rename one.`);
      if (def.agent instanceof AgentBuilder) def.agent.check(def.model ?? model);
      else if (def.agent !== undefined && !(def.agent instanceof Agent)) {
        throw new TypeError(`Subagent '${def.name}': agent must be an Agent or an AgentBuilder.`);
      }
    }
  }

  /**
   * @internal The configuration with every hook source loaded; `inheritedModel` is a parent's model. What the builder
   * holds is copied before anything is awaited, so changing the builder afterwards changes no agent already built.
   */
  configure(inheritedModel: Model | undefined): Promise<ResolvedConfig> {
    return this.copy().load(inheritedModel);
  }

  private copy(): AgentBuilder {
    const copy = new AgentBuilder();
    copy.model = this.model;
    for (const [name, tool] of this.tools) copy.tools.set(name, tool);
    for (const [name, sub] of this.subagents) copy.subagents.set(name, sub);
    copy.systemPrompt = this.systemPrompt;
    copy.maxSteps = this.maxSteps;
    copy.modelSettings = this.modelSettings;
    copy.compaction = this.compaction;
    copy.approver = this.approver;
    copy.approvalInterrupts = this.approvalInterrupts;
    copy.approvalBatch = this.approvalBatch;
    copy.checkpointer = this.checkpointer;
    copy.snapshotKey = this.snapshotKey;
    copy.options = this.options;
    copy.registrations = [...this.registrations];
    return copy;
  }

  /**
   * Every hook an agent built now would run — the in-process hooks and those of hook sources (`withHooksFrom`), loaded
   * now — in one stack, in run order, each guarded by the `onHookError` policy; with the problems the sources reported.
   * For running the same hooks around a loop of your own (the Vercel AI SDK and OpenAI Agents SDK integrations use it).
   * Unlike {@link AgentBuilder.hooks}, it loads the sources; it needs no model (Claude Code prompt hooks are judged by
   * the builder's model, else `inheritedModel`, and reported as a problem without one).
   */
  async resolveHooks(inheritedModel?: Model): Promise<ResolvedHooks> {
    const registrations = [...this.registrations];
    const context = { model: this.model ?? inheritedModel, processPool: this.options.processPool as ProcessPool | undefined };
    const loaded = await Promise.all(registrations.map((r) => ('source' in r ? r.source.load(context) : undefined)));
    const problems: HookProblem[] = loaded.flatMap((l) => l?.problems ?? []);
    const hooks = registrations.flatMap((r, i): readonly PrioritizedHook[] => ('source' in r ? (loaded[i] as LoadedHooks).hooks : [r]));
    const notices = [...new Set(loaded.flatMap((l) => (l?.notice === undefined ? [] : [l.notice])))];
    const stack = guardStack(new HookStack(hooks), this.options.onHookError ?? 'fail', this.options.hookTimeout ?? DEFAULT_HOOK_TIMEOUT_MS);
    return { stack, problems, modelRetryLimit: this.options.modelRetryLimit, notices };
  }

  private async load(inheritedModel: Model | undefined): Promise<ResolvedConfig> {
    const { stack, problems: own, notices: ownNotices } = await this.resolveHooks(inheritedModel);
    const problems: HookProblem[] = [...own];
    const notices = new Set(ownNotices);
    const model = (this.model ?? inheritedModel)!;
    const subagents = new Map<string, ResolvedSubagent>();
    for (const def of this.subagents.values()) {
      const child = await this.subagentConfig(def, model, stack);
      problems.push(...child.problems);
      for (const notice of child.notices) notices.add(notice);
      subagents.set(def.name, { def, config: child.config });
    }
    return { config: this.assemble(model, stack, subagents), problems, notices: [...notices] };
  }

  private register(hook: Hook | HookFn, priority: number | undefined): this {
    // Validate now, where the mistake is, rather than at build.
    new HookStack().with(hook, priority);
    this.registrations.push({ hook, priority });
    return this;
  }

  private assemble(model: Model, stack: HookStack, subagents: Map<string, ResolvedSubagent>): AgentConfig {
    const definitions: ToolDefinition[] = [
      ...[...this.tools.values()].map(({ name, description, inputSchema, input }) => ({ name, description, inputSchema, input })),
      ...[...subagents.values()].map(({ def }) => ({
        name: def.name,
        description: def.description,
        input: subagentInput(),
        inputSchema: subagentInputSchema(),
      })),
    ];
    return Object.freeze({
      name: this.options.name,
      model,
      tools: new Map(this.tools),
      subagents,
      definitions: Object.freeze(definitions),
      systemPrompt: this.systemPrompt,
      maxSteps: this.maxSteps,
      compaction: this.compaction,
      approver: this.approver,
      approvalInterrupts: this.approvalInterrupts,
      approvalBatch: this.approvalBatch,
      checkpointer: this.checkpointer,
      snapshotKey: this.snapshotKey,
      stack,
      stopLoopLimit: this.options.stopLoopLimit ?? 8,
      modelSettings: this.modelSettings,
      modelRetryLimit: this.options.modelRetryLimit ?? 3,
    });
  }

  private async subagentConfig(def: Subagent, parentModel: Model, parentStack: HookStack): Promise<ResolvedConfig> {
    let own: ResolvedConfig;
    const agent = def.agent;
    if (agent instanceof Agent) own = await agent.resolved();
    else if (agent instanceof AgentBuilder) own = await agent.configure(def.model ?? parentModel);
    else {
      const builder = AgentBuilder.new().withTools(...(def.tools ?? []));
      if (def.systemPrompt !== undefined) builder.withSystemPrompt(def.systemPrompt);
      if (def.maxSteps !== undefined) builder.withMaxSteps(def.maxSteps);
      builder.withOptions({
        onHookError: this.options.onHookError,
        hookTimeout: this.options.hookTimeout,
        stopLoopLimit: this.options.stopLoopLimit,
        modelRetryLimit: this.options.modelRetryLimit,
        processPool: this.options.processPool,
      });
      own = await builder.configure(def.model ?? parentModel);
    }
    // A subagent without an approver of its own asks its parent's, or interrupts as its parent does.
    if (own.config.approver === undefined && !own.config.approvalInterrupts && (this.approver !== undefined || this.approvalInterrupts)) {
      own = { ...own, config: Object.freeze({ ...own.config, approver: this.approver, approvalInterrupts: this.approvalInterrupts, approvalBatch: this.approvalBatch }) };
    }
    if (!def.inheritHooks) {
      // SubagentStop is the parent's view of its subagent finishing: the parent's SubagentStop hooks run regardless.
      const gates = parentStack.hooksFor('SubagentStop').map((e) => ({ hook: new EventScopedHook(e.hook, 'SubagentStop', undefined), priority: e.priority }));
      if (gates.length === 0) return own;
      return { ...own, config: Object.freeze({ ...own.config, stack: new HookStack(gates).concat(own.config.stack) }) };
    }
    return { ...own, config: Object.freeze({ ...own.config, stack: parentStack.concat(own.config.stack) }) };
  }
}
