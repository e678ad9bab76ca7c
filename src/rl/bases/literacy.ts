import type { Transformer } from '../../model/transformer.ts';
import {
  createRng,
  critiqueOf,
  makeHint,
  ownSolution,
  type HintKind,
  type Problem,
  type Strength,
  type TaskFamily,
} from '../../tasks/index.ts';
import { greedyAccuracy, type Attempt } from '../sampler.ts';
import type { Cue } from '../reprompt/cue.ts';

/** Greedy accuracy of one way of helping at one level (null when that help does not exist there). */
export interface LiteracyCell {
  help: string;
  accuracy: number | null;
  n: number;
}

export interface LiteracyRow {
  level: number;
  cells: LiteracyCell[];
  /** Unhinted answers shorter and longer than the reference: at listlang, too few or too many ops. */
  lengths: AnswerLengths;
}

/** Shares of answers shorter and longer than their problem's reference answer. */
export interface AnswerLengths {
  shorter: number;
  longer: number;
}

/** An answer cut off before its end token counts as longer: it ran past the reference's length. */
export function answerLengths(attempts: readonly Attempt[]): AnswerLengths {
  const n = Math.max(1, attempts.length);
  const off = (sign: number) =>
    attempts.filter((a) => Math.sign(a.answer.length - ownSolution(a.problem).length) === sign)
      .length / n;
  return { shorter: off(-1), longer: off(1) };
}

/** The helps a report measures: none, each hint kind at each strength, and scaffolds by share. */
export function helpMenu(
  family: TaskFamily,
): { name: string; cue: (p: Problem, seed: number) => Cue | null }[] {
  const menu: { name: string; cue: (p: Problem, seed: number) => Cue | null }[] = [
    { name: 'none', cue: () => ({}) },
  ];
  for (const kind of family.hintKinds as HintKind[]) {
    for (const strength of [1, 2, 3] as Strength[]) {
      if (kind === 'length' && strength > 1) continue;
      menu.push({
        name: `${kind}:${strength}`,
        cue: (p, seed) => {
          const hint = makeHint(p, kind, strength, createRng(seed).fork(`${kind}${strength}`));
          return hint ? { hint } : null;
        },
      });
    }
  }
  // Scaffolds: the first third, half or 60% of a right answer as the policy writes it forced (at
  // least one char, never all of it) — the channel the mentor uses to leave the breaking step to
  // the policy.
  for (const share of [1 / 3, 0.5, 0.6]) {
    menu.push({
      name: `scaffold:${Math.round(share * 100)}%`,
      cue: (p) => {
        const own = ownSolution(p);
        const k = Math.max(1, Math.floor(own.length * share));
        return k < own.length ? { scaffold: own.slice(0, k) } : null;
      },
    });
  }
  return menu;
}

/** The levels a literacy report covers: the family's, up to one past its collapse scenario's hard level. */
export function literacyLevels(family: TaskFamily, hard: number): number[] {
  const levels: number[] = [];
  for (let l = family.levels.min; l <= Math.min(family.levels.max, hard + 1); l++) levels.push(l);
  return levels;
}

/** A seeded problem set per level, the same for every model. */
export function literacyProblems(family: TaskFamily, level: number, n: number): Problem[] {
  const rng = createRng(0x11e7).fork(`literacy-${family.id}-${level}`);
  return Array.from({ length: n }, () => family.sample(level, rng));
}

/**
 * Hint literacy: greedy accuracy per level, unhinted and with every kind of help. The proof that
 * the base policy uses hints — and where a collapse scenario can be set. The last cell,
 * `critique`, is over the problems the policy fails unhinted: accuracy when its own wrong answer
 * is shown back with a critique (critiqueOf, marks within `critiqueReveal` of the answer) — what
 * critique-guided refinement asks of a base.
 */
export async function literacyReport(
  model: Transformer,
  family: TaskFamily,
  levels: readonly number[],
  n: number,
  critiqueReveal: number,
): Promise<LiteracyRow[]> {
  const rows: LiteracyRow[] = [];
  for (const level of levels) {
    const problems = literacyProblems(family, level, n);
    const cells: LiteracyCell[] = [];
    let unhinted: Attempt[] = [];
    for (const m of helpMenu(family)) {
      const r = await greedyAccuracy(model, family, problems, (p) => m.cue(p, problems.indexOf(p)));
      if (m.name === 'none') unhinted = r.attempts;
      cells.push({ help: m.name, accuracy: r.n ? r.accuracy : null, n: r.n });
    }
    const critiques = new Map(
      unhinted.map((a) => [a.problem, critiqueOf(a.problem, a.answer, critiqueReveal)]),
    );
    const r = await greedyAccuracy(model, family, problems, (p) => {
      const hint = critiques.get(p);
      return hint ? { hint } : null;
    });
    cells.push({ help: 'critique', accuracy: r.n ? r.accuracy : null, n: r.n });
    rows.push({ level, cells, lengths: answerLengths(unhinted) });
  }
  return rows;
}

/**
 * The report as a Markdown table: levels down, helps across, percentages; the last two columns
 * are the unhinted answers shorter and longer than the reference.
 */
export function literacyMarkdown(rows: readonly LiteracyRow[]): string {
  if (rows.length === 0) return '';
  const cols = [...rows[0].cells.map((c) => c.help), 'none: shorter', 'none: longer'];
  const pct = (x: number) => `${(100 * x).toFixed(1)}`;
  const head = `| level | ${cols.join(' | ')} |\n|---|${cols.map(() => '---:').join('|')}|`;
  const body = rows.map((r) => {
    const cells = r.cells.map((c) => (c.accuracy === null ? '–' : pct(c.accuracy)));
    return `| ${r.level} | ${[...cells, pct(r.lengths.shorter), pct(r.lengths.longer)].join(' | ')} |`;
  });
  return [head, ...body].join('\n');
}
