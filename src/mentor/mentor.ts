import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../rl/intervention.ts';
import { revealedFraction, type Problem } from '../tasks/index.ts';
import {
  CurriculumKeeper,
  DEFAULT_CURRICULUM,
  type CurriculumOptions,
  type CurriculumState,
} from './curriculum.ts';
import type { MentorDiagnosis } from './diagnosis.ts';
import { diagnose } from './diagnostician.ts';
import { DEFAULT_INSTRUCTOR, instruct, type InstructorOptions } from './instructor.ts';
import type { LlmAdvisor } from './llm/agent.ts';
import { narrate } from './narrator.ts';

export interface MentorOptions {
  instructor: InstructorOptions;
  curriculum: CurriculumOptions;
  /** Groups per step the LLM agent (when there is one) is asked about; the rest get rules. */
  llmPerStep: number;
}

export const DEFAULT_MENTOR: MentorOptions = {
  instructor: DEFAULT_INSTRUCTOR,
  curriculum: DEFAULT_CURRICULUM,
  llmPerStep: 2,
};

/**
 * MENTOR: for each group the Curriculum keeper selects, the Diagnostician names why it failed,
 * the Instructor writes the smallest help that targets it at the keeper's strength, and the
 * Narrator says so in one line. Rule-based, deterministic, fast enough to run every step.
 */
export class MentorIntervention implements Intervention {
  readonly name = 'mentor';
  readonly keeper: CurriculumKeeper;
  /** The opt-in LLM agent; null = rules only. */
  advisor: LlmAdvisor | null = null;

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
    let asked = 0;
    for (const group of this.keeper.select(batch, ctx)) {
      const diagnosis = diagnose(group);
      const help = instruct(diagnosis, group.problem, strength, this.opts.instructor);
      if (!help) continue;
      const rules: Reprompt = {
        group: group.group,
        hint: help.hint,
        scaffold: help.scaffold,
        strength,
        diagnosis,
        note: narrate(diagnosis, group.problem, help, ctx.round),
        author: 'rules',
      };
      if (this.advisor && asked < this.opts.llmPerStep) {
        asked++;
        out.push(
          await this.askLlm(
            this.advisor,
            rules,
            group.problem,
            group.attempts.map((a) => a.answer),
          ),
        );
      } else {
        out.push(rules);
      }
    }
    return out;
  }

  /** The LLM agent's hint in the hint slot (with the rules' scaffold), or the rules' help when it is rejected. */
  private async askLlm(
    advisor: LlmAdvisor,
    rules: Reprompt,
    problem: Problem,
    answers: string[],
  ): Promise<Reprompt> {
    const d = rules.diagnosis as MentorDiagnosis;
    const advice = await advisor.advise(d, problem, answers, rules.strength ?? 1);
    if (!advice.ok)
      return { ...rules, note: `${rules.note} (LLM hint rejected — ${advice.reason})` };
    const scaffoldShare = (rules.scaffold?.length ?? 0) / problem.answer.length;
    if (scaffoldShare + revealedFraction(problem, advice.hint) > this.opts.instructor.maxReveal) {
      return {
        ...rules,
        note: `${rules.note} (LLM hint rejected — with the scaffold it reveals too much)`,
      };
    }
    return { ...rules, hint: advice.hint, note: advice.sentence || rules.note, author: 'llm' };
  }

  /** LLM agent figures for the metrics (empty without one). */
  stats(): Record<string, number> {
    const s = this.advisor?.stats;
    if (!s || s.calls === 0) return {};
    return {
      llm_calls: s.calls,
      llm_valid_rate: s.valid / s.calls,
      llm_ms_per_call: s.totalMs / s.calls,
    };
  }

  observe(retry: ScoredBatch): void {
    this.keeper.observeHelped(retry);
  }
}
