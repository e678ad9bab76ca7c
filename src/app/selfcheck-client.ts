import * as Comlink from 'comlink';
import type { BackendPreference } from '../engine/create-backend.ts';
import type { CheckResult } from '../engine/selfcheck/check.ts';
import type { BackendInfo, SelfCheckApi } from './workers/selfcheck.worker.ts';

export type { BackendInfo, CheckResult };

/** A dedicated worker that owns a backend and runs the kernel parity suite on request. */
export class SelfCheckClient {
  private readonly worker = new Worker(new URL('./workers/selfcheck.worker.ts', import.meta.url), {
    type: 'module',
    name: 'self-check',
  });
  private readonly api = Comlink.wrap<SelfCheckApi>(this.worker);

  init(preference: BackendPreference): Promise<BackendInfo> {
    return this.api.init(preference);
  }

  run(onResult: (r: CheckResult) => void): Promise<CheckResult[]> {
    return this.api.run(Comlink.proxy(onResult));
  }

  dispose(): void {
    this.worker.terminate();
  }
}
