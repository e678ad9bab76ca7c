// What a method's rescues are made of: its fresh attempts (retries and refinements) after the jump,
// binned by the share of the reference answer their help showed (the reference ledger), each bin
// with how many helps it holds and how many of them rescued their group (a right answer among the
// fresh ones). Written answers are left out: they show the whole answer and need no rescue.

/** The part of an intervention record the bins read. */
export interface LedgerRecord {
  rewards: readonly number[];
  reference_chars?: number;
  answer_chars?: number;
  help_kind?: string;
}

/** The part of a run the bins read. */
export interface LedgerRun {
  method: string;
  steps: readonly { step: number; interventions?: readonly LedgerRecord[] }[];
}

/** Upper ends of the bins (a share of the answer): none, up to a quarter, a half, 80%, all. */
export const REVEAL_BINS = [0, 0.25, 0.5, 0.8, 1] as const;
export const REVEAL_BIN_LABELS = ['0', '≤ 25%', '≤ 50%', '≤ 80%', '> 80%'] as const;

export interface RescueBin {
  helps: number;
  rescued: number;
}

export interface MethodRescues {
  method: string;
  bins: RescueBin[];
  /** Fresh attempts whose record predates the ledger: not binned. */
  unledgered: number;
}

/** The bin of a help that showed `chars` of an answer of `whole` characters. */
export function revealBin(chars: number, whole: number): number {
  const share = whole > 0 ? chars / whole : 0;
  return REVEAL_BINS.findIndex((top) => share <= top + 1e-9);
}

/** Each method's fresh attempts from the step of the jump on, binned; methods with none left out. */
export function rescueBins(
  runs: readonly LedgerRun[],
  methods: readonly string[],
  jump: number,
): MethodRescues[] {
  const out: MethodRescues[] = [];
  for (const method of methods) {
    const bins = REVEAL_BINS.map(() => ({ helps: 0, rescued: 0 }));
    let unledgered = 0;
    let fresh = 0;
    for (const run of runs.filter((r) => r.method === method))
      for (const s of run.steps) {
        if (s.step < jump) continue;
        for (const r of s.interventions ?? []) {
          if (r.help_kind === 'demonstration') continue;
          fresh++;
          if (r.reference_chars === undefined || r.answer_chars === undefined) {
            unledgered++;
            continue;
          }
          const bin = bins[revealBin(r.reference_chars, r.answer_chars)];
          bin.helps++;
          if (r.rewards.some((x) => x > 0)) bin.rescued++;
        }
      }
    if (fresh > 0) out.push({ method, bins, unledgered });
  }
  return out;
}

/**
 * The bins as a markdown table: per method and bin the helps and the share that rescued their
 * group, and each bin's share of all the method's rescues.
 */
export function rescueBinsMarkdown(rows: readonly MethodRescues[]): string {
  if (rows.length === 0) return '';
  const head = [
    'method',
    ...REVEAL_BIN_LABELS.map((l) => `answer shown ${l}: helps, rescued`),
    'rescues with > 50% shown',
  ];
  const lines = rows.map(({ method, bins, unledgered }) => {
    const rescues = bins.reduce((n, b) => n + b.rescued, 0);
    const late = bins.slice(3).reduce((n, b) => n + b.rescued, 0);
    const cells = bins.map((b) =>
      b.helps === 0 ? '–' : `${b.helps}, ${((100 * b.rescued) / b.helps).toFixed(1)}%`,
    );
    const share = rescues === 0 ? '–' : `${((100 * late) / rescues).toFixed(0)}% of ${rescues}`;
    return [`${method}${unledgered > 0 ? ` (${unledgered} not ledgered)` : ''}`, ...cells, share];
  });
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...lines.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
