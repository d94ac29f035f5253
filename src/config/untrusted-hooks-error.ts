/**
 * Project hooks left out for want of trust: which problems say so, how to name them, and the error `strict` loads
 * throw for them.
 *
 * @module
 */
import { basename } from 'node:path';
import { formatProblem, HookLoadError, type HookProblem } from '../script/problem.js';

/** The codes of the problems that say a project hook was left out: it is not trusted, changed since, or cannot be pinned. */
const SKIPPED_CODES: ReadonlySet<string> = new Set(['untrusted-hook', 'changed-hook', 'unpinnable-hook']);

/**
 * Whether `problem` says a project hook was left out for want of trust (`untrusted-hook`, `changed-hook`,
 * `unpinnable-hook`): a hook the project meant to run that does not.
 */
export function isSkippedProjectHook(problem: HookProblem): boolean {
  return SKIPPED_CODES.has(problem.code);
}

/** One skipped hook, for a message: its name, its file, and why it was skipped. */
export function describeSkippedHook(problem: HookProblem): string {
  const why =
    problem.code === 'changed-hook' ? 'changed since it was trusted' : problem.code === 'unpinnable-hook' ? 'cannot be pinned to be trusted' : 'not trusted yet';
  const field = problem.field === undefined ? '' : ` ${problem.field}`;
  return `'${problem.hookName ?? basename(problem.file)}' (${problem.file}${field}), ${why}`;
}

/**
 * Thrown by a `strict` load when a project hook was left out for want of trust: with `strict`, a guard the project
 * ships that would not run is a refusal, not a warning. Its message names each skipped hook, its file and the fix;
 * `problems` holds every problem of the load, as a {@link HookLoadError}'s does.
 */
export class UntrustedHooksError extends HookLoadError {
  /** The problems of the hooks left out (`untrusted-hook`, `changed-hook`, `unpinnable-hook`). */
  readonly skipped: readonly HookProblem[];

  constructor(problems: readonly HookProblem[], projectDir: string) {
    super(problems);
    this.name = 'UntrustedHooksError';
    this.skipped = Object.freeze(problems.filter(isSkippedProjectHook));
    const one = this.skipped.length === 1;
    const others = problems.filter((p) => !isSkippedProjectHook(p));
    this.message =
      `strict: ${one ? 'a project hook' : `${this.skipped.length} project hooks`} would be skipped, so the hooks were not loaded and an agent built with them does not run: ` +
      `${this.skipped.map(describeSkippedHook).join('; ')}. ` +
      `Review and trust ${one ? 'it' : 'them'} with 'npx agent-hooks trust' in ${projectDir}, then run again; or drop strict: true to run without ${one ? 'it' : 'them'}.` +
      (others.length === 0 ? '' : `\nOther problems:\n${others.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  }
}
