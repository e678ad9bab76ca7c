// Test-only: what readMany owes on every backend, checked alike by the CPU and WebGPU tests.
import { expect } from 'vitest';
import type { Backend } from '../backend.ts';

/** Tensors of odd sizes come back in one read, each exactly as written; none, as none. */
export async function expectReadManyExact(be: Backend): Promise<void> {
  const sizes = [1, 7, 300, 4097];
  const tensors = sizes.map((n, i) => be.alloc(n, 'f32', `t${i}`));
  const values = sizes.map((n, i) => Float32Array.from({ length: n }, (_, j) => i * 1e4 + j - 0.5));
  tensors.forEach((t, i) => be.write(t, values[i]));
  const reads = be.readCount;
  const back = await be.readMany(tensors);
  expect(be.readCount).toBe(reads + 1);
  expect(back.map((a) => Array.from(a))).toEqual(values.map((a) => Array.from(a)));
  expect(await be.readMany([])).toEqual([]);
  for (const t of tensors) be.free(t);
}
