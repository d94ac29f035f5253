/**
 * The recorded payloads of two versions of one agent (`fixtures/<agent>/<version>/<event>.json`), compared by shape:
 * the keys each event's payload has and the type of each value. Values are not compared — the recorder scrubs what
 * changes from run to run, and the text of a prompt says nothing of the wire format — so what is listed is a key
 * added, a key removed, a value of another type, or an event one version sends and the other does not.
 *
 * Each change is one line (`PreToolUse: + tool_input.timeout (number)`); a newer version's `CHANGES.md` acknowledges
 * a change by holding that line, with whatever note says why it is harmless or what was done about it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each key path of a payload (`tool_input.command`, `messages[].role`) and the type of its value(s). */
export type Shape = ReadonlyMap<string, string>;

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The shape of `payload`: arrays are one path (`key[]`) whose type is the union of their elements' types. */
export function shapeOf(payload: unknown): Shape {
  const types = new Map<string, Set<string>>();
  const walk = (value: unknown, path: string): void => {
    if (path !== '') {
      const seen = types.get(path) ?? new Set<string>();
      seen.add(typeOf(value));
      types.set(path, seen);
    }
    if (Array.isArray(value)) for (const item of value) walk(item, `${path}[]`);
    else if (value !== null && typeof value === 'object') for (const [key, v] of Object.entries(value)) walk(v, path === '' ? key : `${path}.${key}`);
  };
  walk(payload, '');
  return new Map([...types].map(([path, set]) => [path, [...set].sort().join('|')]));
}

/** The shape of each event recorded in `dir`, by file name without `.json` (`PreToolUse`, `UserPromptSubmit.2`). */
export function shapesIn(dir: string): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  if (!existsSync(dir)) return shapes;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const event = file.slice(0, -'.json'.length);
    let payload: unknown;
    try {
      payload = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
    } catch (error) {
      throw new Error(`The fixture ${join(dir, file)} is not JSON (${(error as Error).message}): record it again with test/agents/record-payloads.ts.`);
    }
    shapes.set(event, shapeOf(payload));
  }
  return shapes;
}

/** The changes from the fixtures in `older` to those in `newer`, one line each, sorted by event then path. */
export function fixtureChanges(older: string, newer: string): string[] {
  const before = shapesIn(older);
  const after = shapesIn(newer);
  const changes: string[] = [];
  for (const event of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(event);
    const b = after.get(event);
    if (a === undefined) changes.push(`${event}: new event recorded`);
    else if (b === undefined) changes.push(`${event}: no longer recorded`);
    else {
      for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
        const was = a.get(path);
        const is = b.get(path);
        if (was === undefined) changes.push(`${event}: + ${path} (${is})`);
        else if (is === undefined) changes.push(`${event}: - ${path} (${was})`);
        else if (was !== is) changes.push(`${event}: ~ ${path} (${was} → ${is})`);
      }
    }
  }
  return changes;
}

/** The changes that `newer`'s `CHANGES.md` does not hold, verbatim. */
export function unacknowledged(changes: readonly string[], newer: string): string[] {
  const file = join(newer, 'CHANGES.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return changes.filter((change) => !text.includes(change));
}

/** `a` compared with `b` as dotted release numbers (`0.171.0` after `0.169.0`); a pre-release tag sorts by text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    // A pre-release (`1.0.0-beta.1`) comes before its release (`1.0.0`).
    if (y === '' && !/^\d+$/.test(x)) return -1;
    if (x === '' && !/^\d+$/.test(y)) return 1;
    const nx = Number(x);
    const ny = Number(y);
    const d = x !== '' && y !== '' && Number.isInteger(nx) && Number.isInteger(ny) ? nx - ny : x.localeCompare(y);
    if (d !== 0) return d;
  }
  return 0;
}
