import type { GateChance } from './gate-chance.ts';
import type { LiteracyRow } from './literacy.ts';

/**
 * What a base's literacy table and gate say of its jump, before anyone runs it: a collapse within
 * reach of help, or not one (plain GRPO learns it, or escapes by chance soon), or out of reach
 * (help barely lifts it).
 */
export type GateKind = 'collapse' | 'no-collapse' | 'weak' | 'out-of-reach';

export interface GateVerdict {
  kind: GateKind;
  /** "greedy 0% at level 6; unhelped about 1 in 10¹²; with a length hint 100%". */
  summary: string;
  /** What it means, and what to try. */
  advice: string;
}

/** Greedy accuracy at the hard level at or above which plain GRPO needs no help. */
export const LEARNS_ALONE = 0.2;
/** Steps to the first success by chance below which a jump collapses only briefly. */
export const ESCAPES_SOON = 200;
/** Best helped accuracy below which help has too little to work with. */
export const HELP_REACHES = 0.1;

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(x > 0 && x < 0.1 ? 1 : 0)}%`;
}

/** "about 1 in 10⁸" for a chance of 1e-8; "never" for none at all. */
export function oneIn(chance: number): string {
  if (!(chance > 0)) return 'never';
  if (chance >= 0.01) return `about ${pct(chance)}`;
  const k = Math.round(-Math.log10(chance));
  return `about 1 in 10${[...String(k)].map((d) => SUPERSCRIPT[Number(d)]).join('')}`;
}

/**
 * What may make a jump collapse. Suggestions, not recipes: a longer answer is not always a harder
 * one for the base (one task stayed no collapse from 4 to 7 bits and to 10), so each is to be
 * checked by warming up and reading the verdict again.
 */
const TO_TRY =
  "Ways to make a collapse that holds, none sure to work (warm up again and read this verdict after each): a hard level further from the easy one; a warm-up with fewer of the hard level's problems (docs/tasks.md); a hard level that needs a step the easy levels never show.";

/** How soon plain GRPO sees an unhelped success by chance, in words that read at any wait. */
function briefly(gate: GateChance): string {
  if (gate.expectedWaitSteps <= 1) {
    // A right answer or more in every step: GRPO has a gradient at once.
    const right = Math.round(1 / gate.expectedWaitSteps);
    return `Hardly a collapse: about ${right} of the ${gate.samplesPerStep} unhelped answers of every step ${right === 1 ? 'is' : 'are'} right by chance, so plain GRPO has a gradient from the first step.`;
  }
  const steps = Math.round(gate.expectedWaitSteps);
  return `A brief collapse: an unhelped success comes by chance within about ${steps} ${steps === 1 ? 'step' : 'steps'}, and GRPO climbs from there.`;
}

export function gateVerdict(rows: readonly LiteracyRow[], gate: GateChance): GateVerdict {
  const row = rows.find((r) => r.level === gate.level);
  const cell = (help: string) => row?.cells.find((c) => c.help === help)?.accuracy ?? null;
  const greedy = cell('none') ?? 0;
  const helped = (row?.cells ?? []).filter((c) => c.help !== 'none' && c.accuracy !== null);
  const best = helped.reduce<{ help: string; accuracy: number } | null>(
    (b, c) =>
      b && b.accuracy >= (c.accuracy as number)
        ? b
        : { help: c.help, accuracy: c.accuracy as number },
    null,
  );
  const length = cell('length:1');
  const parts = [
    `greedy ${pct(greedy)} at level ${gate.level}`,
    `unhelped ${oneIn(gate.chance)}`,
    `with a length hint ${pct(length)}`,
  ];
  if (best && best.help !== 'length:1')
    parts.push(`best help (${best.help}) ${pct(best.accuracy)}`);
  const summary = parts.join('; ');
  if (greedy >= LEARNS_ALONE)
    return {
      kind: 'no-collapse',
      summary,
      advice: `Not a collapse: the base already solves the hard level without help, so plain GRPO learns it alone. ${TO_TRY}`,
    };
  if (gate.expectedWaitSteps < ESCAPES_SOON)
    return {
      kind: 'weak',
      summary,
      advice: `${briefly(gate)} Help may still be sooner. ${TO_TRY}`,
    };
  if ((best?.accuracy ?? 0) < HELP_REACHES)
    return {
      kind: 'out-of-reach',
      summary,
      advice:
        'Out of reach: help lifts the hard level too little for a re-attempt to succeed. Warm up longer, or make the jump smaller.',
    };
  return {
    kind: 'collapse',
    summary,
    advice:
      'A collapse within reach of help: plain GRPO should stay stuck at the hard level, while a hinted re-attempt often succeeds. Raise the difficulty and compare the lanes.',
  };
}
