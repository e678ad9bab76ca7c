import { packBatch } from '../../model/batch.ts';
import type { Transformer } from '../../model/transformer.ts';
import {
  PAD,
  encodeSequence,
  ownSolution,
  type Problem,
  type TaskFamily,
} from '../../tasks/index.ts';
import { hardSamplesPerStep, type GrpoConfig } from '../config.ts';
import { literacyProblems } from './literacy.ts';

/**
 * How often sampling at temperature 1 writes the reference answer to an unhinted prompt. While
 * every group fails plain GRPO gets no gradient, so the wait for its first success by chance is
 * set by this chance. A lower bound on the chance of a right answer (other passing answers are
 * not counted), and the policy is not quite still (replayed easy prompts move it): the wait is
 * an upper bound that ranks bases rather than predicts a run (docs/results.md, "The gate").
 */
export interface GateChance {
  level: number;
  problems: number;
  /** Mean over the problems of P(reference answer and end token | unhinted prompt). */
  chance: number;
  /** Unhinted answers one plain GRPO step samples at the level (replayed prompts left out). */
  samplesPerStep: number;
  /** 1 / (chance × samplesPerStep): expected steps to the first success, were the policy still. */
  expectedWaitSteps: number;
  /** The reference answers that hold most of the chance, largest first, with their share. */
  leaders: { answer: string; share: number }[];
}

const CHUNK = 100;

/** P(answer and end token | the problem's unhinted prompt) per item, teacher-forced. */
export async function answerChances(
  model: Transformer,
  items: readonly { problem: Problem; answer: string }[],
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    const seqs = items
      .slice(i, i + CHUNK)
      .map(({ problem, answer }) => encodeSequence(problem, answer));
    const batch = packBatch(
      seqs.map((s) => s.tokens),
      PAD,
    );
    const { logp } = await model.score(batch);
    seqs.forEach((s, b) => {
      const row = b * batch.T + batch.start[b];
      let sum = 0;
      // Row t holds log p(token t + 1): the answer's characters and its end token.
      for (let t = s.answerStart - 1; t < s.tokens.length - 1; t++) sum += logp[row + t];
      out.push(Math.exp(sum));
    });
  }
  return out;
}

/** Expected steps to the first success by chance, were the policy still; never where the chance is 0. */
export function expectedWait(chance: number, samplesPerStep: number): number {
  return chance > 0 ? 1 / (chance * samplesPerStep) : Infinity;
}

/** Sum per-problem chances (one or more per problem: its right forms) into the gate's figures. */
export function summariseGate(
  level: number,
  chances: readonly { answer: string; chance: number }[],
  samplesPerStep: number,
  leaders = 5,
  problems = chances.length,
): GateChance {
  const total = chances.reduce((s, c) => s + c.chance, 0);
  const byAnswer = new Map<string, number>();
  for (const c of chances) byAnswer.set(c.answer, (byAnswer.get(c.answer) ?? 0) + c.chance);
  const chance = problems ? total / problems : 0;
  return {
    level,
    problems,
    chance,
    samplesPerStep,
    expectedWaitSteps: expectedWait(chance, samplesPerStep),
    leaders: [...byAnswer]
      .sort((a, b) => b[1] - a[1])
      .slice(0, leaders)
      .map(([answer, mass]) => ({ answer, share: total > 0 ? mass / total : 0 })),
  };
}

/** The gate at `level` over the literacy report's seeded problems (n of them). */
export async function gateChance(
  model: Transformer,
  family: TaskFamily,
  level: number,
  n: number,
  config: Pick<GrpoConfig, 'prompts' | 'groupSize' | 'replay'>,
): Promise<GateChance> {
  const problems = literacyProblems(family, level, n);
  const items = problems.flatMap((problem) =>
    rightForms(family, problem).map((answer) => ({ problem, answer })),
  );
  const chances = await answerChances(model, items);
  return summariseGate(
    level,
    items.map((item, i) => ({ answer: item.problem.answer, chance: chances[i] })),
    hardSamplesPerStep(config),
    5,
    problems.length,
  );
}

/**
 * The ways of writing a right answer the gate adds up: the policy's own solution (working and
 * all), and the reference alone where the family takes that too (an answer without its working).
 */
export function rightForms(family: TaskFamily, problem: Problem): string[] {
  const own = ownSolution(problem);
  const bare = problem.answer;
  return own !== bare && family.verify(problem, bare).reward > 0 ? [own, bare] : [own];
}

/** One line for a terminal or a report: the chance, the wait it implies, where the chance lies. */
export function gateLine(g: GateChance): string {
  const wait = Number.isFinite(g.expectedWaitSteps)
    ? `${Math.round(g.expectedWaitSteps)} steps`
    : 'never';
  const leaders = g.leaders.map((l) => `${l.answer} ${(100 * l.share).toFixed(0)}%`).join(', ');
  return `level ${g.level}: unhinted chance of the reference answer ${g.chance.toExponential(2)} over ${g.problems} problems; at ${g.samplesPerStep} samples a step, the first success by chance after ${wait} on average; most of it on ${leaders}`;
}
