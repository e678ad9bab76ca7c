// Node only: WebGPU through Dawn (npm `webgpu`). Browser code never imports this file.
import { create, globals } from 'webgpu';

let gpu: GPU | undefined;

/** The `navigator.gpu` of Node. Installs WebGPU's globals (GPUBufferUsage, ...) once. */
export function nodeGpu(): GPU {
  if (!gpu) {
    Object.assign(globalThis, globals);
    gpu = create([]);
  }
  return gpu;
}
