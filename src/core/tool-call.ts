/**
 * A request from the model to run one tool.
 *
 * @module
 */
import { BRAND, brand, brandKey, isInstance } from './internal/brand.js';
import { frozenRecord } from './internal/frozen.js';
import { jsonDepthProblem } from './internal/json-depth.js';
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

const describeValue = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (value === undefined) return 'nothing';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${String(value)})`;
};

/** The arguments `fromArray` was given: absent is none, a JSON string is parsed, and either way an object results. */
function argsFrom(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  let args = value;
  if (typeof value === 'string') {
    // An empty string is how some models say "no arguments".
    if (value.trim() === '') return {};
    try {
      args = JSON.parse(value);
    } catch (error) {
      throw new TypeError(`${field} is a string but not valid JSON (${(error as Error).message}).`);
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new TypeError(`${field} must be an object (or a JSON string of one), got ${describeValue(args)}.`);
  }
  return args as Record<string, unknown>;
}

const argsJson = new WeakMap<ToolCall, string>();

const TOOL_CALL = brandKey('ToolCall');

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

  static {
    brand(this, TOOL_CALL);
  }

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

  /**
   * A call from its plain-object form: the inverse of {@link ToolCall.toJSON}, so `ToolCall.fromArray(call.toJSON())`
   * is the same call. Named after the PHP `ToolCall::fromArray`, and like it, it also reads the arguments under
   * `arguments` (PHP's and OpenAI's key) and as a JSON string (how OpenAI sends them). Without an `id`, one is made.
   * Other keys are ignored.
   *
   * @throws TypeError naming the field that is missing or has the wrong type.
   */
  static fromArray(value: unknown): ToolCall {
    const where = 'ToolCall.fromArray()';
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new TypeError(`${where} needs an object { name, args, id? }, got ${describeValue(value)}.`);
    }
    const record = value as Record<string, unknown>;
    const { name, id } = record;
    if (typeof name !== 'string' || name.length === 0) {
      throw new TypeError(`${where}: 'name' must be a non-empty string, got ${describeValue(name)}.`);
    }
    if (id !== undefined && typeof id !== 'string') {
      throw new TypeError(`${where}: 'id' must be a string when given, got ${describeValue(id)}.`);
    }
    const hasArgs = record['args'] !== undefined;
    const hasArguments = record['arguments'] !== undefined;
    if (hasArgs && hasArguments) {
      throw new TypeError(`${where}: give the arguments once, as 'args' or as 'arguments', not both.`);
    }
    const key = hasArguments ? 'arguments' : 'args';
    return new ToolCall(name, argsFrom(record[key], `${where}: '${key}'`), id);
  }

  /**
   * Whether `value` is a tool call: of this copy of the package, or of another one (its ESM and CommonJS builds loaded
   * side by side, or another installed version), which hooks and contexts accept just the same.
   */
  static isToolCall(value: unknown): value is ToolCall {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_CALL] === BRAND;
  }

  /** Makes `instanceof ToolCall` true for the calls of every copy of the package, as {@link ToolCall.isToolCall}. */
  static [Symbol.hasInstance]<T>(this: { readonly prototype: T }, value: unknown): value is T {
    return isInstance(this, value);
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

  /**
   * The arguments as JSON, computed once per call.
   *
   * @throws RangeError when the arguments nest objects or arrays more than 256 levels deep (or in a cycle), before
   *   serialising them: no hook is ever sent such input, and a matcher counts it as a match, so its hook runs and
   *   refuses it.
   */
  argsJson(): string {
    let json = argsJson.get(this);
    if (json === undefined) {
      const problem = jsonDepthProblem(this.args);
      if (problem !== undefined) throw new RangeError(`The arguments of tool call '${this.name}' cannot be serialised: ${problem}.`);
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
