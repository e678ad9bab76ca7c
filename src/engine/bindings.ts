import type { Tensor } from './backend.ts';
import { BackendError } from './errors.ts';
import type { Kernel } from './kernel.ts';

/**
 * Checks one launch's tensors against the kernel's binding list. WebGPU forbids a buffer bound
 * twice when one binding writes it; the CPU twin enforces the same rule so misuse fails in
 * unit tests, not only on a GPU.
 */
export function checkBindings(kernel: Kernel<unknown>, tensors: readonly Tensor[]): void {
  if (tensors.length !== kernel.access.length) {
    throw new BackendError(
      `${kernel.name}: expects ${kernel.access.length} tensors, got ${tensors.length}`,
    );
  }
  kernel.access.forEach((access, i) => {
    if (access !== 'write') return;
    const t = tensors[i];
    tensors.forEach((u, j) => {
      if (j !== i && u === t) {
        throw new BackendError(
          `${kernel.name}: tensor "${t.label}" is written at binding ${i + 1} and also bound at ${j + 1}`,
        );
      }
    });
  });
}
