/**
 * The docs' "What happens when a hook fails" (docs/failures.md) says what the fault matrix tests: its table is the matrix, row by row,
 * and the defaults its cleanup line names are the runner's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from 'agent-hooks';
import { AGENT_ROWS, FAULTS, faultRow, OUTPUT_CAP_BYTES, tableRows } from './matrix.js';

const readme = readFileSync(new URL('../../docs/failures.md', import.meta.url), 'utf8');
const TITLE = '## What happens when a hook fails';

/** The section, from its title to the next title of the same level. */
function section(): string {
  const start = readme.indexOf(`\n${TITLE}\n`);
  expect(start, `a "${TITLE}" section in docs/failures.md`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + TITLE.length);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The cells of the section's table, header and separator left out. */
function table(text: string): string[][] {
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  expect(lines[0]).toBe('| the hook … | note code | failing open | failing closed |');
  expect(lines[1]).toBe('|---|---|---|---|');
  return lines.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim()),
  );
}

describe('docs: what happens when a hook fails', () => {
  it('has one table row per fault of the matrix, with its note code and its outcome failing open and closed', () => {
    expect(table(section())).toEqual(tableRows());
  });

  it('names the runner’s defaults in its cleanup line, and the matrix floods into the default cap', () => {
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(1024 * 1024);
    expect(OUTPUT_CAP_BYTES).toBe(DEFAULT_MAX_OUTPUT_BYTES);
    const text = section().replace(/\s+/g, ' ');
    expect(text).toContain('`maxOutputBytes`, 1 MiB by default');
    expect(text).toContain(`\`killGraceMs\` (${DEFAULT_KILL_GRACE_MS / 1000} s by default)`);
    expect(text).toContain('SIGTERM, then SIGKILL');
  });

  it('runs the agent-loop subset on rows of the matrix', () => {
    for (const id of AGENT_ROWS) expect(FAULTS).toContain(faultRow(id));
  });
});
