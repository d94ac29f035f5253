/**
 * The context of UserPromptSubmit.
 *
 * @module
 */
import { HookContextBase, type HookContextInit } from './hook-context.js';
import { brand, brandKey } from '../internal/brand.js';

/** The fields of a {@link PromptHookContext}. */
export interface PromptHookContextInit extends HookContextInit {
  /** The user's prompt. */
  prompt: string;
}

/**
 * UserPromptSubmit: the user's prompt before the agent sees it. A hook may rewrite it (return a string, or
 * `proceed(ctx.withPrompt(p))`) or reject it with `block(reason)`.
 */
export class PromptHookContext extends HookContextBase<'UserPromptSubmit'> {
  static {
    brand(this, brandKey('PromptHookContext'));
  }

  /** The prompt (as rewritten by earlier hooks, if any). */
  readonly prompt: string;

  constructor(init: PromptHookContextInit) {
    super('UserPromptSubmit', init);
    if (typeof init.prompt !== 'string') throw new TypeError('A UserPromptSubmit context needs a string prompt.');
    this.prompt = init.prompt;
    Object.freeze(this);
  }

  // Fields listed, not spread: see ToolHookContext.beforeToolUse.
  /** A UserPromptSubmit context. */
  static onSubmit(prompt: string, init: HookContextInit = {}): PromptHookContext {
    return new PromptHookContext({ state: init.state, metadata: init.metadata, prompt });
  }

  /** A copy with another prompt. */
  withPrompt(prompt: string): this {
    if (typeof prompt !== 'string') throw new TypeError('withPrompt() needs a string.');
    return this.copyWith({ prompt } as Partial<this>);
  }

  protected override ownFields(): Record<string, unknown> {
    return { prompt: this.prompt };
  }
}
