// Internal: not exported from the package.
//
// SHA-256 (FIPS 180-4) in JavaScript, for the small inputs of a bridged hook call — a hook folder's files, a trust
// fingerprint's canonical JSON, a notice's digest. Loading `node:crypto` costs a Node process more than hashing a few
// kilobytes here does (on Node 24 it loads some twenty of Node's internal modules, about a fifth of a bare start),
// and a bridged call pays every load on every tool call. Digests are byte for byte those of `node:crypto`, which a
// property test checks; large inputs go to `node:crypto` (see `hashOf`).
import { nodeCrypto } from './node-crypto.js';

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const;

/** A running SHA-256, fed with `update` and read once with `digest`, as `node:crypto`'s `Hash` is. */
export class Sha256 {
  private readonly h = Uint32Array.from(INITIAL);
  private readonly w = new Uint32Array(64);
  private readonly block = new Uint8Array(64);
  private filled = 0;
  private length = 0;
  private done = false;

  /** Adds `data` (a string is hashed as UTF-8). */
  update(data: string | Uint8Array): this {
    if (this.done) throw new Error('Digest already called');
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    this.length += bytes.length;
    let at = 0;
    if (this.filled > 0) {
      const take = Math.min(64 - this.filled, bytes.length);
      this.block.set(bytes.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.compress(bytes, at);
    if (at < bytes.length) {
      this.block.set(bytes.subarray(at), 0);
      this.filled = bytes.length - at;
    }
    return this;
  }

  /** The digest, as lowercase hex. */
  digest(): string {
    if (this.done) throw new Error('Digest already called');
    this.done = true;
    const bits = this.length * 8;
    const block = this.block;
    block[this.filled++] = 0x80;
    if (this.filled > 56) {
      block.fill(0, this.filled);
      this.compress(block, 0);
      this.filled = 0;
    }
    block.fill(0, this.filled, 56);
    const high = Math.floor(bits / 0x100000000);
    const low = bits >>> 0;
    block[56] = high >>> 24;
    block[57] = (high >>> 16) & 0xff;
    block[58] = (high >>> 8) & 0xff;
    block[59] = high & 0xff;
    block[60] = low >>> 24;
    block[61] = (low >>> 16) & 0xff;
    block[62] = (low >>> 8) & 0xff;
    block[63] = low & 0xff;
    this.compress(block, 0);
    let hex = '';
    for (const word of this.h) hex += word.toString(16).padStart(8, '0');
    return hex;
  }

  private compress(bytes: Uint8Array, at: number): void {
    const w = this.w;
    for (let i = 0; i < 16; i++) {
      const j = at + i * 4;
      w[i] = ((bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!) >>> 0;
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    const h = this.h;
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (k + s1 + ch + K[i]! + w[i]!) >>> 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + k) >>> 0;
  }
}

/** Inputs up to this many bytes are hashed here; longer ones by `node:crypto`, which is faster once it is loaded. */
export const SMALL_INPUT_BYTES = 64 * 1024;

/** What `hashOf` gives: a running SHA-256 of either kind, fed and read the same way. */
export interface RunningSha256 {
  update(data: string | Uint8Array): unknown;
  digest(): string;
}

/**
 * A running SHA-256 for an input of about `expectedBytes` (unknown: `undefined`): this module's for a small one,
 * `node:crypto`'s otherwise. Both give the same digest.
 */
export function hashOf(expectedBytes: number | undefined): RunningSha256 {
  if (expectedBytes !== undefined && expectedBytes <= SMALL_INPUT_BYTES) return new Sha256();
  const hash = nodeCrypto().createHash('sha256');
  return { update: (data) => hash.update(data), digest: () => hash.digest('hex') };
}

/** The SHA-256 of `data` (a string as UTF-8), as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  // A UTF-16 unit is at most three bytes of UTF-8.
  const hash = hashOf(typeof data === 'string' ? data.length * 3 : data.length);
  hash.update(data);
  return hash.digest();
}
