import type { SelfCheck } from './check.ts';
import { ENGINE_CHECKS } from './engine-checks.ts';
import { MODEL_KERNEL_CHECKS } from './model-kernel-checks.ts';

/** Every kernel's checks, in the order the page and the test suites run them. */
export const KERNEL_CHECKS: readonly SelfCheck[] = [...ENGINE_CHECKS, ...MODEL_KERNEL_CHECKS];
