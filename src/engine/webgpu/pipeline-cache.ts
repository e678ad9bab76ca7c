import type { Kernel } from '../kernel.ts';

/**
 * Compute pipelines keyed by kernel, entry point and override constants. Compiling is the slow
 * part on every driver (SwiftShader takes most of a second for shaders with workgroup memory),
 * so each variant is built once per device.
 */
export class PipelineCache {
  private readonly modules = new Map<string, GPUShaderModule>();
  private readonly pipelines = new Map<string, GPUComputePipeline>();

  constructor(private readonly device: GPUDevice) {}

  get size(): number {
    return this.pipelines.size;
  }

  static key(kernel: Kernel<unknown>, constants: Record<string, number> | undefined): string {
    const c = constants
      ? Object.keys(constants)
          .sort()
          .map((k) => `${k}=${constants[k]}`)
          .join(',')
      : '';
    return `${kernel.name}:${kernel.entry}:${c}`;
  }

  get(kernel: Kernel<unknown>, constants: Record<string, number> | undefined): GPUComputePipeline {
    const key = PipelineCache.key(kernel, constants);
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      let module = this.modules.get(kernel.shader);
      if (!module) {
        module = this.device.createShaderModule({ code: kernel.shader, label: kernel.name });
        this.modules.set(kernel.shader, module);
      }
      pipeline = this.device.createComputePipeline({
        label: key,
        layout: 'auto',
        compute: { module, entryPoint: kernel.entry, constants },
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }
}
