// TF.js as a peer of the bench: the TfPolicy on its cpu, wasm or webgpu backend.
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { timeSteps, verdict, type PeerResult } from './result.ts';
import type { PeerWorkload } from './workload.ts';

export type TfBackendName = 'cpu' | 'wasm' | 'webgpu';

type Tf = typeof import('@tensorflow/tfjs');

/** What a backend needs before tf.setBackend: how it is set up, in words, or why it cannot be. */
type Prepared = { ok: true; detail: () => Promise<string> } | { ok: false; reason: string };

let wasmPathsSet = false;

async function prepareWasm(tf: Tf): Promise<Prepared> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  if (!wasmPathsSet) {
    // In Node the binaries are read from disk, next to the package's own Node build.
    const main = createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(`${dirname(main)}/`);
    wasmPathsSet = true;
  }
  // One thread, as our CPU twin and the PyTorch peer (TF.js's wasm has no threads in Node anyway).
  wasm.setThreadsCount(1);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  return {
    ok: true,
    detail: async () => {
      const simd = (await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) === true;
      const threads = wasm.getThreadsCount();
      return `${simd ? 'SIMD' : 'no SIMD'}, ${threads} thread${threads === 1 ? '' : 's'}`;
    },
  };
}

async function prepareWebGpu(): Promise<Prepared> {
  let gpu: GPU;
  try {
    const { nodeGpu } = await import('../../src/engine/webgpu/node-gpu.ts');
    gpu = nodeGpu();
  } catch (e) {
    return { ok: false, reason: `the webgpu package (Dawn) did not load: ${(e as Error).message}` };
  }
  const adapter = await gpu.requestAdapter();
  if (!adapter) return { ok: false, reason: 'no WebGPU adapter' };
  // tfjs-backend-webgpu registers itself on import only where navigator.gpu exists; Node 20 has
  // no navigator, later Nodes one without gpu. The GPU* globals came with nodeGpu().
  const nav = (globalThis as { navigator?: object }).navigator;
  if (nav) Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true });
  else Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true });
  await import('@tensorflow/tfjs-backend-webgpu');
  const info = adapter.info;
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ');
  return { ok: true, detail: async () => `Dawn: ${name || 'unnamed adapter'}` };
}

/** Runs the workload on one TF.js backend; never throws. */
export async function runTfjs(backend: TfBackendName, w: PeerWorkload): Promise<PeerResult> {
  let tf: Tf;
  let TfPolicy: typeof import('./tfjs-model.ts').TfPolicy;
  try {
    tf = await import('@tensorflow/tfjs');
    ({ TfPolicy } = await import('./tfjs-model.ts'));
  } catch (e) {
    const reason = `TF.js did not load (npm install): ${(e as Error).message}`;
    return { peer: `TF.js · ${backend}`, status: 'unavailable', reason };
  }
  const peer = `TF.js ${tf.version.tfjs} · ${backend}`;
  // PROD: no console warnings (the cpu backend's advice to install tfjs-node, for one).
  tf.env().set('PROD', true);
  let prepared: Prepared;
  try {
    prepared =
      backend === 'wasm'
        ? await prepareWasm(tf)
        : backend === 'webgpu'
          ? await prepareWebGpu()
          : { ok: true, detail: async () => 'plain JS kernels' };
    if (prepared.ok && !(await tf.setBackend(backend)))
      prepared = { ok: false, reason: `TF.js could not start its ${backend} backend` };
  } catch (e) {
    prepared = { ok: false, reason: (e as Error).message };
  }
  if (!prepared.ok) return { peer, status: 'unavailable', reason: prepared.reason };

  let model: InstanceType<typeof TfPolicy> | null = null;
  try {
    const m = new TfPolicy(w);
    model = m;
    // Reading the loss waits for the whole step: on webgpu it submits all that is recorded, the
    // update included, and waits for the queue.
    const run = await timeSteps(w.minSeconds, async () => {
      const loss = m.trainStep();
      try {
        return (await loss.data())[0];
      } finally {
        loss.dispose();
      }
    });
    return verdict(peer, w, run, await prepared.detail());
  } catch (e) {
    return { peer, status: 'failed', reason: (e as Error).message };
  } finally {
    model?.dispose();
  }
}
