/** A WebGPU device ready for our kernels, or the plain-language reason there is none. */
export type Acquired =
  | { ok: true; adapter: GPUAdapter; device: GPUDevice; name: string; timestamps: boolean }
  | { ok: false; reason: string };

/** Limits our kernels rely on, raised to what the adapter offers (compat adapters start lower). */
const RAISED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
] as const;

/** "WebGPU · swiftshader", "WebGPU · nvidia", ... from what the adapter says of itself. */
export function adapterName(info: GPUAdapterInfo | undefined): string {
  const what = info?.architecture || info?.vendor || info?.description || 'unknown adapter';
  return `WebGPU · ${what}`;
}

/**
 * Finds an adapter and opens a device. Never throws: every way WebGPU can be missing comes back
 * as a reason a person can act on.
 */
export async function acquireDevice(
  gpu: GPU | undefined,
  opts: { timestamps?: boolean } = {},
): Promise<Acquired> {
  if (!gpu) {
    return {
      ok: false,
      reason: 'this browser does not expose WebGPU (navigator.gpu is missing)',
    };
  }
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return { ok: false, reason: `requestAdapter() failed: ${(e as Error).message}` };
  }
  if (!adapter) {
    return {
      ok: false,
      reason:
        'no WebGPU adapter available (requestAdapter() returned null; WebGPU may be disabled or unsupported on this machine)',
    };
  }
  const requiredLimits: Record<string, number> = {};
  for (const key of RAISED_LIMITS) requiredLimits[key] = adapter.limits[key];
  const timestamps = (opts.timestamps ?? true) && adapter.features.has('timestamp-query');
  const requiredFeatures: GPUFeatureName[] = timestamps ? ['timestamp-query'] : [];
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  } catch (e) {
    return { ok: false, reason: `requestDevice() failed: ${(e as Error).message}` };
  }
  return { ok: true, adapter, device, name: adapterName(adapter.info), timestamps };
}
