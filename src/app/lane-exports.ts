// A lane's files for the person to keep: its metrics (CSV, JSON) and its policy (.safetensors).
import { download } from './download.ts';
import { CUSTOM, type ExperimentConfig } from './experiment-config.ts';
import { exportName, metricsCsv, metricsJson, type LaneExport } from './export.ts';
import type { Lane } from './lane/lane.svelte.ts';
import type { LockstepLanes } from './lockstep-lanes.svelte.ts';
import type { Notices } from './notices.svelte.ts';
import { encodeUrl } from './url-state.ts';

export class LaneExports {
  constructor(
    /** A plain copy of the config (it goes into the JSON as it is). */
    private readonly config: () => ExperimentConfig,
    private readonly lockstep: Pick<LockstepLanes, 'exportCheckpoint'>,
    private readonly notices: Notices,
    /** The custom mentor's applied code. */
    private readonly mentorCode: () => string | null,
  ) {}

  csv(lane: Lane): void {
    download(this.fileName(lane, 'csv'), metricsCsv(lane.metrics), 'text/csv');
  }

  json(lane: Lane): void {
    const config = this.config();
    const about: LaneExport = {
      lane: lane.letter,
      name: lane.name,
      method: lane.method,
      backend: lane.info?.backend ?? null,
      config,
      query: encodeUrl(config),
      mentorCode: lane.method === CUSTOM ? this.mentorCode() : null,
    };
    download(this.fileName(lane, 'json'), metricsJson(about, lane.metrics), 'application/json');
  }

  async policy(lane: Lane): Promise<void> {
    try {
      const bytes = await this.lockstep.exportCheckpoint(lane);
      if (bytes)
        download(this.fileName(lane, 'safetensors'), bytes as BlobPart, 'application/octet-stream');
    } catch (e) {
      this.notices.notify(
        'error',
        `Could not export ${lane.name}'s policy: ${(e as Error).message}`,
      );
    }
  }

  private fileName(lane: Lane, ext: string): string {
    return exportName(this.config(), lane.letter, lane.method, lane.nextStep, ext);
  }
}
