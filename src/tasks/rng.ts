import { TaskError } from './errors.ts';

/**
 * Seeded sequential random numbers for sampling problems and hints: sfc32 (Doty-Humphrey's small
 * fast counting generator, passes PractRand) keyed by four 32-bit words. `fork(label)` derives a
 * child key from this generator's key and the label only — not from how many numbers were drawn —
 * so adding a draw in one stream never shifts another, and the same label gives the same stream.
 */
export interface Rng {
  /** Uniform 32-bit unsigned integer. */
  u32(): number;
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [lo, hi], both ends included; no modulo bias. */
  int(lo: number, hi: number): number;
  /** true with probability p (p outside [0, 1] is an error). */
  chance(p: number): boolean;
  /** A uniform element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A new array with the items in uniform random order (Fisher–Yates); the input is untouched. */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent stream named `label`, a pure function of this stream's key and the label. */
  fork(label: string | number): Rng;
}

export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed))
    throw new TaskError(`rng seed must be a safe integer, got ${seed}`);
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 2 ** 32) >>> 0;
  return new Sfc32([
    fmix(lo ^ 0x9e3779b9),
    fmix(hi ^ 0x85ebca6b),
    fmix(lo + 0xc2b2ae35),
    fmix(hi + 0x27d4eb2f),
  ]);
}

class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(private readonly key: readonly number[]) {
    this.a = key[0];
    this.b = key[1];
    this.c = key[2];
    this.d = key[3];
    for (let i = 0; i < 12; i++) this.u32(); // mix the key through the state
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (((this.c << 21) | (this.c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  float(): number {
    // 53 random bits, exactly representable.
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }

  int(lo: number, hi: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo > hi) {
      throw new TaskError(`rng.int needs integers lo ≤ hi, got ${lo}, ${hi}`);
    }
    const span = hi - lo + 1;
    if (span > 2 ** 32) throw new TaskError(`rng.int range ${lo}..${hi} is wider than 2^32`);
    // Reject the top partial block of 2^32 so every value is equally likely.
    const limit = 2 ** 32 - (2 ** 32 % span);
    let x = this.u32();
    while (x >= limit) x = this.u32();
    return lo + (x % span);
  }

  chance(p: number): boolean {
    if (!(p >= 0 && p <= 1)) throw new TaskError(`rng.chance needs 0 ≤ p ≤ 1, got ${p}`);
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new TaskError('rng.pick from an empty array');
    return items[this.int(0, items.length - 1)];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  fork(label: string | number): Rng {
    const text = String(label);
    const key = this.key.map((k, i) => {
      let h = fmix(k ^ Math.imul(i + 1, 0x9e3779b1));
      for (let j = 0; j < text.length; j++) h = fmix(h ^ Math.imul(text.charCodeAt(j), 0xcc9e2d51));
      return fmix(h ^ text.length);
    });
    return new Sfc32(key);
  }
}

/** MurmurHash3's 32-bit finaliser: a bijective avalanche mix. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
