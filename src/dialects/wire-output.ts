/**
 * Reading a hook's exit-0 JSON answer: shared by the dialects, which differ in field names, not in how a field of the
 * wrong type is handled (ignored with a note; the rest still counts).
 *
 * @module
 */
import type { AnyHookContext, HookNote } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, WireHookInfo } from './dialect.js';
import { failureDecision, tail } from './failure.js';

/** An empty list, shared. */
export const NONE: readonly string[] = Object.freeze([]);

/** Whether `value` is a plain JSON object. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A decision that lets the action go on and says nothing. */
export const PROCEED: Decision = Object.freeze({ kind: 'proceed', additionalContext: NONE, notes: Object.freeze([]) });

/** The failure decision for output that cannot be read at all. */
export function invalidOutput(cause: string, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  return failureDecision({ code: 'invalid-output', cause, data: { stdout: tail(result.stdout) } }, result, ctx, hook);
}

/** Stdout parsed as a JSON object, or the failure decision saying why it is not one. */
export function parseJsonObject(
  text: string,
  result: ProcessResult,
  ctx: AnyHookContext,
  hook: WireHookInfo,
): { readonly ok: true; readonly output: Record<string, unknown> } | { readonly ok: false; readonly decision: Decision } {
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch (error) {
    return { ok: false, decision: invalidOutput(`printed output that is not JSON (${messageOf(error)})`, result, ctx, hook) };
  }
  if (!isRecord(output)) return { ok: false, decision: invalidOutput('printed JSON that is not an object', result, ctx, hook) };
  return { ok: true, output };
}

/**
 * Typed access to one JSON answer. Each getter returns `undefined` for an absent or null field, and for a field of the
 * wrong type, which it also records as a note: a hook's typo never costs the rest of its answer.
 */
export class OutputReader {
  /** The notes gathered so far. */
  readonly notes: HookNote[] = [];

  constructor(
    private readonly hook: WireHookInfo,
    private readonly ctx: AnyHookContext,
  ) {}

  /** Records that `field` was ignored, and why. */
  ignored(field: string, problem: string): void {
    this.notes.push({
      level: 'warning',
      hookName: this.hook.name,
      event: this.ctx.event,
      code: 'invalid-output',
      message: `Hook '${this.hook.name}' printed ${field} ${problem}; it is ignored.`,
      data: { field },
    });
  }

  /** A non-blank string. */
  text(object: Record<string, unknown>, field: string, path = field): string | undefined {
    const value = object[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim().length > 0 ? value : undefined;
    this.ignored(path, `as ${typeof value}, not a string`);
    return undefined;
  }

  /** A string or a list of strings, blanks dropped. */
  texts(object: Record<string, unknown>, field: string, path = field): readonly string[] {
    const value = object[field];
    if (value === undefined || value === null) return NONE;
    const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (items === undefined || items.some((item) => typeof item !== 'string')) {
      this.ignored(path, 'that is neither a string nor a list of strings');
      return NONE;
    }
    return (items as string[]).filter((s) => s.trim().length > 0);
  }

  /** A boolean. */
  bool(object: Record<string, unknown>, field: string, path = field): boolean | undefined {
    const value = object[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    this.ignored(path, 'that is not a boolean');
    return undefined;
  }

  /** A JSON object. */
  record(object: Record<string, unknown>, field: string, path = field): Record<string, unknown> | undefined {
    const value = object[field];
    if (value === undefined || value === null) return undefined;
    if (isRecord(value)) return value;
    this.ignored(path, `as ${Array.isArray(value) ? 'an array' : typeof value}, not an object`);
    return undefined;
  }

  /** One of `allowed` (a string); anything else is ignored with a note naming the allowed values. */
  choice<T extends string>(object: Record<string, unknown>, field: string, allowed: readonly T[], path = field): T | undefined {
    const value = object[field];
    if (value === undefined || value === null) return undefined;
    if ((allowed as readonly unknown[]).includes(value)) return value as T;
    const found = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
    this.ignored(path, `${found}, which is none of ${allowed.join(', ')}`);
    return undefined;
  }

  /**
   * New tool arguments for the context (PreToolUse and PermissionRequest only), or `undefined` with a note where
   * they mean nothing or are not an object.
   */
  toolInput(value: unknown, field: string): AnyHookContext | undefined {
    if (value === undefined || value === null) return undefined;
    const ctx = this.ctx;
    if (ctx.event !== 'PreToolUse' && ctx.event !== 'PermissionRequest') {
      this.ignored(field, `on ${ctx.event}, where only PreToolUse and PermissionRequest take a new tool input`);
      return undefined;
    }
    if (!isRecord(value)) {
      this.ignored(field, `as ${Array.isArray(value) ? 'an array' : typeof value}, not an object of tool arguments`);
      return undefined;
    }
    return ctx.withArgs(value);
  }

  /** A replacement tool result (PostToolUse only), or `undefined` with a note elsewhere. */
  toolResult(value: unknown, field: string): AnyHookContext | undefined {
    if (value === undefined) return undefined;
    if (this.ctx.event !== 'PostToolUse') {
      this.ignored(field, `on ${this.ctx.event}, where only PostToolUse has a result to replace`);
      return undefined;
    }
    return this.ctx.withResult(value);
  }
}
