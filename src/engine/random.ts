/**
 * Counter-based random numbers: draw i of stream `seed` is a pure function of (seed, i), so a
 * WGSL kernel and its CPU twin produce the same draws in any order. PCG hash (Jarzynski & Olano,
 * "Hash Functions for GPU Rendering", 2020); shaders/random.wgsl is the same function.
 */
export function pcgHash(x: number): number {
  const state = (Math.imul(x >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** Uniform in [0, 1) with 24 bits, exactly representable in f32. */
export function uniformAt(seed: number, counter: number): number {
  return (pcgHash((pcgHash(seed >>> 0) ^ (counter >>> 0)) >>> 0) >>> 8) / 16777216;
}

/** Standard normal via Box–Muller from two counter draws. */
export function normalAt(seed: number, counter: number): number {
  const u1 = uniformAt(seed, 2 * counter) || 1 / 16777216;
  const u2 = uniformAt(seed, 2 * counter + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** n normal draws from stream `seed`, scaled. */
export function normals(seed: number, n: number, scale = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = normalAt(seed, i) * scale;
  return out;
}

/** n uniform draws in [lo, hi). */
export function uniforms(seed: number, n: number, lo = 0, hi = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * uniformAt(seed, i);
  return out;
}
