import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../rl/intervention.ts';
import {
  CurriculumKeeper,
  DEFAULT_CURRICULUM,
  type CurriculumOptions,
  type CurriculumState,
} from './curriculum.ts';
import { diagnose } from './diagnostician.ts';
import { DEFAULT_INSTRUCTOR, instruct, type InstructorOptions } from './instructor.ts';
import { narrate } from './narrator.ts';

export interface MentorOptions {
  instructor: InstructorOptions;
  curriculum: CurriculumOptions;
}

export const DEFAULT_MENTOR: MentorOptions = {
  instructor: DEFAULT_INSTRUCTOR,
  curriculum: DEFAULT_CURRICULUM,
};

/**
 * MENTOR: for each group the Curriculum keeper selects, the Diagnostician names why it failed,
 * the Instructor writes the smallest help that targets it at the keeper's strength, and the
 * Narrator says so in one line. Rule-based, deterministic, fast enough to run every step.
 */
export class MentorIntervention implements Intervention {
  readonly name = 'mentor';
  readonly keeper: CurriculumKeeper;

  constructor(private readonly opts: MentorOptions = DEFAULT_MENTOR) {
    this.keeper = new CurriculumKeeper(opts.curriculum);
  }

  get state(): CurriculumState {
    return this.keeper.state;
  }

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    if (batch.round === 0) this.keeper.observeUnhinted(batch);
    const strength = this.keeper.strength(ctx.round);
    const out: Reprompt[] = [];
    for (const group of this.keeper.select(batch, ctx)) {
      const diagnosis = diagnose(group);
      const help = instruct(diagnosis, group.problem, strength, this.opts.instructor);
      if (!help) continue;
      out.push({
        group: group.group,
        hint: help.hint,
        scaffold: help.scaffold,
        strength,
        diagnosis,
        note: narrate(diagnosis, group.problem, help, ctx.round),
        author: 'rules',
      });
    }
    return out;
  }

  observe(retry: ScoredBatch): void {
    this.keeper.observeHelped(retry);
  }
}
