/**
 * Reading an agent's JSON config file: missing is normal, unreadable or invalid is a problem naming the file and
 * the position, never an exception.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { messageOf } from '../core/internal/message-of.js';
import type { HookProblem } from '../script/problem.js';

/** What reading one config file gave. */
export type ConfigFileRead =
  | { readonly status: 'missing' }
  | { readonly status: 'ok'; readonly value: unknown }
  | { readonly status: 'invalid'; readonly problem: HookProblem };

/** The 1-based line and column of character `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** Where V8's JSON error points: `at position N`, `(line L column C)`, or the end for a truncated file. */
function errorPosition(message: string, text: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /at position (\d+)/.exec(message);
  if (position) return lineAndColumn(text, Number(position[1]));
  return lineAndColumn(text, text.length);
}

/** Parses `text` (the contents of `file`) as JSON; a syntax error becomes a problem with its line and column. */
export function parseConfigJson(text: string, file: string): ConfigFileRead {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) return { status: 'ok', value: {} };
  try {
    return { status: 'ok', value: JSON.parse(body) };
  } catch (error) {
    const { line, column } = errorPosition(messageOf(error), body);
    return {
      status: 'invalid',
      problem: {
        file,
        line,
        column,
        severity: 'error',
        code: 'invalid-json',
        message: `Not valid JSON (${messageOf(error)}); none of this file's hooks were loaded. Fix the syntax at line ${line}, column ${column}.`,
      },
    };
  }
}

/** Reads and parses a JSON config file; a file that does not exist is `missing`, not a problem. */
export async function readConfigFile(file: string): Promise<ConfigFileRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return {
      status: 'invalid',
      problem: { file, severity: 'error', code: 'unreadable', message: `Cannot read the file: ${messageOf(error)}.` },
    };
  }
  return parseConfigJson(text, file);
}
