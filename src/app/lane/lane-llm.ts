// The lane worker's part in the opt-in LLM mentor: hand the page's request to the lane's mentor
// (only a lane whose method is `mentor` has one), and pass the download progress back, thinned
// out so that two hops of messages do not flood the page.
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../interventions/host/worker-api.ts';
import { releaseIfProxy } from '../../interventions/host/worker-api.ts';
import { takesLlm } from '../../interventions/methods.ts';
import { RemoteIntervention } from '../../interventions/host/remote.ts';
import type { Intervention } from '../../rl/intervention.ts';

/** Progress reports at most this often (the last one, loaded = total, always goes). */
export const PROGRESS_EVERY_MS = 100;

/** `report`, called at most every `ms` ms, except a report of completion, which always goes. */
export function thinProgress(report: LlmProgress, ms = PROGRESS_EVERY_MS): LlmProgress {
  let last = -Infinity;
  return (loaded, total) => {
    const now = performance.now();
    if (now - last < ms && !(total > 0 && loaded >= total)) return;
    last = now;
    report(loaded, total);
  };
}

function mentorOf(intervention: Intervention): RemoteIntervention | null {
  return intervention instanceof RemoteIntervention && takesLlm(intervention.name)
    ? intervention
    : null;
}

export async function enableLaneLlm(
  intervention: Intervention,
  spec: LlmSpec,
  onProgress?: LlmProgress,
): Promise<LlmEnabled> {
  const mentor = mentorOf(intervention);
  try {
    if (!mentor) {
      return {
        ok: false,
        message: `this lane's method (${intervention.name}) has no mentor team for a language model to join`,
      };
    }
    // A plain function in front of the page's callback: the mentor's proxy calls it.
    const report = onProgress
      ? thinProgress((loaded, total) => void onProgress(loaded, total))
      : undefined;
    return await mentor.enableLlm(spec, report);
  } finally {
    releaseIfProxy(onProgress);
  }
}

export async function disableLaneLlm(intervention: Intervention): Promise<void> {
  await mentorOf(intervention)?.disableLlm();
}
