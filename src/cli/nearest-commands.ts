/**
 * "Did you mean …?" for a command line whose command does not exist: the commands nearest by edit distance.
 *
 * @module
 * @internal
 */
import type { Command } from './command.js';

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (`lsit`, `tset`): the commonest slip in a
 * command typed by hand, which plain Levenshtein counts as two.
 */
function typoDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Summary openings that are not what the command does (`every hook …`, `the lifecycle events …`). */
const NOT_VERBS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'one', 'every', 'each']);

/**
 * The words a command answers to: its name, and the verb its summary opens with — someone who types
 * `agent-hooks fire` means `test`, whose summary opens "fire one hook …".
 */
function wordsOf(command: Command): string[] {
  const verb = /^[a-z]+/.exec(command.summary)?.[0];
  return verb === undefined || NOT_VERBS.has(verb) || verb === command.name ? [command.name] : [command.name, verb];
}

/**
 * The commands nearest to `given`, all those at the smallest distance, in the order given; none when even the
 * nearest differs in more than a third of its letters (at least 2 may differ), so that a word unlike every command
 * gets the usage instead of a guess.
 *
 * @internal
 */
export function nearestCommands(given: string, commands: readonly Command[]): Command[] {
  const word = given.toLowerCase();
  if (word.length > 100) return [];
  const scored = commands.map((command) => ({
    command,
    distance: Math.min(...wordsOf(command).map((w) => typoDistance(word, w))),
  }));
  const best = Math.min(...scored.map((s) => s.distance));
  if (best > Math.max(2, Math.floor(word.length / 3))) return [];
  return scored.filter((s) => s.distance === best).map((s) => s.command);
}
