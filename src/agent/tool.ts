/**
 * Tools the agent can call, with zod-validated input.
 *
 * @module
 */
import type { z } from 'zod';
import { zod } from '../core/internal/zod-module.js';
import type { AgentState, ToolCall } from '../core/index.js';
import { checkToolName } from './internal/tool-name.js';
import { APPROVAL_DECISION_KINDS, type ApprovalDecisionKind, type ToolApprovalOptions } from './approval.js';

/** What a tool's `execute` receives besides its input. */
export interface ToolRunContext {
  /** The call being executed (after hooks rewrote it). */
  readonly toolCall: ToolCall;
  /** The agent's state when the call runs. */
  readonly state: AgentState;
  /** Aborts when the run is cancelled. */
  readonly signal: AbortSignal | undefined;
  /**
   * Shell lines to run ahead of a command, for a tool that runs shell commands: what the session's Claude Code
   * SessionStart hooks wrote to their `CLAUDE_ENV_FILE` (`export FOO=bar`), in the order they ran; `undefined` when
   * they wrote nothing. Claude Code runs them ahead of every Bash command, so a shell tool that honours them runs
   * `sh -c "<shellSetup>\n<command>"`. They reach no hook and not this process's environment.
   */
  readonly shellSetup?: string | undefined;
}

/** A tool as a model sees it: a name, a description and the JSON Schema of its input. */
export interface ToolDefinition {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /**
   * The JSON Schema of the input it accepts, from the zod schema's input side: what the model must send, so a field
   * with a default is optional and a transformed field shows the type it is transformed from.
   */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The zod schema itself, for adapters that take one. */
  readonly input: z.ZodType;
}

/** A tool: its definition and how to run it. */
export interface Tool<I = unknown, O = unknown> extends ToolDefinition {
  /** The zod schema the input is validated with before any hook sees the call. */
  readonly input: z.ZodType<I>;
  /** Runs the tool. A throw (or rejection) is a tool failure the model is told about. */
  execute(input: I, context: ToolRunContext): O | Promise<O>;
  /** What a reviewer may decide about its calls when a hook asks for approval; every decision when absent. */
  readonly approval?: ToolApprovalOptions | undefined;
}

/** What {@link defineTool} takes. */
export interface ToolSpec<S extends z.ZodType, O> {
  /** The name the model calls it by: letters, digits, `_`, `-` and `.`. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description?: string | undefined;
  /** The zod 4 schema of its input (a zod 3 schema is refused); defaults to an empty object. */
  readonly input?: S | undefined;
  /** Runs the tool with the validated input. */
  execute(input: z.output<S>, context: ToolRunContext): O | Promise<O>;
  /**
   * What a reviewer may decide about its calls when a hook asks for approval, e.g. `{ allowed: ['approve', 'reject'] }`
   * for a tool whose input a reviewer may not edit nor answer for.
   */
  readonly approval?: ToolApprovalOptions | undefined;
}


/**
 * Defines a tool. Its input is validated with the zod schema before hooks run; invalid input is a tool failure the
 * model is told about (PostToolUseFailure fires), never a crash. The schema is of zod 4: a zod 3 schema is refused
 * with a `TypeError` that says so.
 *
 * ```ts
 * const bash = defineTool({
 *   name: 'bash',
 *   description: 'Runs a shell command',
 *   input: z.object({ command: z.string() }),
 *   execute: async ({ command }) => run(command),
 * });
 * ```
 */
export function defineTool<S extends z.ZodType = z.ZodObject<{}>, O = unknown>(spec: ToolSpec<S, O>): Tool<z.output<S>, O> {
  checkToolName('tool', spec?.name);
  if (typeof spec.execute !== 'function') throw new TypeError(`Tool '${spec.name}' needs an execute(input, context) function.`);
  const input = (spec.input ?? zod().object({})) as z.ZodType;
  checkZod4(spec.name, input);
  let inputSchema: Record<string, unknown>;
  try {
    inputSchema = zod().toJSONSchema(input, { io: 'input' }) as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`Tool '${spec.name}': its input schema cannot be expressed as JSON Schema (${(error as Error).message}).`);
  }
  const approval = checkApproval(spec.name, spec.approval);
  return Object.freeze({
    name: spec.name,
    description: spec.description ?? '',
    input: input as z.ZodType<z.output<S>>,
    inputSchema: Object.freeze(inputSchema),
    execute: spec.execute,
    ...(approval !== undefined ? { approval } : {}),
  });
}

/** The tool's approval options, checked and frozen. */
function checkApproval(name: string, approval: ToolApprovalOptions | undefined): ToolApprovalOptions | undefined {
  if (approval === undefined) return undefined;
  const allowed = (approval as { allowed?: unknown } | null)?.allowed;
  if (allowed === undefined) return Object.freeze({});
  const kinds = APPROVAL_DECISION_KINDS.join(', ');
  if (!Array.isArray(allowed) || allowed.length === 0) throw new TypeError(`Tool '${name}': approval.allowed must be a non-empty list of ${kinds}.`);
  const unknown = allowed.filter((k) => !APPROVAL_DECISION_KINDS.includes(k as ApprovalDecisionKind));
  if (unknown.length > 0) throw new TypeError(`Tool '${name}': approval.allowed has ${unknown.map((k) => JSON.stringify(k)).join(', ')}; the decisions are ${kinds}.`);
  return Object.freeze({ allowed: Object.freeze([...new Set(allowed as ApprovalDecisionKind[])]) });
}

/**
 * Refuses an input schema that is not of zod 4, whose JSON Schema and validation the agent relies on: a zod 3
 * schema (`_def` but no `_zod`) would otherwise fail later with an error that says nothing of zod.
 */
function checkZod4(name: string, input: unknown): void {
  if (typeof input === 'object' && input !== null && '_zod' in input) return;
  const what = typeof input === 'object' && input !== null && '_def' in input ? 'a zod 3 schema' : `not a zod schema (${typeof input})`;
  throw new TypeError(
    `Tool '${name}': its input schema is ${what}; defineTool() needs a zod 4 schema. ` +
      `Install zod 4 (npm install zod@^4) and import { z } from 'zod'.`,
  );
}

/** Thrown into PostToolUseFailure when a call's input does not match the tool's schema. */
export class ToolInputError extends Error {
  /** Always `'ToolInputError'`. */
  override readonly name = 'ToolInputError';
  /** The tool. */
  readonly toolName: string;
  /** Each problem, as `path: message`. */
  readonly issues: readonly string[];

  constructor(toolName: string, error: z.ZodError) {
    const issues = error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(input)'}: ${i.message}`);
    super(`Invalid input for tool '${toolName}': ${issues.join('; ')}`);
    this.toolName = toolName;
    this.issues = Object.freeze(issues);
  }
}

/** Thrown into PostToolUseFailure when the model calls a tool the agent does not have. */
export class UnknownToolError extends Error {
  /** Always `'UnknownToolError'`. */
  override readonly name = 'UnknownToolError';
  /** The name the model used. */
  readonly toolName: string;

  constructor(toolName: string, available: readonly string[]) {
    super(`Unknown tool '${toolName}'. Available tools: ${available.length > 0 ? available.join(', ') : '(none)'}.`);
    this.toolName = toolName;
  }
}

/**
 * Thrown into PostToolUseFailure when the model calls one of the agent's tools that was not offered for that step: a
 * BeforeToolSelection hook narrowed the selection (or chose mode `none`), or a BeforeModel hook rewrote the request's
 * tools. The call is refused as a call to an unknown tool is: before PreToolUse, and the model is told.
 */
export class ToolNotOfferedError extends Error {
  /** Always `'ToolNotOfferedError'`. */
  override readonly name = 'ToolNotOfferedError';
  /** The name the model used. */
  readonly toolName: string;
  /** The tools that were offered for the step. */
  readonly offered: readonly string[];

  constructor(toolName: string, offered: readonly string[]) {
    super(`Tool '${toolName}' was not offered this step, so it was not run. Offered tools: ${offered.length > 0 ? offered.join(', ') : '(none)'}.`);
    this.toolName = toolName;
    this.offered = Object.freeze([...offered]);
  }
}
