// Internal: not exported from the package.
/**
 * The signature of a run snapshot: an HMAC over its JSON with keys sorted, so that a store that reorders keys (a
 * JSONB column) keeps it valid and any change to a value breaks it.
 *
 * @module
 */
import { nodeCrypto } from '../../core/internal/node-crypto.js';
import type { RunSnapshot } from '../run-snapshot.js';

/** `value` as JSON text with the keys of every object sorted. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
}

/** The signature of `snapshot` (its own `signature` left out) with `key`. */
export function signatureOf(snapshot: RunSnapshot, key: string | Uint8Array): string {
  const { signature: _ignored, ...rest } = snapshot;
  return nodeCrypto().createHmac('sha256', key).update(canonical(rest)).digest('hex');
}

/** Whether `snapshot` carries the signature `key` gives it. */
export function signedWith(snapshot: RunSnapshot, key: string | Uint8Array): boolean {
  if (typeof snapshot.signature !== 'string') return false;
  const expected = Buffer.from(signatureOf(snapshot, key), 'hex');
  const given = Buffer.from(snapshot.signature, 'hex');
  return given.length === expected.length && nodeCrypto().timingSafeEqual(given, expected);
}
