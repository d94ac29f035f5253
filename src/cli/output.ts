/**
 * How commands print: aligned tables, problems, JSON.
 *
 * @module
 */
import { relative, isAbsolute } from 'node:path';
import { formatProblem, type HookProblem } from '../script/problem.js';
import type { CliIO, Style } from './io.js';
import { escapeControls, escapeJsonControls } from './terminal-text.js';

/** A cell of a table: its text, and how to colour it once padded (colour codes must not count towards the width). */
export type Cell = string | { readonly text: string; readonly paint: (text: string) => string };

// A cell is one value, often from a hook file: its control characters (a newline too) are shown, not obeyed.
const textOf = (cell: Cell): string => escapeControls(typeof cell === 'string' ? cell : cell.text);

/**
 * Rows under a header, each column as wide as its widest cell, the header dimmed. Control characters in a cell are
 * shown as escapes (`\r`, `\x1b`), so a value from a hook file cannot rewrite the line it is printed on.
 */
export function table(style: Style, header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => textOf(row[i] ?? '').length)));
  const line = (cells: readonly Cell[]): string =>
    cells
      .map((cell, i) => {
        const padded = i === cells.length - 1 ? textOf(cell) : textOf(cell).padEnd(widths[i]!);
        return typeof cell === 'string' ? padded : cell.paint(padded);
      })
      .join('  ')
      .trimEnd();
  return [style.dim(line(header)), ...rows.map(line)].join('\n');
}

/** `file` relative to `cwd` when it lies inside it, else as given: shorter, and still a path a shell accepts. */
export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** One problem per line, errors red, warnings yellow and information cyan, paths relative to the current directory. */
export function problemLines(style: Style, problems: readonly HookProblem[], cwd: string): string[] {
  return problems.map((p) => {
    const label = p.severity === 'error' ? style.red('error') : p.severity === 'warning' ? style.yellow('warning') : style.cyan('info');
    return `${label} ${escapeControls(formatProblem({ ...p, file: displayPath(p.file, cwd) }), true)}`;
  });
}

/** Whether a problem is only information: shown, but neither an error nor a warning. */
export const isInfo = (p: HookProblem): boolean => p.severity === 'info';

/** `2 errors, 1 warning`, and `, 1 info` when there is information. */
export function problemCounts(problems: readonly HookProblem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  const infos = problems.filter(isInfo).length;
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${infos > 0 ? `, ${infos} info` : ''}`;
}

/**
 * The problems section of `list` and `run`: headed `Problems` with the counts, or `Info` when there is only
 * information, so that a note is not presented as something to fix.
 */
export function problemSection(style: Style, problems: readonly HookProblem[], cwd: string): string {
  const heading = problems.every(isInfo) ? style.bold('Info') : `${style.bold('Problems')} (${problemCounts(problems)})`;
  return `${heading}\n${problemLines(style, problems, cwd).join('\n')}`;
}

/** Whether a problem says a project hook was skipped because it is not trusted (or changed since it was). */
export const isTrustProblem = (p: HookProblem): boolean => p.code === 'untrusted-hook' || p.code === 'changed-hook';

/**
 * Tells on standard error which project hooks were skipped for want of trust, one line each with the fix, and
 * returns the other problems (for the command to print where it prints problems).
 */
export function warnUntrusted(io: CliIO, problems: readonly HookProblem[]): HookProblem[] {
  for (const p of problems) if (isTrustProblem(p)) io.err(`agent-hooks: skipped: ${escapeControls(formatProblem({ ...p, file: displayPath(p.file, io.cwd) }), true)}`);
  return problems.filter((p) => !isTrustProblem(p));
}

/** Whether any problem is an error: what makes a command exit 1 (warnings are shown, not failed on). */
export const hasErrors = (problems: readonly HookProblem[]): boolean => problems.some((p) => p.severity === 'error');

/**
 * Prints `value` as indented JSON, with every control character (DEL and C1 too, which `JSON.stringify` leaves raw)
 * as a JSON escape: the same value, safe on a terminal.
 */
export function printJson(io: CliIO, value: unknown): void {
  io.out(escapeJsonControls(JSON.stringify(value, null, 2)));
}

/** A problem as `--json` prints it: every field, `null` where unknown, so the shape never varies. */
export function problemJson(p: HookProblem) {
  return {
    severity: p.severity,
    code: p.code,
    file: p.file,
    line: p.line ?? null,
    hookName: p.hookName ?? null,
    field: p.field ?? null,
    found: p.found ?? null,
    allowed: p.allowed ?? null,
    message: p.message,
  };
}

/** A value on one line, for tables and summaries: JSON, shortened. */
export function oneLine(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Milliseconds to a tenth, for `--json`: finer digits are noise in a process's duration. */
export const roundMs = (ms: number | undefined): number | null => (ms === undefined ? null : Math.round(ms * 10) / 10);
