/**
 * A request from the model to run one tool.
 *
 * @module
 */
import { frozenRecord } from './internal/frozen.js';
import { canonicalToolName } from './tool-vocabulary.js';

/** The arguments of a tool call: a JSON object. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/** The plain-object form of a {@link ToolCall}. */
export interface ToolCallJSON {
  /** The call's id. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments. */
  args: ToolArgs;
}

let generatedIds = 0;

const argsJson = new WeakMap<ToolCall, string>();

/**
 * One tool call: its id, the tool's name and the arguments. Immutable: `with…` methods return a new call.
 *
 * A PreToolUse hook that returns a `ToolCall` (or `HookOutcome.proceed(ctx.withToolCall(call))`) rewrites the call
 * that later hooks see and the tool receives.
 */
export class ToolCall {
  /** The call's id, as the model gave it (or generated when it gave none). */
  readonly id: string;
  /** The name of the tool to run. */
  readonly name: string;
  /** The arguments, frozen (shallowly). */
  readonly args: ToolArgs;

  constructor(name: string, args: Record<string, unknown> = {}, id?: string) {
    if (typeof name !== 'string' || name.length === 0) {
      throw new TypeError(`A tool call needs a non-empty tool name, got ${JSON.stringify(name)}.`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      throw new TypeError(`The arguments of tool call '${name}' must be an object, got ${Array.isArray(args) ? 'an array' : typeof args}.`);
    }
    this.id = id ?? `call_${++generatedIds}`;
    this.name = name;
    this.args = frozenRecord(args);
    Object.freeze(this);
  }

  /** A new call. Same as the constructor, for readability: `ToolCall.create('bash', { command: 'ls' })`. */
  static create(name: string, args: Record<string, unknown> = {}, id?: string): ToolCall {
    return new ToolCall(name, args, id);
  }

  /**
   * The tool's canonical (HOOK.md) name — `Shell` for Claude Code's `Bash`, Gemini CLI's `run_shell_command` and
   * Copilot CLI's `bash` — or `undefined` when the vocabulary does not know the name (see {@link TOOL_VOCABULARY}).
   * Test it beside {@link ToolCall.name} to decide the same whichever agent made the call.
   */
  get canonicalName(): string | undefined {
    return canonicalToolName(this.name);
  }

  /** One argument, or `fallback` when absent. */
  arg<T = unknown>(key: string, fallback?: T): T {
    return (Object.hasOwn(this.args, key) ? this.args[key] : fallback) as T;
  }

  /** The same call with these arguments instead. */
  withArgs(args: Record<string, unknown>): ToolCall {
    return new ToolCall(this.name, args, this.id);
  }

  /** The same call with some arguments added or replaced (a shallow merge). */
  withArg(key: string, value: unknown): ToolCall {
    return new ToolCall(this.name, { ...this.args, [key]: value }, this.id);
  }

  /** The same call aimed at another tool. */
  withName(name: string): ToolCall {
    return new ToolCall(name, this.args, this.id);
  }

  /** The arguments as JSON, computed once per call. */
  argsJson(): string {
    let json = argsJson.get(this);
    if (json === undefined) {
      json = JSON.stringify(this.args) ?? '{}';
      argsJson.set(this, json);
    }
    return json;
  }

  /** A plain object: `{ id, name, args }`. */
  toJSON(): ToolCallJSON {
    return { id: this.id, name: this.name, args: this.args };
  }
}
