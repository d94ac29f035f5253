/**
 * Whether a HOOK.md is text as the format's reference runtime reads it: UTF-8, without a NUL byte. It reads the file
 * as UTF-8 and refuses it otherwise, and its YAML parser refuses a NUL; decoding with U+FFFD in place of bad bytes
 * would load a hook whose name, matcher or instructions are not what its author wrote.
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import type { HookProblem } from './problem.js';

/** The 1-based line, counted from `firstLine` at `start`, of the first line of `bytes[start, end)` that fails `ok`. */
function lineOf(bytes: Buffer, start: number, end: number, firstLine: number, ok: (line: Buffer) => boolean): number {
  let line = firstLine;
  let from = start;
  while (from < end) {
    const lf = bytes.indexOf(0x0a, from);
    const to = lf === -1 || lf >= end ? end : lf;
    if (!ok(bytes.subarray(from, to))) return line;
    from = to + 1;
    line++;
  }
  return line;
}

/**
 * Why `bytes[start, end)` of `file` is not text a HOOK.md may hold (a NUL byte, or bytes that are not UTF-8), as an
 * error naming the file and the line; `undefined` when it is text.
 *
 * @internal
 */
export function notTextProblem(file: string, bytes: Buffer, start: number, end: number, firstLine: number): HookProblem | undefined {
  const part = bytes.subarray(start, end);
  const nul = part.indexOf(0);
  if (nul !== -1) {
    return {
      file,
      line: lineOf(bytes, start, end, firstLine, (l) => !l.includes(0)),
      severity: 'error',
      code: 'not-utf8',
      found: 'a NUL byte',
      allowed: 'UTF-8 text',
      message: 'This HOOK.md holds a NUL byte, so it is not text: the reference runtime refuses it, and so does this. Save it as plain UTF-8 text.',
    };
  }
  if (isUtf8(part)) return undefined;
  return {
    file,
    line: lineOf(bytes, start, end, firstLine, (l) => isUtf8(l)),
    severity: 'error',
    code: 'not-utf8',
    found: 'bytes that are not UTF-8',
    allowed: 'UTF-8 text',
    message: 'This HOOK.md is not UTF-8 text (it may be saved as Latin-1 or UTF-16): the reference runtime refuses it, and so does this. Save it as UTF-8.',
  };
}

/**
 * Throws when a HOOK.md body read from `file` is not text (see {@link notTextProblem}); the error names the file.
 *
 * @internal
 */
export function assertBodyText(file: string, body: Buffer): void {
  const problem = notTextProblem(file, body, 0, body.length, 1);
  if (problem !== undefined) throw new Error(`${file}: the body of this HOOK.md is not text — ${problem.message}`);
}
