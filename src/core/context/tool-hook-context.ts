/**
 * The context of the tool events.
 *
 * @module
 */
import type { ToolEventName } from '../events.js';
import { ToolCall } from '../tool-call.js';
import { ToolExecution } from '../tool-execution.js';
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';
import { messageOf } from '../internal/message-of.js';

/** The fields of a {@link ToolHookContext}. */
export interface ToolHookContextInit extends HookContextInit {
  /** The call the event concerns. */
  toolCall: ToolCall;
  /** What the call produced (PostToolUse, PostToolUseFailure). */
  execution?: ToolExecution | undefined;
  /** The error the tool threw (PostToolUseFailure). */
  error?: unknown;
  /** Why approval is needed (PermissionRequest), or why the call was refused (PermissionDenied). */
  permissionReason?: string | undefined;
  /** Whether the model is told it may retry the refused call (PermissionDenied). */
  retry?: boolean | undefined;
  /** Permission updates granted with the call (PermissionRequest; Claude Code's `updatedPermissions`). */
  updatedPermissions?: readonly Readonly<Record<string, unknown>>[] | undefined;
}

/**
 * The class behind {@link ToolHookContext}: its members are documented here. Construct contexts with
 * `new ToolHookContext(…)` or its static methods, and name their type {@link ToolHookContext}, which narrows by event.
 */
export class ToolHookContextClass<E extends ToolEventName = ToolEventName> extends HookContextBase<E> {
  static {
    brand(this, brandKey('ToolHookContext'));
  }

  /** The tool call (as rewritten by earlier hooks, if any). */
  readonly toolCall: ToolCall;
  /**
   * What the call produced: always set on PostToolUse and PostToolUseFailure (the type says so once the event is
   * known), `undefined` on the events before the call ran.
   */
  readonly execution: E extends 'PostToolUse' | 'PostToolUseFailure' ? ToolExecution : ToolExecution | undefined;
  /** The error the tool threw: set on PostToolUseFailure. */
  readonly error: unknown;
  /**
   * Why approval is needed (set on PermissionRequest when a hook asked), or why the approver refused the call (set on
   * PermissionDenied).
   */
  readonly permissionReason: string | undefined;
  /**
   * PermissionDenied: whether the model is told it may retry the refused call, as a Claude Code hook's `retry: true`
   * does. False until a hook returns {@link ToolHookContextClass.withRetry}; meaningless on the other tool events.
   */
  readonly retry: boolean;
  /**
   * PermissionRequest: permission updates granted together with the call — Claude Code's `updatedPermissions` (add a
   * rule, switch the permission mode), as a Claude Code hook answered them. Through the bridge they go back to Claude
   * Code, which applies them; an agent built here has no permission rules, so it ignores them, with a warning.
   */
  readonly updatedPermissions: readonly Readonly<Record<string, unknown>>[] | undefined;

  constructor(event: E, init: ToolHookContextInit) {
    super(event, init);
    // Another copy's ToolCall is as good (the ESM and CommonJS builds side by side): it is read through its public shape.
    if (!ToolCall.isToolCall(init.toolCall)) throw new TypeError(`A ${event} context needs a ToolCall.`);
    this.toolCall = init.toolCall;
    let execution = init.execution;
    // The type promises an execution on these events, so the constructor keeps the promise: a failure can be described
    // by its error alone, a success cannot be made up.
    if (execution === undefined && event === 'PostToolUseFailure') execution = ToolExecution.failure(init.toolCall, init.error);
    if (execution === undefined && event === 'PostToolUse') {
      throw new TypeError('A PostToolUse context needs the execution (use ToolHookContext.afterToolUse(execution)).');
    }
    this.execution = execution as this['execution'];
    this.error = init.error ?? (init.execution?.isError ? init.execution.error : undefined);
    this.permissionReason = init.permissionReason;
    this.retry = init.retry === true;
    this.updatedPermissions = init.updatedPermissions === undefined ? undefined : Object.freeze([...init.updatedPermissions]);
    Object.freeze(this);
  }

  // The fields of `init` are listed, not spread: on Node 20 `{ ...init, toolCall }` takes V8 off its fast path for
  // object literals (some 400 ns against 10), and a context is made for every dispatch.
  /** A PreToolUse context. */
  static beforeToolUse(toolCall: ToolCall, init: HookContextInit = {}): ToolHookContext<'PreToolUse'> {
    return new ToolHookContextClass('PreToolUse', { state: init.state, metadata: init.metadata, subagent: init.subagent, toolCall });
  }

  /** A PermissionRequest context. */
  static permissionRequest(
    toolCall: ToolCall,
    init: HookContextInit & { reason?: string } = {},
  ): ToolHookContext<'PermissionRequest'> {
    return new ToolHookContextClass('PermissionRequest', { state: init.state, metadata: init.metadata, subagent: init.subagent, toolCall, permissionReason: init.reason });
  }

  /** A PermissionDenied context: the approver refused `toolCall`, for `reason`. */
  static permissionDenied(toolCall: ToolCall, init: HookContextInit & { reason?: string } = {}): ToolHookContext<'PermissionDenied'> {
    return new ToolHookContextClass('PermissionDenied', { state: init.state, metadata: init.metadata, subagent: init.subagent, toolCall, permissionReason: init.reason });
  }

  /** A PostToolUse context for a successful execution. */
  static afterToolUse(execution: ToolExecution, init: HookContextInit = {}): ToolHookContext<'PostToolUse'> {
    return new ToolHookContextClass('PostToolUse', { state: init.state, metadata: init.metadata, subagent: init.subagent, toolCall: execution.toolCall, execution });
  }

  /** A PostToolUseFailure context; `durationMs`, how long the tool ran before it failed, when known. */
  static toolFailure(toolCall: ToolCall, error: unknown, init: HookContextInit = {}, durationMs?: number): ToolHookContext<'PostToolUseFailure'> {
    return new ToolHookContextClass('PostToolUseFailure', {
      state: init.state,
      metadata: init.metadata,
      subagent: init.subagent,
      toolCall,
      error,
      execution: ToolExecution.failure(toolCall, error, durationMs),
    });
  }

  /** Whether this is PreToolUse. */
  isBeforeTool(): this is ToolHookContext<'PreToolUse'> {
    return this.event === 'PreToolUse';
  }

  /** Whether this is PostToolUse or PostToolUseFailure. */
  isAfterTool(): this is ToolHookContext<'PostToolUse' | 'PostToolUseFailure'> {
    return this.event === 'PostToolUse' || this.event === 'PostToolUseFailure';
  }

  /** The tool's name (shorthand for `toolCall.name`). */
  get toolName(): string {
    return this.toolCall.name;
  }

  /** The error's message: always a string on PostToolUseFailure. */
  get errorMessage(): E extends 'PostToolUseFailure' ? string : string | undefined {
    const message = this.error === undefined && this.event !== 'PostToolUseFailure' ? undefined : messageOf(this.error);
    return message as E extends 'PostToolUseFailure' ? string : string | undefined;
  }

  override get subject(): string {
    return this.toolCall.name;
  }

  /** A copy with another tool call: the rewrite later hooks see and the tool receives (PreToolUse). */
  withToolCall(toolCall: ToolCall): this {
    if (!ToolCall.isToolCall(toolCall)) throw new TypeError('withToolCall() needs a ToolCall.');
    return this.copyWith({ toolCall } as Partial<this>);
  }

  /**
   * A copy that tells the model it may retry the refused call (PermissionDenied): the runtime adds Claude Code's
   * words for it (2.1.332: "The refusal above is not final for this call: …"), to the refusal the model sees.
   */
  withRetry(retry = true): this {
    return this.copyWith({ retry } as Partial<this>);
  }

  /** A copy that grants `updates` with the call (PermissionRequest): see {@link ToolHookContextClass.updatedPermissions}. */
  withUpdatedPermissions(updates: readonly Readonly<Record<string, unknown>>[]): this {
    if (!Array.isArray(updates)) throw new TypeError('withUpdatedPermissions() needs a list of permission updates.');
    return this.copyWith({ updatedPermissions: Object.freeze([...updates]) } as Partial<this>);
  }

  /** A copy with the call's arguments replaced. */
  withArgs(args: Record<string, unknown>): this {
    return this.withToolCall(this.toolCall.withArgs(args));
  }

  /** A copy with another execution result: what the model will see (PostToolUse). */
  withExecution(execution: ToolExecution): this {
    if (!ToolExecution.isToolExecution(execution)) throw new TypeError('withExecution() needs a ToolExecution.');
    return this.copyWith({ execution } as Partial<this>);
  }

  /** A copy whose execution has another result value. */
  withResult(result: unknown): this {
    const base = this.execution ?? ToolExecution.success(this.toolCall, undefined);
    return this.withExecution(base.withResult(result));
  }

  protected override ownFields(): Record<string, unknown> {
    return {
      toolCall: this.toolCall.toJSON(),
      ...(this.execution ? { execution: this.execution.toJSON() } : {}),
      ...(this.permissionReason !== undefined ? { permissionReason: this.permissionReason } : {}),
      ...(this.event === 'PermissionDenied' ? { retry: this.retry } : {}),
    };
  }
}

// Contexts keep the name users know in stack traces and error messages.
Object.defineProperty(ToolHookContextClass, 'name', { value: 'ToolHookContext' });

/**
 * PreToolUse, PermissionRequest, PermissionDenied, PostToolUse and PostToolUseFailure: one tool call, and for the
 * later events what it produced.
 *
 * As a type, `ToolHookContext` is one member per event (`ToolHookContext<'PreToolUse'> | …`), so checking the event
 * narrows the fields: after `ctx.event === 'PostToolUse'`, `ctx.execution` is a `ToolExecution`. As a value it is the
 * class ({@link ToolHookContextClass}): `new ToolHookContext(…)`, `ToolHookContext.afterToolUse(…)`, `instanceof`.
 *
 * ```ts
 * stack.with(new BeforeToolHook((ctx) => {
 *   if (String(ctx.toolCall.args.command).includes('rm -rf')) return HookOutcome.block('Dangerous command');
 * }, { matcher: 'bash' }));
 * ```
 */
export type ToolHookContext<E extends ToolEventName = ToolEventName> = E extends ToolEventName ? ToolHookContextClass<E> : never;

/** The tool events' context class; see {@link ToolHookContext}. */
export const ToolHookContext = ToolHookContextClass;
