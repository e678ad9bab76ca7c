import type { Backend, Tensor } from '../backend.ts';

const placeholders = new WeakMap<Backend, Tensor>();

/**
 * A one-element tensor bound where a kernel's optional input is absent: WGSL bindings are
 * static, so an unused `bias` still needs a buffer behind it.
 */
export function placeholder(be: Backend): Tensor {
  let t = placeholders.get(be);
  if (!t) {
    t = be.alloc(1, 'f32', 'placeholder');
    placeholders.set(be, t);
  }
  return t;
}
