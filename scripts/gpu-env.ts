import { existsSync } from 'node:fs';

/** Where Debian's chromium keeps SwiftShader's Vulkan ICD and loader. */
export const CHROMIUM_LIB_DIR = '/usr/lib/chromium';

/**
 * Environment that lets Dawn (npm `webgpu`) find a Vulkan driver on a machine without a GPU:
 * the SwiftShader ICD and the Vulkan loader from Debian's chromium package. Values already set
 * by the caller win.
 */
export function gpuTestEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const icd = `${CHROMIUM_LIB_DIR}/vk_swiftshader_icd.json`;
  if (!env.VK_DRIVER_FILES && existsSync(icd)) out.VK_DRIVER_FILES = icd;
  if (existsSync(`${CHROMIUM_LIB_DIR}/libvulkan.so.1`)) {
    const current = env.LD_LIBRARY_PATH ?? '';
    if (!current.split(':').includes(CHROMIUM_LIB_DIR)) {
      out.LD_LIBRARY_PATH = current ? `${current}:${CHROMIUM_LIB_DIR}` : CHROMIUM_LIB_DIR;
    }
  }
  return out;
}
