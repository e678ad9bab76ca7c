// The browser's mentor link: a dedicated worker (Node tests use inProcessMentor instead).
import { inheritingWorker } from '../../platform/inheriting-worker.ts';
import mentorWorkerUrl from './intervention.worker.ts?worker&url';
import type { MentorLink } from './remote.ts';

/**
 * The mentor in a dedicated worker (browser). A built-in method's starts from this site's URL and
 * takes that response's policy (which lets the opt-in language model reach its hub); the person's
 * code (`custom`) starts one that inherits its creator's policy: network to this site only.
 */
export function workerMentor(custom = false): MentorLink {
  const worker = custom
    ? inheritingWorker(mentorWorkerUrl, import.meta.url, 'custom mentor')
    : new Worker(new URL(mentorWorkerUrl, import.meta.url), { type: 'module', name: 'mentor' });
  return { endpoint: worker, dispose: () => worker.terminate() };
}
