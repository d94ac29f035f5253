// Internal: not exported from the package.
import { editDistance } from '../../core/internal/edit-distance.js';


const normalize = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');

/**
 * The known name a mistyped one most likely meant, or `undefined` when none is close. A difference of case or
 * separator only (`Priority`, `time_out`) counts as an exact hit; otherwise up to a third of the length may differ,
 * so short keys only match near-misses and not every other short key.
 */
export function closestName(given: string, known: readonly string[]): string | undefined {
  if (given.length > 100) return undefined;
  const wanted = normalize(given);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const name of known) {
    const candidate = normalize(name);
    const score = candidate === wanted ? 0 : editDistance(wanted, candidate);
    const allowed = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    if (score <= allowed && score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}
