import * as Comlink from 'comlink';
import type { Backend } from '../../engine/backend.ts';
import { createBackend, type BackendPreference } from '../../engine/create-backend.ts';
import type { CheckResult } from '../../engine/selfcheck/check.ts';
import { KERNEL_CHECKS } from '../../engine/selfcheck/kernel-checks.ts';
import { runChecks } from '../../engine/selfcheck/run-checks.ts';
import { MODEL_CHECKS } from '../../model/selfcheck/model-checks.ts';

const CHECKS = [...KERNEL_CHECKS, ...MODEL_CHECKS];

export interface BackendInfo {
  kind: Backend['kind'];
  name: string;
  fallbackReason: string | null;
}

let backend: Backend | null = null;

/** The kernel self-check, run off the main thread on the backend the worker itself gets. */
const api = {
  async init(preference: BackendPreference): Promise<BackendInfo> {
    backend?.destroy();
    const choice = await createBackend(preference, navigator.gpu);
    backend = choice.backend;
    return { kind: backend.kind, name: backend.name, fallbackReason: choice.fallbackReason };
  },
  checkNames(): string[] {
    return CHECKS.map((c) => c.name);
  },
  async run(onResult: (r: CheckResult) => void): Promise<CheckResult[]> {
    if (!backend) throw new Error('self-check worker: init() first');
    return runChecks(backend, CHECKS, onResult);
  },
};

export type SelfCheckApi = typeof api;

Comlink.expose(api);
