// Internal: not exported from the package.

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

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
