// The opt-in LLM mentor as the page sees it: which model, where it runs, the download, and which
// lanes have it. Nothing is fetched until switchOn(); the lanes whose method is `mentor` then load
// the model one after the other (the second one reads what the first cached). When the lanes are
// restarted (reset, a new method, a preset…) the new ones get the model back.
import { takesLlm } from '../interventions/methods.ts';
import { siteModelRoot } from '../interventions/mentor/llm/model-root.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import type { BackendPref } from './experiment-config.ts';
import {
  chooseLlmDevice,
  DEFAULT_LLM_CHOICE,
  deviceFor,
  llmChoice,
  llmSpec,
  type LlmChoice,
  type LlmChoiceId,
  type LlmDevice,
  type LlmDeviceChoice,
} from './llm-models.ts';
import type { LaneClient } from './lane/lane-client.ts';

export type LlmPhase = 'off' | 'loading' | 'on' | 'error';

/** What the LLM mentor needs of a lane. */
export interface LlmLane {
  readonly name: string;
  readonly method: string;
  readonly client: Pick<LaneClient, 'enableLlm' | 'disableLlm'> | null;
}

/** The LLM agent's figures of a lane: its latest step that has them (they are cumulative). */
export function latestLlmStats(metrics: readonly StepMetrics[]): Record<string, number> | null {
  for (let i = metrics.length - 1; i >= 0; i--) {
    const s = metrics[i].intervention_stats;
    if (s && s.llm_calls !== undefined) return s;
  }
  return null;
}

export class LlmMentor {
  choiceId = $state<LlmChoiceId>(DEFAULT_LLM_CHOICE);
  /** Where hub models would run here; null until the adapter has been looked at. */
  device = $state<LlmDeviceChoice | null>(null);
  phase = $state<LlmPhase>('off');
  /** Download of the lane loading now: bytes so far and in all (0 until known). */
  loaded = $state(0);
  total = $state(0);
  loadingLane = $state<string | null>(null);
  /** What went wrong, or why nothing happened. */
  message = $state<string | null>(null);
  /** What is on. */
  active = $state<{ choice: LlmChoice; device: LlmDevice; lanes: string[] } | null>(null);

  /** The person's opt-in: what the lanes should have, also after a restart. */
  private wanted: { choice: LlmChoice; device: LlmDevice } | null = null;
  private gen = 0;

  constructor(
    private readonly lanes: () => readonly LlmLane[],
    private readonly backend: () => BackendPref,
    private readonly notify: (message: string) => void,
    private readonly modelRoot: () => string = siteModelRoot,
  ) {}

  get choice(): LlmChoice {
    return llmChoice(this.choiceId);
  }

  /** Lanes a language model can join. */
  mentorLanes(): LlmLane[] {
    return this.lanes().filter((l) => takesLlm(l.method) && l.client);
  }

  async detectDevice(): Promise<LlmDeviceChoice> {
    this.device ??= await chooseLlmDevice(
      typeof navigator !== 'undefined' ? navigator.gpu : undefined,
      this.backend(),
    );
    return this.device;
  }

  /** The person opts in to the chosen model: the mentor lanes download and load it. */
  async switchOn(): Promise<void> {
    const choice = this.choice;
    const { device } = await this.detectDevice();
    this.wanted = { choice, device: deviceFor(choice, device) };
    await this.apply();
  }

  async switchOff(): Promise<void> {
    this.wanted = null;
    this.gen++;
    this.reset('off');
    await Promise.all(this.mentorLanes().map((l) => l.client?.disableLlm().catch(() => {})));
  }

  /** The lanes are being replaced: a load under way is over (its lane is gone). */
  lanesStopping(): void {
    this.gen++;
    if (this.phase === 'loading' || this.phase === 'on')
      this.reset(this.wanted ? 'loading' : 'off');
  }

  /** New lanes are ready: they get the model the person switched on. */
  lanesReady(): void {
    if (this.wanted) void this.apply();
    else if (this.phase !== 'error') this.reset('off');
  }

  /** A lane's mentor lost its model for good (it could not reload it after restarts). */
  lost(laneName: string, message: string): void {
    if (!this.active) return;
    this.wanted = null;
    this.gen++;
    this.reset('error');
    this.message = `${laneName}: ${message}`;
  }

  private reset(phase: LlmPhase): void {
    this.phase = phase;
    this.active = null;
    this.loaded = 0;
    this.total = 0;
    this.loadingLane = null;
    this.message = null;
  }

  private async apply(): Promise<void> {
    const wanted = this.wanted;
    if (!wanted) return;
    const gen = ++this.gen;
    const lanes = this.mentorLanes();
    if (lanes.length === 0) {
      this.reset('off');
      this.message =
        'No lane uses the mentor method, so there is no mentor team to join. Choose “mentor” for a lane; the model loads then.';
      return;
    }
    this.reset('loading');
    const spec = llmSpec(wanted.choice, wanted.device, this.modelRoot());
    const done: LlmLane[] = [];
    for (const lane of lanes) {
      this.loadingLane = lane.name;
      this.loaded = 0;
      this.total = 0;
      const r = await (lane.client as NonNullable<LlmLane['client']>).enableLlm(
        spec,
        (loaded, total) => {
          if (gen !== this.gen) return;
          this.loaded = loaded;
          this.total = total;
        },
      );
      if (gen !== this.gen) return;
      if (!r.ok) {
        this.wanted = null;
        this.reset('error');
        this.message = `${lane.name}: ${r.message}`;
        this.notify(`LLM mentor not switched on. ${this.message}`);
        await Promise.all(done.map((l) => l.client?.disableLlm().catch(() => {})));
        return;
      }
      done.push(lane);
    }
    this.phase = 'on';
    this.loadingLane = null;
    this.active = { choice: wanted.choice, device: wanted.device, lanes: lanes.map((l) => l.name) };
  }
}
