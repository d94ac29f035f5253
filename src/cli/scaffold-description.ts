/**
 * The description `agent-hooks init` writes into a new HOOK.md until the author writes their own. It is valid, so
 * the loader accepts it; `validate` warns about it, since a hook that keeps it tells whoever reviews it nothing.
 *
 * @module
 */

/** The placeholder description `init` writes for the hook `name`. */
export function scaffoldDescription(name: string): string {
  return `Describe what ${name} checks, in a sentence or two.`;
}

/** Whether `description` is still {@link scaffoldDescription}'s placeholder, for any hook name (a folder renamed since). */
export function isScaffoldDescription(description: string): boolean {
  return /^Describe what \S+ checks, in a sentence or two\.$/.test(description);
}
