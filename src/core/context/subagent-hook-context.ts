/**
 * The context of SubagentStart.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The fields of a {@link SubagentHookContext}. */
export interface SubagentHookContextInit extends HookContextInit {
  /** The subagent's name. */
  name: string;
  /** The subagent's type (its role, e.g. `'coder'`); defaults to the name. */
  type?: string | undefined;
  /** The task it is given. */
  task: string;
}

/** SubagentStart: a subagent is about to run a task. A block refuses to start it. */
export class SubagentHookContext extends HookContextBase<'SubagentStart'> {
  static {
    brand(this, brandKey('SubagentHookContext'));
  }

  /** The subagent's name. */
  readonly name: string;
  /** The subagent's type (its role). */
  readonly type: string;
  /** The task it is given. */
  readonly task: string;

  constructor(init: SubagentHookContextInit) {
    super('SubagentStart', init);
    this.name = init.name;
    this.type = init.type ?? init.name;
    this.task = init.task;
    Object.freeze(this);
  }

  /** A SubagentStart context. */
  static onStart(init: SubagentHookContextInit): SubagentHookContext {
    return new SubagentHookContext(init);
  }

  /** A copy with another task description. */
  withTask(task: string): this {
    return this.copyWith({ task } as Partial<this>);
  }

  override get subject(): string {
    return this.type;
  }

  protected override ownFields(): Record<string, unknown> {
    return { name: this.name, type: this.type, task: this.task };
  }
}
