// Whether plain GRPO escapes a collapse by itself, in words a lecture can say before it happens:
// the gate's chance of a lucky right answer in a step at this experiment's P × G, and what the
// comparison protocol saw plain GRPO do over its seeds.
import { oneIn } from '../rl/bases/gate-verdict.ts';
import { hardSamplesPerStep } from '../rl/config.ts';
import { describeLevel, type ExperimentConfig, type FamilyId } from './experiment-config.ts';
import type { ShippedGate } from './shipped-gate.ts';

/** What the protocol saw plain GRPO do after the jump on a shipped base. */
export interface ProtocolEscapes {
  seeds: number;
  /** Seeds whose unhinted eval reached 0.5. */
  escaped: number;
  /** Steps after the jump at which they did, first and last; null when none did. */
  after: readonly [number, number] | null;
}

/** Plain GRPO (`none`) in docs/results.md, "Current standing": 16 × 8, 900 steps after the jump. */
export const PROTOCOL_ESCAPES: Record<FamilyId, ProtocolEscapes | null> = {
  arithmetic: { seeds: 10, escaped: 4, after: [775, 875] },
  listlang: { seeds: 10, escaped: 0, after: null },
  // Not yet through the protocol: the page says nothing it has not seen.
  worked: null,
};

export interface EscapeChance {
  /** Unhinted answers a step samples at the level being trained. */
  samplesPerStep: number;
  /** The chance that a step holds at least one right answer by luck. */
  perStep: number;
  /** Steps to the first lucky answer on average, were the policy still (the gate's wait). */
  waitSteps: number;
}

export function escapeChance(
  gate: ShippedGate,
  config: Pick<ExperimentConfig, 'prompts' | 'groupSize' | 'replay'>,
): EscapeChance {
  const n = hardSamplesPerStep(config);
  return {
    samplesPerStep: n,
    perStep: 1 - (1 - gate.chance) ** n,
    waitSteps: gate.chance > 0 ? 1 / (gate.chance * n) : Infinity,
  };
}

/** A count as said aloud: exact below 100, else to two significant digits. */
function roughly(n: number): string {
  if (n < 100) return String(Math.round(n));
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return (Math.round(n / unit) * unit).toLocaleString('en-US');
}

/** The gate's reading and the protocol's record, for the reading guide. */
export function escapeText(
  task: FamilyId,
  gate: ShippedGate,
  config: Pick<ExperimentConfig, 'prompts' | 'groupSize' | 'replay'>,
): string {
  const e = escapeChance(gate, config);
  const wait = Number.isFinite(e.waitSteps)
    ? `one every ${roughly(e.waitSteps)} steps on average`
    : 'never';
  const parts = [
    `At level ${gate.level} (${describeLevel(task, gate.level)}) the base writes the right answer without help ${oneIn(gate.chance)} tries (the gate, over ${gate.problems.toLocaleString('en-US')} problems).`,
    `At ${e.samplesPerStep} unhinted answers a step, a step holds a lucky right answer with a chance of ${oneIn(e.perStep)}: ${wait}.`,
    'Each lucky answer gives its group a little signal; many can add up to an escape, slowly.',
  ];
  const record = PROTOCOL_ESCAPES[task];
  if (record)
    parts.push(
      record.after
        ? `Under the comparison protocol (16 prompts × 8 answers, 900 steps after the jump) plain GRPO escaped (its unhinted eval reached 0.5) on ${record.escaped} of ${record.seeds} seeds, ${record.after[0]}–${record.after[1]} steps after the jump: a late climb of the GRPO lane is expected, not a fault.`
        : `Under the comparison protocol (16 prompts × 8 answers, 900 steps after the jump) plain GRPO escaped (its unhinted eval reached 0.5) on none of ${record.seeds} seeds.`,
    );
  return parts.join(' ');
}
