/**
 * Subagents: agents the model calls like a tool, with a task.
 *
 * @module
 */
import type { Model } from './model.js';
import { checkToolName } from './internal/tool-name.js';
import type { Tool } from './tool.js';

/** Something that is, or builds, the subagent's agent (an `Agent` or an `AgentBuilder`). */
export interface SubagentAgentLike {
  /** Present on an AgentBuilder. */
  build?(): unknown;
}

/** What {@link defineSubagent} takes. */
export interface SubagentSpec {
  /** The tool name the model calls it by. */
  readonly name: string;
  /** What it is good at, for the model. */
  readonly description?: string | undefined;
  /** Its type, for SubagentStart/SubagentStop matchers (defaults to the name). */
  readonly type?: string | undefined;
  /** A built agent or a builder; otherwise one is made from the fields below and the parent's model. */
  readonly agent?: SubagentAgentLike | undefined;
  /** Its system prompt, when no agent is given. */
  readonly systemPrompt?: string | undefined;
  /** Its tools, when no agent is given. */
  readonly tools?: readonly Tool[] | undefined;
  /** Its model; defaults to the parent's. */
  readonly model?: Model | undefined;
  /** Its step limit. */
  readonly maxSteps?: number | undefined;
  /** Whether the parent's hooks run in the subagent too (before its own, at equal priority). Default true. */
  readonly inheritHooks?: boolean | undefined;
}

/** A subagent definition (frozen). */
export interface Subagent extends SubagentSpec {
  /** The subagent's type. */
  readonly type: string;
  /** The description the model sees. */
  readonly description: string;
  /** Whether the parent's hooks run in it. */
  readonly inheritHooks: boolean;
}

/**
 * Defines a subagent. The model sees it as a tool taking `{ task: string }`; calling it fires PreToolUse, then
 * SubagentStart (a block refuses it, a hook may rewrite the task), then the child's run — whose stop gate is
 * SubagentStop — then PostToolUse with the child's final text.
 */
export function defineSubagent(spec: SubagentSpec): Subagent {
  checkToolName('subagent', spec?.name);
  return Object.freeze({
    ...spec,
    type: spec.type ?? spec.name,
    description: spec.description ?? `Delegates a task to the ${spec.name} subagent.`,
    inheritHooks: spec.inheritHooks ?? true,
  });
}
