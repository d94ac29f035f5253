/**
 * The benchmark reports the docs cite as their evidence (`bench/results/<time>.json`, or `…<time>.json` after a full
 * name of the same day) are in the repository: `bench/results/*.json` is ignored by git, so a report cited but never
 * added with `git add -f` exists only on the machine that ran it, and a reader who follows the citation finds nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const FILES = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Every report `text` cites, the short forms completed from the full name before them. */
function citedReports(text: string): string[] {
  const cited: string[] = [];
  let day: string | undefined;
  for (const match of text.matchAll(/bench\/results\/(\d{4}-\d{2}-\d{2})T([\d-]+Z)\.json|…([\d-]+Z)\.json/g)) {
    if (match[1] !== undefined) {
      day = match[1];
      cited.push(`${match[1]}T${match[2]}.json`);
    } else if (day !== undefined) {
      cited.push(`${day}T${match[3]}.json`);
    }
  }
  return cited;
}

/** The reports git holds; `undefined` outside a git checkout (a packed copy), where the files on disk are what there is. */
function trackedReports(): Set<string> | undefined {
  if (!existsSync(join(root, '.git'))) return undefined;
  try {
    const listed = execFileSync('git', ['ls-files', 'bench/results'], { cwd: root, encoding: 'utf8' });
    return new Set(listed.split('\n').filter((line) => line !== '').map((line) => line.slice('bench/results/'.length)));
  } catch {
    return undefined;
  }
}

describe('the benchmark reports the docs cite', () => {
  it('completes a short citation from the full name before it', () => {
    expect(citedReports('(`bench/results/2026-12-02T03-05-41-219Z.json`, `…03-06-28-274Z.json` and `…03-06-08-669Z.json`)')).toEqual([
      '2026-12-02T03-05-41-219Z.json',
      '2026-12-02T03-06-28-274Z.json',
      '2026-12-02T03-06-08-669Z.json',
    ]);
  });

  it('are all in the repository', () => {
    const tracked = trackedReports();
    const missing: string[] = [];
    for (const file of FILES) {
      for (const report of citedReports(readFileSync(join(root, file), 'utf8'))) {
        const present = tracked === undefined ? existsSync(join(root, 'bench', 'results', report)) : tracked.has(report);
        if (!present) missing.push(`${file} cites bench/results/${report}, which is not in the repository (git add -f it, or cite a run that is)`);
      }
    }
    expect(missing).toEqual([]);
  });
});
