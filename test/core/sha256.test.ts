/**
 * The SHA-256 a bridged call hashes with (src/core/internal/sha256.ts), so that it need not load `node:crypto`: its
 * digests must be `node:crypto`'s, byte for byte, whatever the input and however it is fed — a trust fingerprint made
 * by one must match one made by the other.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SMALL_INPUT_BYTES, Sha256, hashOf, sha256Hex } from '../../src/core/internal/sha256.js';

const reference = (parts: readonly (string | Uint8Array)[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

describe('SHA-256 without node:crypto', () => {
  it('gives the standard digests (FIPS 180-4 examples, the empty input, the padding edges)', () => {
    expect(new Sha256().digest()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(new Sha256().update('abc').digest()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(new Sha256().update('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq').digest()).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    // 55, 56 and 64 bytes: the length fits in the last block, needs one more, and the data fills a block exactly.
    for (const n of [55, 56, 63, 64, 65, 119, 120, 128]) expect(new Sha256().update('a'.repeat(n)).digest(), `${n} bytes`).toBe(reference(['a'.repeat(n)]));
  });

  it("is node:crypto's for any bytes, fed in any pieces", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }), (parts) => {
        const hash = new Sha256();
        for (const part of parts) hash.update(part);
        expect(hash.digest()).toBe(reference(parts));
      }),
      { numRuns: 500 },
    );
  });

  it("is node:crypto's for any text, hashed as UTF-8 (astral characters and lone surrogates too)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 100 }), { maxLength: 5 }), (parts) => {
        const hash = new Sha256();
        for (const part of parts) hash.update(part);
        expect(hash.digest()).toBe(reference(parts));
      }),
      { numRuns: 300 },
    );
  });

  it('hands a large input to node:crypto and a small one to itself, with the same digest either way', () => {
    expect(hashOf(SMALL_INPUT_BYTES)).toBeInstanceOf(Sha256);
    expect(hashOf(SMALL_INPUT_BYTES + 1)).not.toBeInstanceOf(Sha256);
    expect(hashOf(undefined)).not.toBeInstanceOf(Sha256);
    const big = new Uint8Array(SMALL_INPUT_BYTES + 4096).map((_, i) => (i * 7 + 3) & 0xff);
    expect(sha256Hex(big)).toBe(reference([big]));
    const fed = new Sha256();
    for (let at = 0; at < big.length; at += 1000) fed.update(big.subarray(at, at + 1000));
    expect(fed.digest()).toBe(reference([big]));
    expect(sha256Hex('é'.repeat(40_000))).toBe(reference(['é'.repeat(40_000)]));
  });

  it('refuses to be fed or read after its digest, as a Hash does', () => {
    const hash = new Sha256().update('x');
    hash.digest();
    expect(() => hash.update('y')).toThrow('Digest already called');
    expect(() => hash.digest()).toThrow('Digest already called');
  });
});
