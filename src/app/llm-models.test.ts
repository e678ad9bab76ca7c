import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LLM_FIXTURES } from '../interventions/mentor/llm/fixtures.ts';
import {
  chooseLlmDevice,
  downloadBytes,
  formatBytes,
  LLM_CHOICES,
  llmChoice,
  llmSpec,
  RUNTIME_BYTES,
} from './llm-models.ts';

const MODELS = fileURLToPath(new URL('../../public/models', import.meta.url));

function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
}

/** A stand-in for navigator.gpu with one adapter. */
function fakeGpu(info: Partial<GPUAdapterInfo> & { isFallbackAdapter?: boolean }, f16: boolean) {
  const adapter = { info, features: new Set(f16 ? ['shader-f16'] : []) };
  return { requestAdapter: async () => adapter } as unknown as GPU;
}

describe('the LLM model choices', () => {
  it('list the two hub models and the offline fixtures, each fixture with its real size', () => {
    expect(LLM_CHOICES.map((c) => c.modelId)).toEqual([
      'HuggingFaceTB/SmolLM2-135M-Instruct',
      'onnx-community/Qwen2.5-0.5B-Instruct',
      ...LLM_FIXTURES.map((f) => f.id),
    ]);
    for (const f of LLM_FIXTURES) {
      const c = LLM_CHOICES.find((x) => x.modelId === f.id);
      expect(c?.local).toBe(true);
      if (c) expect(downloadBytes(c, 'webgpu')).toBe(bytesUnder(join(MODELS, f.id)));
    }
  });

  it('say what each hub model downloads on each device', () => {
    const smol = llmChoice('smollm2-135m');
    expect(formatBytes(downloadBytes(smol, 'wasm'))).toBe('202 MB');
    expect(formatBytes(downloadBytes(smol, 'webgpu'))).toBe('136 MB');
    const qwen = llmChoice('qwen2.5-0.5b');
    expect(formatBytes(downloadBytes(qwen, 'wasm'))).toBe('519 MB');
    expect(formatBytes(downloadBytes(qwen, 'webgpu'))).toBe('490 MB');
    expect(formatBytes(79_347)).toBe('79 kB');
    expect(formatBytes(1_500_000_000)).toBe('1.50 GB');
  });

  it('state the runtime download as big as the ONNX Runtime WASM file really is', () => {
    const require = createRequire(import.meta.url);
    const ortDir = join(require.resolve('onnxruntime-web'), '..');
    const wasm = statSync(join(ortDir, 'ort-wasm-simd-threaded.asyncify.wasm')).size;
    expect(RUNTIME_BYTES).toBeGreaterThan(wasm);
    expect(RUNTIME_BYTES).toBeLessThan(wasm * 1.1);
  });

  it('ask hub models for the dtype of the device, and fixtures for their own files on WASM', () => {
    expect(llmSpec(llmChoice('smollm2-135m'), 'wasm', '/models/')).toEqual({
      modelId: 'HuggingFaceTB/SmolLM2-135M-Instruct',
      source: { local: false },
      device: 'wasm',
      dtype: 'q4',
    });
    expect(llmSpec(llmChoice('qwen2.5-0.5b'), 'webgpu', '/models/')).toMatchObject({
      device: 'webgpu',
      dtype: 'q4f16',
    });
    expect(llmSpec(llmChoice('fixture-valid'), 'webgpu', '/course/models/')).toEqual({
      modelId: 'mentor-fixture-valid',
      source: { local: true, modelRoot: '/course/models/' },
      device: 'wasm',
    });
  });
});

describe('where the language model runs', () => {
  it('on WebGPU only with a hardware adapter that has 16-bit float shaders', async () => {
    const hw = { vendor: 'nvidia', description: 'NVIDIA GeForce' };
    expect(await chooseLlmDevice(fakeGpu(hw, true), 'auto')).toEqual({
      device: 'webgpu',
      why: 'hardware WebGPU adapter (NVIDIA GeForce) with shader-f16',
    });
    expect((await chooseLlmDevice(fakeGpu(hw, false), 'auto')).why).toMatch(/shader-f16/);
    const swiftshader = fakeGpu({ vendor: 'google', architecture: 'swiftshader' }, true);
    expect(await chooseLlmDevice(swiftshader, 'webgpu')).toEqual({
      device: 'wasm',
      why: 'the WebGPU adapter is a software one (swiftshader), slower than WASM',
    });
    expect((await chooseLlmDevice(fakeGpu(hw, true), 'cpu')).device).toBe('wasm');
    expect((await chooseLlmDevice(undefined, 'auto')).why).toBe('this browser has no WebGPU');
    const none = { requestAdapter: async () => null } as unknown as GPU;
    expect((await chooseLlmDevice(none, 'auto')).why).toBe('no WebGPU adapter is available');
  });
});
