/**
 * The result of running one tool call.
 *
 * @module
 */
import type { ToolCall, ToolCallJSON } from './tool-call.js';
import { BRAND, brand, brandKey, isInstance } from './internal/brand.js';
import { messageOf } from './internal/message-of.js';

const TOOL_EXECUTION = brandKey('ToolExecution');

/** The plain-object form of a {@link ToolExecution}. */
export interface ToolExecutionJSON {
  /** The call that was run. */
  toolCall: ToolCallJSON;
  /** The result, on success. */
  result?: unknown;
  /** The error's message, on failure. */
  error?: string;
  /** Whether the tool failed. */
  isError: boolean;
  /** How long it ran, in milliseconds, when measured. */
  durationMs?: number;
}

/**
 * What running a tool call produced: a value, or an error. Immutable.
 *
 * A PostToolUse hook that returns a `ToolExecution` (or `proceed(ctx.withExecution(e))`) replaces the result the model
 * sees.
 */
export class ToolExecution {
  /** The call that was run (after any PreToolUse rewrites). */
  readonly toolCall: ToolCall;
  /** The tool's return value (undefined on failure). */
  readonly result: unknown;
  /** The error the tool threw, when it failed. */
  readonly error: unknown;
  /** Whether the tool failed. */
  readonly isError: boolean;
  /** How long the tool ran, in milliseconds, when measured. */
  readonly durationMs: number | undefined;

  static {
    brand(this, TOOL_EXECUTION);
  }

  private constructor(toolCall: ToolCall, result: unknown, error: unknown, isError: boolean, durationMs?: number) {
    this.toolCall = toolCall;
    this.result = result;
    this.error = error;
    this.isError = isError;
    this.durationMs = durationMs;
    Object.freeze(this);
  }

  /**
   * Whether `value` is an execution: of this copy of the package, or of another one (its ESM and CommonJS builds loaded
   * side by side, or another installed version), which hooks and contexts accept just the same.
   */
  static isToolExecution(value: unknown): value is ToolExecution {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_EXECUTION] === BRAND;
  }

  /** Makes `instanceof ToolExecution` true for the executions of every copy of the package. */
  static [Symbol.hasInstance]<T>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
  }

  /** A successful execution. */
  static success(toolCall: ToolCall, result: unknown, durationMs?: number): ToolExecution {
    return new ToolExecution(toolCall, result, undefined, false, durationMs);
  }

  /** A failed execution. */
  static failure(toolCall: ToolCall, error: unknown, durationMs?: number): ToolExecution {
    return new ToolExecution(toolCall, undefined, error, true, durationMs);
  }

  /** Whether the tool succeeded. */
  isSuccess(): boolean {
    return !this.isError;
  }

  /** The error's message, when the tool failed. */
  get errorMessage(): string | undefined {
    if (!this.isError) return undefined;
    return messageOf(this.error);
  }

  /** The same execution with another result (a successful one). */
  withResult(result: unknown): ToolExecution {
    return new ToolExecution(this.toolCall, result, undefined, false, this.durationMs);
  }

  /** A plain object for logs and wire payloads. */
  toJSON(): ToolExecutionJSON {
    return {
      toolCall: this.toolCall.toJSON(),
      ...(this.isError ? { error: this.errorMessage ?? '' } : { result: this.result }),
      isError: this.isError,
      ...(this.durationMs !== undefined ? { durationMs: this.durationMs } : {}),
    };
  }
}
