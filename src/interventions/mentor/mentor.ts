import type {
  Intervention,
  Reprompt,
  Retry,
  ScoredBatch,
  TrainContext,
} from '../../rl/intervention.ts';
import { createRng, revealedFraction, type Problem, type Rng } from '../../tasks/index.ts';
import {
  CurriculumKeeper,
  DEFAULT_CURRICULUM,
  isReplayed,
  type CurriculumOptions,
  type CurriculumState,
} from './curriculum.ts';
import type { MentorDiagnosis } from './diagnosis.ts';
import { diagnose, diagnoseGeneric } from './diagnostician.ts';
import { DEFAULT_INSTRUCTOR, instruct, retryOf, type InstructorOptions } from './instructor.ts';
import type { LlmAdvisor } from './llm/agent.ts';
import { narrate } from './narrator.ts';
import { remind } from './reminder.ts';

export interface MentorOptions {
  instructor: InstructorOptions;
  /**
   * A replayed group of an earlier level that fails gets its answer back as a reminder
   * (reminder.ts) instead of a fresh attempt: what keeps the easy level while the hard one is
   * learned (docs/results/history.md, "Keeping the easy level"). Where the family writes working
   * no reminder can be given, and the group gets the usual lesson either way.
   */
  remind: boolean;
  curriculum: CurriculumOptions;
  /** Groups per step the LLM agent (when there is one) is asked about; the rest get rules. */
  llmPerStep: number;
  /**
   * `family`: the family's own Diagnostician where it has one (carries, ops); `generic`: the
   * task-agnostic one for every family (diagnoseGeneric), as a task without its own would get.
   */
  diagnosis: 'family' | 'generic';
}

export const DEFAULT_MENTOR: MentorOptions = {
  instructor: DEFAULT_INSTRUCTOR,
  curriculum: DEFAULT_CURRICULUM,
  remind: true,
  llmPerStep: 2,
  diagnosis: 'family',
};

/**
 * MENTOR: for each group the Curriculum keeper selects, the Diagnostician names why it failed,
 * the Instructor writes the smallest help that targets it at the keeper's strength, and the
 * Narrator says so in one line. Rule-based, deterministic, fast enough to run every step.
 */
export class MentorIntervention implements Intervention {
  /** `mentor`, or the variant's method name (mentor-generic), as runs and tables name it. */
  readonly name: string;
  readonly keeper: CurriculumKeeper;
  private llmAgent: LlmAdvisor | null = null;
  /** Interventions planned while the LLM agent was on, and those that carry its hint. */
  private llmCounts = { interventions: 0, used: 0 };
  /** Groups the LLM agent was asked about in this step (over all its rounds). */
  private llmAsked = { step: -1, n: 0 };

  /** Draws where a lesson is chosen by chance (InstructorOptions.source `random-step`). */
  private readonly chance: Rng;

  constructor(
    private readonly opts: MentorOptions = DEFAULT_MENTOR,
    name = 'mentor',
    seed = 0,
  ) {
    this.name = name;
    this.keeper = new CurriculumKeeper(opts.curriculum);
    this.chance = createRng(seed).fork('mentor-chance');
  }

  /** The opt-in LLM agent; null = rules only. Setting it starts its figures afresh. */
  get advisor(): LlmAdvisor | null {
    return this.llmAgent;
  }
  set advisor(advisor: LlmAdvisor | null) {
    this.llmAgent = advisor;
    this.llmCounts = { interventions: 0, used: 0 };
  }

  get state(): CurriculumState {
    return this.keeper.state;
  }

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    if (batch.round === 0) this.keeper.observeUnhinted(batch);
    const strength = this.keeper.strength(ctx.round);
    const out: Reprompt[] = [];
    if (this.llmAsked.step !== ctx.step) this.llmAsked = { step: ctx.step, n: 0 };
    for (const group of this.keeper.select(batch, ctx)) {
      const diagnosis =
        this.opts.diagnosis === 'generic' ? diagnoseGeneric(group) : diagnose(group);
      // Where no reminder can be given (the family writes working), the usual lesson instead:
      // a replayed group left without help leaves the easy level without a gradient (Amendment 6).
      const reminder =
        this.opts.remind && isReplayed(group, batch) ? remind(group, diagnosis, ctx) : null;
      if (reminder) {
        out.push(reminder);
        continue;
      }
      // Each group's draws keyed by where it is, so a resumed run draws the same.
      const chance = this.chance.fork(`${ctx.step}:${group.group}:${ctx.round}`);
      const lesson = instruct(diagnosis, group.problem, strength, this.opts.instructor, chance);
      if (!lesson) continue;
      const rules: Reprompt & { help: Retry } = {
        group: group.group,
        help: retryOf(lesson, this.opts.instructor),
        strength,
        diagnosis,
        note: narrate(diagnosis, group.problem, lesson, ctx.round),
        author: 'rules',
      };
      if (this.advisor && this.llmAsked.n < this.opts.llmPerStep) {
        this.llmAsked.n++;
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
    if (this.advisor) {
      this.llmCounts.interventions += out.length;
      this.llmCounts.used += out.filter((r) => r.author === 'llm').length;
    }
    return out;
  }

  /** The LLM agent's hint in the hint slot (with the rules' scaffold), or the rules' help when it is rejected. */
  private async askLlm(
    advisor: LlmAdvisor,
    rules: Reprompt & { help: Retry },
    problem: Problem,
    answers: string[],
  ): Promise<Reprompt> {
    const d = rules.diagnosis as MentorDiagnosis;
    const advice = await advisor.advise(d, problem, answers, rules.strength ?? 1);
    if (!advice.ok) return { ...rules, declined: { by: 'llm', why: advice.reason } };
    const scaffoldShare = (rules.help.scaffold?.length ?? 0) / problem.answer.length;
    if (scaffoldShare + revealedFraction(problem, advice.hint) > this.opts.instructor.maxReveal) {
      return { ...rules, declined: { by: 'llm', why: 'with the scaffold it reveals too much' } };
    }
    return {
      ...rules,
      help: { ...rules.help, hint: advice.hint },
      note: advice.sentence || rules.note,
      author: 'llm',
    };
  }

  /**
   * LLM agent figures for the metrics, since it was switched on (empty without one):
   * `llm_calls` replies asked for; `llm_valid_rate` share of them whose hint parsed, held and
   * revealed little enough; `llm_no_reply` calls that got no reply in time (or failed);
   * `llm_used_share` share of the interventions (planned while it was on) that carry its hint;
   * `llm_ms_per_call` mean time per call; `llm_ms_per_intervention` the LLM's time spread over
   * every intervention, which is what it adds to the mentor's time per intervention.
   */
  stats(): Record<string, number> {
    const s = this.advisor?.stats;
    if (!s) return {};
    const { interventions, used } = this.llmCounts;
    const out: Record<string, number> = { llm_calls: s.calls, llm_no_reply: s.failed };
    if (s.calls > 0) {
      out.llm_valid_rate = s.valid / s.calls;
      out.llm_ms_per_call = s.totalMs / s.calls;
    }
    if (interventions > 0) {
      out.llm_used_share = used / interventions;
      out.llm_ms_per_intervention = s.totalMs / interventions;
    }
    return out;
  }

  observe(retry: ScoredBatch): void {
    this.keeper.observeHelped(retry);
  }

  /** The keeper's statistics: what the mentor's next decisions depend on. */
  saveState(): { keeper: CurriculumState } {
    return { keeper: { ...this.keeper.state } };
  }

  restoreState(state: unknown): void {
    const keeper = (state as { keeper?: CurriculumState } | null)?.keeper;
    if (!keeper) throw new Error('the mentor state has no curriculum keeper');
    this.keeper.restore(keeper);
  }
}
