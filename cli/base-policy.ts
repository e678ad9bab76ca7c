import { loadCheckpoint } from '../src/model/checkpoint.ts';
import type { Transformer } from '../src/model/transformer.ts';
import { cliBackend } from './backend.ts';
import { readBaseCheckpoint } from './base-checkpoint.ts';
import { modelOf } from './common-flags.ts';
import type { FlagValues } from './flags.ts';

/** The base policy a tool measures (`--init`, else the shipped base of --model), on --backend. */
export async function loadBasePolicy(f: FlagValues, task: string): Promise<Transformer> {
  const bytes = readBaseCheckpoint(task, modelOf(f), f.init);
  return loadCheckpoint(await cliBackend(String(f.backend)), bytes).model;
}
