/**
 * A problem found while loading hooks: what is wrong, where, and what would be right.
 *
 * @module
 */

/** How much a {@link HookProblem} matters: `error` > `warning` > `info`. */
export type HookProblemSeverity = 'error' | 'warning' | 'info';

/**
 * One problem with one hook definition. Loaders never throw on bad input: they return every problem they found next
 * to the hooks that did load, so one bad hook never hides the others.
 */
export interface HookProblem {
  /** The file the problem is in (absolute path). */
  readonly file: string;
  /** The field at fault, as a dotted path (`matcher.tool`, `priority`), when one field is. */
  readonly field?: string | undefined;
  /** What was found there, shortened for display. */
  readonly found?: string | undefined;
  /** What is allowed there. */
  readonly allowed?: string | undefined;
  /** One sentence: what is wrong and how to fix it. */
  readonly message: string;
  /**
   * `error`: the hook was not loaded. `warning`: it was loaded, but something looks wrong. `info`: nothing is wrong,
   * but the loader did something worth knowing (it skipped the agent-hooks bridge in an agent's config, which would
   * run the hooks it loads a second time); shown, never counted as a warning, never failing a check.
   */
  readonly severity: HookProblemSeverity;
  /** A stable, machine-readable kind, e.g. `missing-field`, `unknown-trigger`, `yaml-syntax`, `no-entry`. */
  readonly code: string;
  /** The hook's name, when it is known. */
  readonly hookName?: string | undefined;
  /** 1-based line in `file`, when known (YAML syntax errors). */
  readonly line?: number | undefined;
  /** 1-based column in `file`, when known (JSON syntax errors). */
  readonly column?: number | undefined;
}

/** Formats a problem as one line: `file:line: field: message (found …; allowed …)`. */
export function formatProblem(problem: HookProblem): string {
  const where =
    problem.line === undefined
      ? problem.file
      : `${problem.file}:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`;
  const field = problem.field === undefined ? '' : ` ${problem.field}:`;
  const extra = [
    problem.found === undefined ? undefined : `found ${problem.found}`,
    problem.allowed === undefined ? undefined : `allowed: ${problem.allowed}`,
  ].filter((s) => s !== undefined);
  return `${where}:${field} ${problem.message}${extra.length > 0 ? ` (${extra.join('; ')})` : ''}`;
}

/** Thrown by loaders in strict mode: every problem they found, at once. */
export class HookLoadError extends Error {
  /** The problems, in the order they were found. */
  readonly problems: readonly HookProblem[];

  constructor(problems: readonly HookProblem[]) {
    const errors = problems.filter((p) => p.severity === 'error').length;
    super(
      `${problems.length} problem${problems.length === 1 ? '' : 's'} loading hooks (${errors} error${errors === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  ${formatProblem(p)}`).join('\n'),
    );
    this.name = 'HookLoadError';
    this.problems = Object.freeze([...problems]);
  }
}
