import { FAMILY_IDS } from '../src/tasks/index.ts';
import type { Flag } from './flags.ts';

/** Flags several tools share, defined once so their names, values and help agree. */
export const TASK_FLAG: Flag = {
  name: 'task',
  kind: 'choice',
  choices: FAMILY_IDS,
  default: 'arithmetic',
  help: 'task family',
};
export const PRESET_FLAG: Flag = {
  name: 'preset',
  kind: 'choice',
  choices: ['tiny', 'small'],
  default: 'tiny',
  help: 'model preset',
};
export const BACKEND_FLAG: Flag = {
  name: 'backend',
  kind: 'choice',
  choices: ['cpu', 'webgpu'],
  default: 'cpu',
  help: 'compute backend (webgpu: Dawn in Node)',
};
export const SCHEDULE_FLAG: Flag = {
  name: 'schedule',
  kind: 'string',
  help: 'level changes "step:level,…" (overrides --scenario)',
};
