/**
 * Hooks that come from outside the program (HOOK.md folders, agent config files), loaded when the agent is built.
 *
 * @module
 */
import type { PrioritizedHook } from '../core/index.js';
import type { HookSourcesOptions } from '../agents/load-all.js';
import type { HookProblem } from '../script/problem.js';
import type { ProcessPool } from '../process/process-pool.js';
import type { Model } from './model.js';

/** What a hook source yields: hooks with their priorities, and the problems found loading them. */
export interface LoadedHooks {
  /** The hooks, in the order they were found (that order breaks priority ties). */
  readonly hooks: readonly PrioritizedHook[];
  /** What was wrong with the definitions that did not load (or loaded with a warning). */
  readonly problems: readonly HookProblem[];
  /**
   * What the agent says on stderr, once, at its first run: that hooks the user counts on were skipped (the project's
   * hooks not trusted yet). Leave it out when there is nothing to say, or when the user reports `problems` themselves.
   */
  readonly notice?: string | undefined;
}

/** What the agent being built lends its hook sources. */
export interface HookLoadContext {
  /** The agent's model (its own, or the parent's for a subagent): what Claude Code's prompt hooks are judged by. */
  readonly model: Model | undefined;
  /**
   * The pool the agent's options name for hook processes (`withOptions({ processPool })`), for sources not given a
   * pool of their own; `undefined` for the shared one.
   */
  readonly processPool?: ProcessPool | undefined;
}

/** Loads hooks from somewhere; called once per `build()`. */
export interface HookLoader {
  /** Where the hooks come from, for messages (e.g. `HOOK.md in /repo`). */
  readonly label: string;
  /** Loads them. Rejects only in strict mode. */
  load(context?: HookLoadContext): Promise<LoadedHooks>;
}

/** What `AgentBuilder.withHooksFrom` takes: which sources to load and how, and how skipped project hooks are told. */
export interface WithHooksFromOptions extends HookSourcesOptions {
  /**
   * Whether the agent says on stderr, once (at its first run), which project hooks it skipped because they are not
   * trusted (or changed since) and the command that trusts them (default true). Turn it off when you report the
   * `hook-problem:untrusted-hook` and `hook-problem:changed-hook` warnings yourself (`agent.events.on('warning')`, or
   * `ready()`'s problems); `strict: true` refuses to run instead.
   */
  readonly stderrNotice?: boolean | undefined;
}

/** What an agent's hooks are once every source has loaded. */
export interface AgentHooksReport {
  /** Every problem the sources reported. */
  readonly problems: readonly HookProblem[];
}
