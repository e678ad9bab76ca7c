/** The adapter's name when it is a software rasteriser (SwiftShader, WARP, llvmpipe); else null. */
export function softwareAdapterName(adapter: GPUAdapter): string | null {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const name = info.architecture || info.vendor || info.description || '';
  if (
    info.isFallbackAdapter ||
    /swiftshader|llvmpipe|warp|software/i.test(`${name} ${info.description ?? ''}`)
  ) {
    return name || 'software';
  }
  return null;
}

/** Whether WebGPU here is a software rasteriser (SwiftShader, WARP, llvmpipe): slower than our CPU twin. */
export async function softwareAdapter(gpu: GPU | undefined): Promise<string | null> {
  const adapter = await gpu?.requestAdapter().catch(() => null);
  if (!adapter) return null;
  return softwareAdapterName(adapter);
}
