/**
 * Reading a HOOK.md: only the frontmatter at start-up, the body when the hook fires (progressive disclosure).
 *
 * @module
 */
import type * as Yaml from 'yaml';
import { lazyModule } from '../core/internal/lazy-module.js';
import { fileReads } from '../process/file-reads.js';
import { parseSimpleYaml } from './internal/simple-yaml.js';
import { assertBodyText, notTextProblem } from './frontmatter-text.js';
import { readYaml11Scalars } from './frontmatter-yaml11.js';
import type { HookManifest } from './manifest.js';
import type { HookProblem } from './problem.js';

// Only a frontmatter outside the fast path's subset needs the YAML parser.
const yaml = lazyModule<typeof Yaml>('yaml');

/**
 * The most a frontmatter may take, delimiters included. The spec expects ~100 tokens of metadata, but the reference
 * runtime sets no bound, and a frontmatter of 70 KB loads there; the cap keeps a HOOK.md that forgot its closing `---`
 * from being read to the end, however large its body.
 *
 * @internal
 */
export const FRONTMATTER_MAX_BYTES = 1024 * 1024;

/**
 * How much is read at a time: one small read covers a typical frontmatter (the spec expects ~100 tokens), and at most
 * this much of the body is read with it. A larger frontmatter takes a few more reads.
 *
 * @internal
 */
export const FRONTMATTER_CHUNK_BYTES = 512;

/**
 * The frontmatter block of a HOOK.md, found without reading the body.
 *
 * @internal
 */
export interface FrontmatterBlock {
  /** Discriminant: the block was found. */
  readonly ok: true;
  /** The YAML between the two `---` lines. */
  readonly text: string;
  /** The 1-based line of the file on which `text` starts, to report YAML errors at their place in the file. */
  readonly textLine: number;
  /** Byte offset where the body starts: just after the closing `---` line. */
  readonly bodyOffset: number;
  /** Bytes actually read from disk (at least the frontmatter, rounded up to whole chunks). */
  readonly bytesRead: number;
}

/**
 * Why a HOOK.md's frontmatter could not be had.
 *
 * @internal
 */
export interface FrontmatterFailure {
  /** Discriminant: no usable frontmatter. */
  readonly ok: false;
  /** What is wrong (at least one). */
  readonly problems: readonly HookProblem[];
  /** Bytes read from disk before giving up, so that discovery statistics stay honest. */
  readonly bytesRead: number;
}

/**
 * A parsed frontmatter, not yet validated.
 *
 * @internal
 */
export interface ParsedFrontmatter {
  /** Discriminant: the YAML parsed. */
  readonly ok: true;
  /** The YAML value, `null` for an empty frontmatter; a mapping when well-formed, but the validator decides. */
  readonly data: unknown;
  /** YAML warnings (unknown tags, …): the frontmatter is usable, but may not say what its author meant. */
  readonly problems: readonly HookProblem[];
  /** Byte offset where the body starts. */
  readonly bodyOffset: number;
  /** Bytes read from disk. */
  readonly bytesRead: number;
}

/**
 * Options of {@link readFrontmatter}.
 *
 * @internal
 */
export interface ReadFrontmatterOptions {
  /** The largest frontmatter accepted, in bytes. Default {@link FRONTMATTER_MAX_BYTES}. */
  readonly maxBytes?: number;
  /** Bytes per read. Default {@link FRONTMATTER_CHUNK_BYTES}. */
  readonly chunkBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const DELIMITER = Buffer.from('---');

/** Whether bytes [start, end) are `---`, ignoring trailing blanks and a CR that an editor may leave behind. */
function isDelimiter(buf: Buffer, start: number, end: number): boolean {
  while (end > start && (buf[end - 1] === 0x0d || buf[end - 1] === 0x20 || buf[end - 1] === 0x09)) end--;
  return end - start === 3 && buf.compare(DELIMITER, 0, 3, start, end) === 0;
}

const failure = (problem: HookProblem, bytesRead: number): FrontmatterFailure => ({
  ok: false,
  problems: [problem],
  bytesRead,
});

/** Reads from a file descriptor in chunks, growing one buffer, so that lines can span chunk boundaries. */
class ChunkReader {
  buf: Buffer;
  length = 0;
  eof = false;

  constructor(
    private readonly fd: number,
    private readonly chunk: number,
    private readonly max: number,
  ) {
    this.buf = Buffer.allocUnsafe(Math.min(chunk, max));
  }

  /** Reads one more chunk; false once nothing more can be read (end of file, or the cap is reached). */
  async more(): Promise<boolean> {
    if (this.eof || this.length >= this.max) return false;
    const want = Math.min(this.chunk, this.max - this.length);
    if (this.buf.length < this.length + want) {
      const bigger = Buffer.allocUnsafe(Math.min(this.max, Math.max(this.buf.length * 2, this.length + want)));
      this.buf.copy(bigger, 0, 0, this.length);
      this.buf = bigger;
    }
    const bytesRead = await fileReads.read(this.fd, this.buf, this.length, want, this.length);
    if (bytesRead === 0) this.eof = true;
    this.length += bytesRead;
    return bytesRead > 0;
  }

  /**
   * The end of the line starting at `from` (index of its LF, of a CR not followed by one — a file saved with old Mac
   * line endings —, or of the end of the file for a last line without one), reading more as needed; `undefined` when
   * there is no line there or the cap cut it.
   */
  async lineEnd(from: number): Promise<number | undefined> {
    let searched = from;
    for (;;) {
      const view = this.buf.subarray(0, this.length);
      const lf = view.indexOf(LF, searched);
      const cr = view.subarray(0, lf === -1 ? this.length : lf).indexOf(CR, searched);
      if (cr !== -1) {
        if (cr + 1 < this.length) return view[cr + 1] === LF ? cr + 1 : cr;
        // A CR last in what has been read: a LF may follow it.
        if (!(await this.more())) return cr;
        continue;
      }
      if (lf !== -1) return lf;
      searched = this.length;
      if (!(await this.more())) return this.eof && from < this.length ? this.length : undefined;
    }
  }
}

/**
 * Finds the frontmatter of a HOOK.md and reads nothing past it: the file is read in small chunks until the closing
 * `---` line, so a hook with a megabyte of documentation costs discovery one 512-byte read. The first line must be
 * `---`, and only a line that is exactly `---` (trailing blanks allowed) closes the block; a `---` inside a value or
 * in the body after the block changes nothing.
 *
 * Never throws: a missing file is a `missing-file` problem (discovery skips such folders), any other I/O error is
 * `unreadable`.
 *
 * @internal
 */
export async function readFrontmatter(file: string, options: ReadFrontmatterOptions = {}): Promise<FrontmatterBlock | FrontmatterFailure> {
  const maxBytes = options.maxBytes ?? FRONTMATTER_MAX_BYTES;
  let fd: number;
  try {
    // Non-blocking (see FileReads.open): a HOOK.md which is a FIFO reads as empty instead of waiting for a writer.
    fd = await fileReads.open(file);
  } catch (error) {
    return failure(ioProblem(file, error), 0);
  }
  const reader = new ChunkReader(fd, options.chunkBytes ?? FRONTMATTER_CHUNK_BYTES, maxBytes);
  try {
    while (reader.length < BOM.length && (await reader.more()));
    const start = reader.length >= 3 && reader.buf.compare(BOM, 0, 3, 0, 3) === 0 ? 3 : 0;
    const openEnd = await reader.lineEnd(start);
    if (openEnd === undefined || !isDelimiter(reader.buf, start, openEnd)) {
      return failure(
        {
          file,
          line: 1,
          message: 'HOOK.md must start with a --- frontmatter block: put a line with only --- first, then name, description and trigger, then another ---.',
          severity: 'error',
          code: 'no-frontmatter',
        },
        reader.length,
      );
    }
    const textStart = openEnd + 1;
    let lineStart = textStart;
    let line = 2;
    for (;;) {
      const end = await reader.lineEnd(lineStart);
      if (end === undefined) break;
      if (isDelimiter(reader.buf, lineStart, end)) {
        const notText = notTextProblem(file, reader.buf, 0, lineStart, 1);
        if (notText !== undefined) return failure(notText, reader.length);
        const text = reader.buf.toString('utf8', textStart, lineStart);
        return {
          ok: true,
          // YAML reads a lone CR as a line break, as LF and CRLF; the fast path and problems' line numbers want LF.
          text: text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text,
          textLine: 2,
          bodyOffset: Math.min(end + 1, reader.length),
          bytesRead: reader.length,
        };
      }
      lineStart = end + 1;
      line++;
    }
    if (reader.eof) {
      return failure(
        {
          file,
          line: 1,
          message: `The frontmatter opened on line 1 is never closed: add a line with only --- after its last key (the file ends at line ${line - 1}).`,
          severity: 'error',
          code: 'unterminated-frontmatter',
        },
        reader.length,
      );
    }
    return failure(
      {
        file,
        line: 1,
        found: `no closing --- within ${maxBytes} bytes`,
        allowed: `a frontmatter of at most ${maxBytes} bytes`,
        message: `No closing --- line in the first ${Math.round(maxBytes / 1024)} KiB: close the frontmatter after its last key, and move long text into the body.`,
        severity: 'error',
        code: 'frontmatter-too-large',
      },
      reader.length,
    );
  } catch (error) {
    return failure(ioProblem(file, error), reader.length);
  } finally {
    await fileReads.close(fd).catch(() => undefined);
  }
}

function ioProblem(file: string, error: unknown): HookProblem {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return { file, message: 'There is no HOOK.md here.', severity: 'error', code: 'missing-file' };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { file, message: `HOOK.md cannot be read: ${reason}.`, severity: 'error', code: 'unreadable' };
}

// The spec's own example, pattern: "\.(py|js|ts)$", is such an error: regexes are where people meet it.
const DQ_ESCAPE_HINT =
  " Inside double quotes a backslash starts a YAML escape: write a regex in single quotes ('\\.py$') or double each backslash.";

/** Removes yaml's own "at line N, column M:" and code frame: the problem carries the line, in file terms. */
const yamlReason = (message: string): string => message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');

/**
 * Parses a frontmatter block as YAML. Syntax errors come back as `yaml-syntax` problems whose `line` is counted in
 * the HOOK.md file (the opening `---` is line 1), so an editor can jump to them. Duplicate keys are errors, as YAML
 * wants; alias expansion is bounded by the `yaml` package, so a hostile file cannot blow up memory. The plain
 * `key: value` frontmatters most hooks have take a fast path that gives the same result as `yaml` in a hundredth of
 * the time; anything else goes to `yaml`.
 *
 * @internal
 */
export function parseFrontmatter(block: FrontmatterBlock, file: string): ParsedFrontmatter | FrontmatterFailure {
  const simple = parseSimpleYaml(block.text);
  if (simple !== undefined) {
    const read = readYaml11Scalars(simple, block, file);
    return { ok: true, data: read.data, problems: read.problems, bodyOffset: block.bodyOffset, bytesRead: block.bytesRead };
  }
  const doc = yaml().parseDocument(block.text, { uniqueKeys: true, prettyErrors: true });
  const at = (linePos: readonly { line: number }[] | undefined) =>
    linePos?.[0] === undefined ? undefined : linePos[0].line + block.textLine - 1;
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((error) => ({
        file,
        line: at(error.linePos),
        message: `YAML syntax error: ${yamlReason(error.message)}.${error.code === 'BAD_DQ_ESCAPE' ? DQ_ESCAPE_HINT : ''}`,
        severity: 'error' as const,
        code: 'yaml-syntax',
      })),
      bytesRead: block.bytesRead,
    };
  }
  const numbers = wholeNumberProblems(doc, block, file);
  if (numbers.length > 0) return { ok: false, problems: numbers, bytesRead: block.bytesRead };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return failure(
      { file, message: `YAML error: ${yamlReason((error as Error).message)}.`, severity: 'error', code: 'yaml-syntax' },
      block.bytesRead,
    );
  }
  const yaml11 = readYaml11Scalars(data, block, file);
  return {
    ok: true,
    data: yaml11.data,
    problems: [...yaml11.problems, ...doc.warnings.map((warning) => ({
      file,
      line: at(warning.linePos),
      message: `YAML warning: ${yamlReason(warning.message)}.`,
      severity: 'warning' as const,
      code: 'yaml-warning',
    }))],
    bodyOffset: block.bodyOffset,
    bytesRead: block.bytesRead,
  };
}

/** The fields that must be written as whole numbers. */
const WHOLE_NUMBER_FIELDS = ['timeout', 'priority'];

/**
 * `timeout: 5000.0` or `priority: 1e3`: YAML reads a whole number, but the author wrote a float, and the reference
 * runtime refuses it ("must be an integer"); so is it refused here, with the number to write instead.
 */
function wholeNumberProblems(doc: Yaml.Document.Parsed, block: FrontmatterBlock, file: string): HookProblem[] {
  const problems: HookProblem[] = [];
  const { isMap, isScalar } = yaml();
  if (!isMap(doc.contents)) return problems;
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || !WHOLE_NUMBER_FIELDS.includes(String(pair.key.value)) || !isScalar(pair.value)) continue;
    const { value, source, range } = pair.value;
    if (typeof value !== 'number' || source === undefined || /^[-+]?\d+$/.test(source.trim())) continue;
    const field = String(pair.key.value);
    const line = range == null ? undefined : block.text.slice(0, range[0]).split('\n').length - 1 + block.textLine;
    const whole = Number.isInteger(value) ? `write it as the whole number ${value}` : 'write a whole number';
    problems.push({
      file,
      line,
      field,
      found: source,
      allowed: 'a whole number written with digits only',
      message: `${field} is written ${source}, which is not an integer: ${whole} (the reference runtime refuses it too).`,
      severity: 'error',
      code: 'invalid-type',
    });
  }
  return problems;
}

/**
 * The body of a HOOK.md (everything after the frontmatter), read only now: the second stage of progressive
 * disclosure. One leading newline — the blank line conventionally left after the closing `---` — is dropped.
 * `bodyOffset` is the one recorded at discovery; a file edited since should be discovered again.
 *
 * @throws the file system's error when the file cannot be read, and an error naming the file when the body is not
 * UTF-8 text or holds a NUL byte: by now the hook is running, and its runner decides.
 *
 * @internal
 */
export async function readHookBody(manifest: Pick<HookManifest, 'file' | 'bodyOffset'>): Promise<string> {
  const fd = await fileReads.open(manifest.file);
  try {
    const { size } = await fileReads.fstat(fd);
    const length = Math.max(0, size - manifest.bodyOffset);
    const buf = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const bytesRead = await fileReads.read(fd, buf, filled, length - filled, manifest.bodyOffset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    assertBodyText(manifest.file, buf.subarray(0, filled));
    const body = buf.toString('utf8', 0, filled);
    return body.startsWith('\r\n') ? body.slice(2) : body.startsWith('\n') || body.startsWith('\r') ? body.slice(1) : body;
  } finally {
    await fileReads.close(fd);
  }
}
