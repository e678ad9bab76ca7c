import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../rl/intervention.ts';
import { PrefixHints } from './baselines/prefix.ts';
import { StaticHints } from './baselines/static.ts';
import { MentorIntervention } from './mentor.ts';

/** Methods the mentor worker hosts; `none` needs no worker. */
export type HostedMethod = 'static' | 'prefix' | 'mentor';
export const HOSTED_METHODS: readonly HostedMethod[] = ['static', 'prefix', 'mentor'];

export function hostedIntervention(method: HostedMethod, seed: number): Intervention {
  switch (method) {
    case 'static':
      return new StaticHints(seed);
    case 'prefix':
      return new PrefixHints();
    case 'mentor':
      return new MentorIntervention();
  }
}

/** What the mentor worker exposes over Comlink. Arguments and results are plain data. */
export interface MentorApi {
  configure(method: HostedMethod, seed: number): void;
  plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]>;
  observe(retry: ScoredBatch, ctx: TrainContext): Promise<void>;
}

export function createMentorApi(): MentorApi {
  let current: Intervention | null = null;
  const need = () => {
    if (!current) throw new Error('mentor worker: configure() first');
    return current;
  };
  return {
    configure(method, seed) {
      current = hostedIntervention(method, seed);
    },
    plan: (batch, ctx) => need().plan(batch, ctx),
    async observe(retry, ctx) {
      await need().observe?.(retry, ctx);
    },
  };
}
