/**
 * The server's structured log: one line per record on stderr, as JSON (`{"time","level","msg",…}`) or as text.
 *
 * @module
 */

/**
 * How much the server logs, least to most.
 *
 * @internal
 */
export type ServeLogLevel = 'error' | 'warn' | 'info' | 'debug';

/**
 * JSON lines for a log collector, or text for a person.
 *
 * @internal
 */
export type ServeLogFormat = 'json' | 'text';

const RANK: Readonly<Record<ServeLogLevel, number>> = { error: 0, warn: 1, info: 2, debug: 3 };

/**
 * Writes the server's records.
 *
 * @internal
 */
export interface ServeLog {
  /** Whether records of `level` are written: callers skip building the fields of one that is not. */
  enabled(level: ServeLogLevel): boolean;
  /** Writes one record. */
  write(level: ServeLogLevel, msg: string, fields?: Readonly<Record<string, unknown>>): void;
}

/**
 * A log of `level` and above, in `format`, handed to `sink` one line at a time (default: stderr).
 *
 * @internal
 */
export function serveLog(format: ServeLogFormat = 'json', level: ServeLogLevel = 'info', sink: (line: string) => void = (line) => process.stderr.write(line)): ServeLog {
  const max = RANK[level];
  return {
    enabled: (at) => RANK[at] <= max,
    write(at, msg, fields = {}) {
      if (RANK[at] > max) return;
      const time = new Date().toISOString();
      if (format === 'json') {
        sink(`${JSON.stringify({ time, level: at, msg, ...fields })}\n`);
        return;
      }
      const rest = Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`)
        .join(' ');
      sink(`${time} ${at.toUpperCase().padEnd(5)} ${msg}${rest === '' ? '' : ` ${rest}`}\n`);
    },
  };
}

/**
 * A log that writes nothing.
 *
 * @internal
 */
export const SILENT_LOG: ServeLog = Object.freeze({ enabled: () => false, write: () => undefined });

/**
 * A sink that hands `sink` the lines written in one turn of the event loop together, in order, rather than one call
 * each: at a hundred requests in flight the line per request cost the server some fifth of its throughput
 * (`npm run bench -- serve`, against `--log-level warn`), a console call and a write of its own each time among it.
 * Lines still held when the process exits are handed over then.
 *
 * @internal
 */
export function batchedSink(sink: (text: string) => void): (line: string) => void {
  let held: string[] = [];
  const flush = (): void => {
    if (held.length === 0) return;
    const text = held.join('');
    held = [];
    sink(text);
  };
  process.once('exit', flush);
  return (line) => {
    if (held.push(line) === 1) setImmediate(flush);
  };
}
