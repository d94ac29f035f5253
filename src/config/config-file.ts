/**
 * Reading an agent's JSON config file: missing is normal, unreadable or invalid is a problem naming the file and
 * the position, never an exception.
 *
 * @module
 */
import { jsonDepthProblem } from '../core/internal/json-depth.js';
import { messageOf } from '../core/internal/message-of.js';
import { fileReads } from '../process/file-reads.js';
import type { HookProblem } from '../script/problem.js';

/**
 * What reading one config file gave.
 *
 * @internal
 */
export type ConfigFileRead =
  | {
      /** There is no such file: normal, nothing to report. */
      readonly status: 'missing';
    }
  | {
      /** The file was read and parsed. */
      readonly status: 'ok';
      /** Its JSON value. */
      readonly value: unknown;
    }
  | {
      /** The file could not be read or is not JSON. */
      readonly status: 'invalid';
      /** What is wrong, and where. */
      readonly problem: HookProblem;
    };

/** The 1-based line and column of character `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** How deep {@link jsonErrorOffset} follows nesting: far past any real config file, far short of the stack's end. */
const MAX_SCANNED_DEPTH = 1024;

/**
 * The offset of the first character that makes `text` invalid JSON (its length when the text ends too early). V8's
 * messages carry a position for some errors only, so the text is scanned once more to find it. Nesting deeper than
 * 1024 levels counts as invalid where it goes past that depth.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) if (text[i++] !== ch) (i--, fail());
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const ch = text[i]!;
      if (ch === '"') return void i++;
      if (ch < ' ') fail();
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) ((i += k), fail());
          i += 5;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else i++;
    }
  };
  // Sticky, so that reading a number does not copy the rest of the text each time.
  const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const number = (): void => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail();
    i += match![0].length;
  };
  // The scan recurses once per level: past this depth the text is refused there, never the stack overflowed.
  let depth = 0;
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      if (depth >= MAX_SCANNED_DEPTH) fail();
      depth++;
      container(ch);
      depth--;
      return;
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  const container = (ch: '{' | '['): void => {
    if (ch === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
  };
  try {
    value();
    space();
    return i < text.length ? i : text.length;
  } catch (offset) {
    return offset as number;
  }
}

/**
 * Parses `text` (the contents of `file`) as JSON; a syntax error becomes a problem with its line and column.
 *
 * @internal
 */
export function parseConfigJson(text: string, file: string): ConfigFileRead {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) return { status: 'ok', value: {} };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const { line, column } = lineAndColumn(body, jsonErrorOffset(body));
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
  // Entries are hashed and sent to hooks as JSON: a file nested past what can be serialised safely is refused whole.
  const deep = jsonDepthProblem(value);
  if (deep !== undefined) {
    return { status: 'invalid', problem: { file, severity: 'error', code: 'invalid-json', message: `The file cannot be read safely: ${deep}; none of this file's hooks were loaded.` } };
  }
  return { status: 'ok', value };
}

/**
 * The largest agent config file read: 1 MiB. Real ones are a few KiB; a repository's settings file of gigabytes must
 * not take the memory (and the time) of every load, the bridge's on each tool call among them.
 *
 * @internal
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** The problem of a config file over {@link MAX_CONFIG_FILE_BYTES}: its hooks are not loaded; the others still are. */
function tooLarge(file: string, size: number): ConfigFileRead {
  return {
    status: 'invalid',
    problem: {
      file,
      severity: 'error',
      code: 'file-too-large',
      found: `${size} bytes`,
      allowed: `at most ${MAX_CONFIG_FILE_BYTES} bytes (1 MiB)`,
      message:
        "The file is larger than an agent's config file may be, so none of its hooks were loaded (the other files' hooks still were). " +
        'Keep long scripts in files of their own and name them in the command.',
    },
  };
}

/**
 * Reads and parses a JSON config file; a file that does not exist is `missing`, not a problem. A file larger than
 * {@link MAX_CONFIG_FILE_BYTES} is not read: it is a `file-too-large` problem.
 *
 * @internal
 */
export async function readConfigFile(file: string): Promise<ConfigFileRead> {
  let text: string;
  try {
    // Non-blocking (see FileReads.open), and a regular file only: a project's settings file that is a FIFO must not
    // hang the load.
    const fd = await fileReads.open(file);
    try {
      const info = await fileReads.fstat(fd);
      if (!info.isFile()) {
        return { status: 'invalid', problem: { file, severity: 'error', code: 'unreadable', message: 'Cannot read the file: it is not a regular file. Replace it with one.' } };
      }
      if (info.size > MAX_CONFIG_FILE_BYTES) return tooLarge(file, info.size);
      // Read up to the cap, however much the file grew since the stat.
      const chunks: Buffer[] = [];
      let length = 0;
      for (;;) {
        const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, MAX_CONFIG_FILE_BYTES + 1 - length));
        const bytesRead = await fileReads.read(fd, chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        chunks.push(chunk.subarray(0, bytesRead));
        length += bytesRead;
        if (length > MAX_CONFIG_FILE_BYTES) return tooLarge(file, length);
      }
      text = Buffer.concat(chunks, length).toString('utf8');
    } finally {
      await fileReads.close(fd);
    }
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
