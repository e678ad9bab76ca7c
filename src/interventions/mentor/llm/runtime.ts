// Transformers.js set up for our use: local models (the generated fixtures, or files our own site
// serves) or, only after the person opts in, the Hugging Face hub; ONNX Runtime's WASM files come
// from our own origin, never a CDN; failures become one clear LlmError.
import {
  env,
  ModelFileNotFoundError,
  pipeline,
  StoppingCriteria,
  type DeviceType,
  type ProgressInfo,
  type TextGenerationPipeline,
} from '@huggingface/transformers';
// The ORT build Transformers.js uses in the browser (onnxruntime-web/webgpu) runs this asyncify
// variant on both the WASM and WebGPU devices. Vite copies both files into our build.
import ortWasmFactory from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmBinary from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

/** A model file is missing; a file is there but unusable; or generation failed or was aborted. */
export type LlmErrorKind = 'missing' | 'invalid' | 'generation';

export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Where a model comes from. Local: only `modelRoot` (a directory in Node, a URL in the browser),
 * never the network — the fixtures, tests, files our site serves. Hub: the Hugging Face hub,
 * which the person must have opted in to.
 */
export type ModelSource = { local: true; modelRoot: string } | { local: false };

/** Weight formats we ask for (Transformers.js picks `onnx/model<suffix>.onnx` by it). */
export type LlmDtype = 'fp32' | 'q8' | 'q4' | 'q4f16';

export type LoadOptions = ModelSource & {
  /** Default: Transformers.js's choice, `cpu` in Node and `wasm` in the browser. */
  device?: DeviceType;
  /** Default: the model's config (`transformers.js_config.dtype`), else the device's default. */
  dtype?: LlmDtype;
  /** Bytes loaded so far of all files, and their total once known. */
  onProgress?: (loaded: number, total: number) => void;
};

export interface GenerateOptions {
  maxNewTokens: number;
  /** Stops generation after the current token; the call then rejects with an LlmError. */
  signal?: AbortSignal;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface TextGenerator {
  readonly modelId: string;
  /** Greedy continuation: of a raw prompt, or of a chat through the model's chat template. */
  generate(input: string | readonly ChatMessage[], options: GenerateOptions): Promise<string>;
  dispose(): Promise<void>;
}

// The same test Transformers.js makes to pick onnxruntime-node over onnxruntime-web.
const IN_NODE = typeof process !== 'undefined' && process.release?.name === 'node';

function configure(options: LoadOptions): void {
  // `env` is global to Transformers.js: loads that differ in `local` must not overlap.
  env.allowLocalModels = options.local;
  env.allowRemoteModels = !options.local;
  if (options.local) env.localModelPath = options.modelRoot;
  // Hub downloads are kept in the browser's Cache Storage; local files must not go stale there.
  env.useBrowserCache = !options.local;
  const wasm = env.backends.onnx.wasm;
  if (!IN_NODE && wasm) wasm.wasmPaths = { mjs: ortWasmFactory, wasm: ortWasmBinary };
}

function describeLoadError(modelId: string, where: string, e: unknown): LlmError {
  const cause = e instanceof Error ? e.message : String(e);
  if (e instanceof ModelFileNotFoundError) {
    return new LlmError('missing', `Language model "${modelId}" not found in ${where}: ${cause}`, {
      cause: e,
    });
  }
  return new LlmError(
    'invalid',
    `Language model "${modelId}" from ${where} could not be loaded (corrupt, unsupported or unreachable files): ${cause}`,
    { cause: e },
  );
}

/** Ends generation at the next token once `signal` aborts. */
class AbortCriteria extends StoppingCriteria {
  constructor(private readonly signal: AbortSignal) {
    super();
  }
  override _call(inputIds: number[][]): boolean[] {
    return inputIds.map(() => this.signal.aborted);
  }
}

export async function loadTextGenerator(
  modelId: string,
  options: LoadOptions,
): Promise<TextGenerator> {
  configure(options);
  const where = options.local ? options.modelRoot : 'the Hugging Face hub';
  const onProgress = options.onProgress;
  let pipe: TextGenerationPipeline;
  try {
    pipe = await pipeline('text-generation', modelId, {
      device: options.device,
      dtype: options.dtype,
      progress_callback: onProgress
        ? (p: ProgressInfo) => {
            if (p.status === 'progress_total') onProgress(p.loaded, p.total);
          }
        : undefined,
    });
  } catch (e) {
    throw describeLoadError(modelId, where, e);
  }
  // Transformers.js loads no tokenizer, without an error, when tokenizer_config.json is absent.
  if (!pipe.tokenizer) {
    throw new LlmError('missing', `Language model "${modelId}" in ${where} has no tokenizer`);
  }
  return {
    modelId,
    async generate(input, { maxNewTokens, signal }) {
      const failed = (why: string, cause: unknown) =>
        new LlmError('generation', `Language model "${modelId}" ${why}`, { cause });
      if (signal?.aborted) throw failed('was aborted before it started', signal.reason);
      const config = {
        max_new_tokens: maxNewTokens,
        do_sample: false,
        return_full_text: false,
        stopping_criteria: signal ? new AbortCriteria(signal) : undefined,
      };
      let text: string;
      try {
        if (typeof input === 'string') {
          const [out] = await pipe(input, config);
          text = out.generated_text;
        } else {
          const [out] = await pipe([...input], config);
          const reply = out.generated_text.at(-1)?.content;
          text = typeof reply === 'string' ? reply : '';
        }
      } catch (e) {
        throw failed(`failed: ${e instanceof Error ? e.message : String(e)}`, e);
      }
      if (signal?.aborted) throw failed('was aborted while generating', signal.reason);
      return text;
    },
    dispose: () => pipe.dispose(),
  };
}
