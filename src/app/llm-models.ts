// The models the opt-in LLM mentor offers, what each one downloads, and where it runs. Pure data
// and small functions: the page imports this, never Transformers.js (the mentor worker loads that
// only after the person opts in).
import type { LlmSpec } from '../interventions/host/worker-api.ts';
import type { LlmDtype } from '../interventions/mentor/llm/runtime.ts';
import type { BackendPref } from './experiment-config.ts';
import { softwareAdapterName } from './lane/software-adapter.ts';

export type LlmChoiceId = 'smollm2-135m' | 'qwen2.5-0.5b' | 'fixture-valid' | 'fixture-garbage';
export type LlmDevice = 'webgpu' | 'wasm';

export interface LlmWeights {
  dtype: LlmDtype;
  /** The ONNX file Transformers.js fetches for that dtype. */
  file: string;
  bytes: number;
}

export interface LlmChoice {
  id: LlmChoiceId;
  name: string;
  /** One line on what it is for. */
  about: string;
  /** Hub repository, or folder under the site's `models/`. */
  modelId: string;
  /** Served by this site (the offline test fixtures); otherwise the Hugging Face hub. */
  local: boolean;
  /** The weights fetched on each device. */
  weights: Record<LlmDevice, LlmWeights>;
  /** config.json, generation_config.json, tokenizer.json and tokenizer_config.json together. */
  otherBytes: number;
}

const MB = 1e6;

/**
 * Sizes are the Hugging Face hub's own file listings (decimal MB, as the hub shows them):
 * HuggingFaceTB/SmolLM2-135M-Instruct, `onnx/` at commit a5cf62c ("Upload improved fp16 ONNX
 * weights", the latest to touch it): model_q4f16.onnx 134 MB, model_q4.onnx 200 MB (it has no q8
 * file), tokenizer.json 2.1 MB. onnx-community/Qwen2.5-0.5B-Instruct, `onnx/` at 516c8d0:
 * model_q4f16.onnx 483 MB, model_quantized.onnx (q8) 512 MB, tokenizer.json 7.03 MB,
 * tokenizer_config.json 7.31 kB. Transformers.js 4.x fetches config.json,
 * generation_config.json, tokenizer.json, tokenizer_config.json and `onnx/model<suffix>.onnx`
 * for the dtype asked for (no external data for these two).
 */
export const LLM_CHOICES: readonly LlmChoice[] = [
  {
    id: 'smollm2-135m',
    name: 'SmolLM2-135M-Instruct',
    about: 'small and quick; the default',
    modelId: 'HuggingFaceTB/SmolLM2-135M-Instruct',
    local: false,
    weights: {
      webgpu: { dtype: 'q4f16', file: 'onnx/model_q4f16.onnx', bytes: 134 * MB },
      wasm: { dtype: 'q4', file: 'onnx/model_q4.onnx', bytes: 200 * MB },
    },
    otherBytes: 2.1 * MB,
  },
  {
    id: 'qwen2.5-0.5b',
    name: 'Qwen2.5-0.5B-Instruct',
    about: 'larger and several times slower; more likely to keep to the reply format',
    modelId: 'onnx-community/Qwen2.5-0.5B-Instruct',
    local: false,
    weights: {
      webgpu: { dtype: 'q4f16', file: 'onnx/model_q4f16.onnx', bytes: 483 * MB },
      wasm: { dtype: 'q8', file: 'onnx/model_quantized.onnx', bytes: 512 * MB },
    },
    otherBytes: 7.04 * MB,
  },
  {
    id: 'fixture-valid',
    name: 'Test fixture: valid hints',
    about: 'offline; not a real model — always replies "HINT: c1" and a reason',
    modelId: 'mentor-fixture-valid',
    local: true,
    weights: {
      webgpu: { dtype: 'fp32', file: 'onnx/model.onnx', bytes: 72_339 },
      wasm: { dtype: 'fp32', file: 'onnx/model.onnx', bytes: 72_339 },
    },
    otherBytes: 7_008,
  },
  {
    id: 'fixture-garbage',
    name: 'Test fixture: garbage',
    about: 'offline; not a real model — always replies nonsense, so every hint is rejected',
    modelId: 'mentor-fixture-garbage',
    local: true,
    weights: {
      webgpu: { dtype: 'fp32', file: 'onnx/model.onnx', bytes: 40_192 },
      wasm: { dtype: 'fp32', file: 'onnx/model.onnx', bytes: 40_192 },
    },
    otherBytes: 7_008,
  },
];

export const DEFAULT_LLM_CHOICE: LlmChoiceId = 'smollm2-135m';

/** ONNX Runtime's WASM build and Transformers.js, from this site: fetched once, on opt-in. */
export const RUNTIME_BYTES = 27.4 * MB;

export function llmChoice(id: LlmChoiceId): LlmChoice {
  const c = LLM_CHOICES.find((x) => x.id === id);
  if (!c) throw new Error(`unknown LLM choice ${id}`);
  return c;
}

/** Where a choice runs: the fixtures always on WASM (they are fp32 and tiny). */
export function deviceFor(choice: LlmChoice, device: LlmDevice): LlmDevice {
  return choice.local ? 'wasm' : device;
}

/** Bytes of model files a choice fetches on `device` (the runtime aside). */
export function downloadBytes(choice: LlmChoice, device: LlmDevice): number {
  return choice.weights[deviceFor(choice, device)].bytes + choice.otherBytes;
}

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 100 * MB) return `${Math.round(n / MB)} MB`;
  if (n >= MB) return `${(n / MB).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} B`;
}

/** What the mentor worker is asked to load. `modelRoot`: siteModelRoot(), computed on the page. */
export function llmSpec(choice: LlmChoice, device: LlmDevice, modelRoot: string): LlmSpec {
  if (choice.local) {
    return { modelId: choice.modelId, source: { local: true, modelRoot }, device: 'wasm' };
  }
  return {
    modelId: choice.modelId,
    source: { local: false },
    device,
    dtype: choice.weights[device].dtype,
  };
}

export interface LlmDeviceChoice {
  device: LlmDevice;
  /** Why, in words, for the panel. */
  why: string;
}

/**
 * WebGPU when the page's adapter is a hardware one with 16-bit float shaders (the q4f16
 * weights need them); WASM otherwise — software adapters (SwiftShader, WARP, llvmpipe) are
 * slower than WASM, and `?backend=cpu` keeps the language model off the GPU too.
 */
export async function chooseLlmDevice(
  gpu: GPU | undefined,
  backend: BackendPref,
): Promise<LlmDeviceChoice> {
  if (backend === 'cpu') return { device: 'wasm', why: 'the page is set to the CPU backend' };
  if (!gpu) return { device: 'wasm', why: 'this browser has no WebGPU' };
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter) return { device: 'wasm', why: 'no WebGPU adapter is available' };
  const software = softwareAdapterName(adapter);
  if (software) {
    return {
      device: 'wasm',
      why: `the WebGPU adapter is a software one (${software}), slower than WASM`,
    };
  }
  if (!adapter.features.has('shader-f16')) {
    return {
      device: 'wasm',
      why: 'the WebGPU adapter has no 16-bit float shaders (shader-f16), which the q4f16 weights need',
    };
  }
  const name = adapter.info.description || adapter.info.vendor || 'hardware adapter';
  return { device: 'webgpu', why: `hardware WebGPU adapter (${name}) with shader-f16` };
}
