// The page → lane worker → mentor path of the opt-in LLM, with both worker hops as in-process
// MessageChannels over Comlink (as the browser has them), on the real Transformers.js fixtures.
import { fileURLToPath } from 'node:url';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../interventions/host/worker-api.ts';
import { VALID_FIXTURE } from '../../interventions/mentor/llm/fixtures.ts';
import { RemoteIntervention, inProcessMentor } from '../../interventions/host/remote.ts';
import { noIntervention, type Intervention } from '../../rl/intervention.ts';
import { disableLaneLlm, enableLaneLlm, thinProgress } from './lane-llm.ts';

const MODELS = fileURLToPath(new URL('../../../public/models', import.meta.url));
const SPEC: LlmSpec = {
  modelId: VALID_FIXTURE.id,
  source: { local: true, modelRoot: MODELS },
  device: 'cpu',
};

interface LaneLlmApi {
  enableLlm(spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled>;
  disableLlm(): Promise<void>;
}

/** The lane worker's LLM calls, exposed over a channel as the worker exposes them. */
function laneOver(intervention: Intervention): Comlink.Remote<LaneLlmApi> {
  const channel = new MessageChannel();
  const api: LaneLlmApi = {
    enableLlm: (spec, onProgress) => enableLaneLlm(intervention, spec, onProgress),
    disableLlm: () => disableLaneLlm(intervention),
  };
  Comlink.expose(api, channel.port1);
  return Comlink.wrap<LaneLlmApi>(channel.port2);
}

afterEach(() => vi.useRealTimers());

describe('the lane worker’s LLM calls', () => {
  it('reach the mentor through both hops, and the progress comes back to the page', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const lane = laneOver(remote);
    const progress: [number, number][] = [];
    const r = await lane.enableLlm(
      SPEC,
      Comlink.proxy((loaded: number, total: number) => void progress.push([loaded, total])),
    );
    expect(r).toEqual({ ok: true, modelId: VALID_FIXTURE.id });
    // Progress messages travel on their own ports: give the last one a moment to land.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progress.length).toBeGreaterThan(0);
    const [loaded, total] = progress.at(-1) ?? [0, 0];
    expect(total).toBeGreaterThan(0);
    expect(loaded).toBe(total);
    expect(remote.llmOn).toBe(true);
    expect(await remote.stats()).toMatchObject({ llm_calls: 0 });
    await lane.disableLlm();
    expect(remote.llmOn).toBe(false);
    expect(await remote.stats()).toEqual({});
  });

  it('lanes without a mentor say so, and have nothing to switch off', async () => {
    expect(await laneOver(noIntervention).enableLlm(SPEC)).toEqual({
      ok: false,
      message: "this lane's method (none) has no mentor team for a language model to join",
    });
    const staticHints = new RemoteIntervention('static', 1, inProcessMentor);
    const r = await laneOver(staticHints).enableLlm(SPEC);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/\(static\) has no mentor team/);
    await expect(laneOver(noIntervention).disableLlm()).resolves.toBeUndefined();
  });
});

describe('thinning the progress reports', () => {
  it('passes at most one report per interval, and always the one that completes', () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const report = thinProgress((loaded) => seen.push(loaded), 100);
    report(1, 10);
    report(2, 10);
    vi.advanceTimersByTime(150);
    report(3, 10);
    report(4, 10);
    report(10, 10);
    expect(seen).toEqual([1, 3, 10]);
  });
});
