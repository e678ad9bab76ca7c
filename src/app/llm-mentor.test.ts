import { describe, expect, it } from 'vitest';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../interventions/host/worker-api.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { latestLlmStats, LlmMentor, type LlmLane } from './llm-mentor.svelte.ts';

/** A lane whose mentor answers enableLlm with `reply` after reporting some progress. */
class FakeLane implements LlmLane {
  calls: string[] = [];
  constructor(
    readonly name: string,
    readonly method: string,
    private reply: (spec: LlmSpec) => LlmEnabled = (s) => ({ ok: true, modelId: s.modelId }),
  ) {}
  readonly client = {
    enableLlm: async (spec: LlmSpec, onProgress?: LlmProgress) => {
      this.calls.push(`enable ${spec.modelId} ${spec.device} ${spec.dtype ?? '-'}`);
      onProgress?.(50, 100);
      onProgress?.(100, 100);
      return this.reply(spec);
    },
    disableLlm: async () => void this.calls.push('disable'),
  };
}

function mentorOf(lanes: FakeLane[], notices: string[] = []) {
  return new LlmMentor(
    () => lanes,
    () => 'auto',
    (m) => notices.push(m),
    () => '/models/',
  );
}

describe('the LLM mentor on the page', () => {
  it('loads the chosen model into the mentor lanes only, on WASM where there is no WebGPU', async () => {
    const grpo = new FakeLane('GRPO', 'none');
    const a = new FakeLane('A', 'mentor');
    const b = new FakeLane('B', 'mentor');
    const llm = mentorOf([grpo, a, b]);
    expect(llm.phase).toBe('off');
    expect(a.calls).toEqual([]);
    await llm.switchOn();
    expect(llm.device?.device).toBe('wasm');
    expect(grpo.calls).toEqual([]);
    expect(a.calls).toEqual(['enable HuggingFaceTB/SmolLM2-135M-Instruct wasm q4']);
    expect(b.calls).toEqual(a.calls);
    expect(llm.phase).toBe('on');
    expect(llm.active?.lanes).toEqual(['A', 'B']);
    expect([llm.loaded, llm.total]).toEqual([100, 100]);
    await llm.switchOff();
    expect(llm.phase).toBe('off');
    expect(a.calls.at(-1)).toBe('disable');
  });

  it('a model that fails to load: a clear message, and no lane keeps it', async () => {
    const a = new FakeLane('A', 'mentor');
    const b = new FakeLane('B', 'mentor', () => ({
      ok: false,
      message:
        'Language model "mentor-fixture-valid" not found — the mentor goes on with its rules',
    }));
    const notices: string[] = [];
    const llm = mentorOf([a, b], notices);
    llm.choiceId = 'fixture-valid';
    await llm.switchOn();
    expect(llm.phase).toBe('error');
    expect(llm.message).toBe(
      'B: Language model "mentor-fixture-valid" not found — the mentor goes on with its rules',
    );
    expect(notices).toEqual([`LLM mentor not switched on. ${llm.message}`]);
    expect(a.calls).toEqual(['enable mentor-fixture-valid wasm -', 'disable']);
    // Restarted lanes do not try again: the opt-in ended with the failure.
    llm.lanesStopping();
    llm.lanesReady();
    expect(a.calls.length).toBe(2);
  });

  it('restarted lanes get the model back; without a mentor lane it says why nothing loads', async () => {
    const lanes = [new FakeLane('A', 'mentor')];
    const llm = mentorOf(lanes);
    await llm.switchOn();
    llm.lanesStopping();
    expect(llm.phase).toBe('loading');
    lanes[0] = new FakeLane('A again', 'mentor');
    llm.lanesReady();
    await new Promise((r) => setTimeout(r, 0));
    expect(lanes[0].calls.length).toBe(1);
    expect(llm.active?.lanes).toEqual(['A again']);
    lanes[0] = new FakeLane('plain', 'none');
    llm.lanesStopping();
    llm.lanesReady();
    expect(llm.phase).toBe('off');
    expect(llm.message).toMatch(/No lane uses the mentor method/);
  });

  it('a lane that lost its model for good switches the LLM mentor off with the reason', async () => {
    const llm = mentorOf([new FakeLane('A', 'mentor')]);
    await llm.switchOn();
    llm.lost('A', 'Language model "x" switched off: the mentor had to restart 3 times with it on');
    expect(llm.phase).toBe('error');
    expect(llm.message).toMatch(/^A: Language model "x" switched off/);
  });

  it('the readout takes the latest step that has LLM figures', () => {
    const step = (s?: Record<string, number>) => ({ intervention_stats: s }) as StepMetrics;
    expect(latestLlmStats([])).toBeNull();
    expect(
      latestLlmStats([step({ llm_calls: 2, llm_valid_rate: 0.5 }), step({ llm_calls: 3 }), step()]),
    ).toEqual({ llm_calls: 3 });
  });
});
