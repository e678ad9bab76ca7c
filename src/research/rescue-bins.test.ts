import { describe, expect, it } from 'vitest';
import { rescueBins, rescueBinsMarkdown, revealBin, type LedgerRecord } from './rescue-bins.ts';

const retry = (chars: number, rescued: boolean): LedgerRecord => ({
  rewards: rescued ? [0, 1] : [0, 0],
  reference_chars: chars,
  answer_chars: 5,
  help_kind: 'retry',
});

describe('what the rescues are made of', () => {
  it('bins a help by the share of the answer it showed: none, a quarter, a half, 80%, more', () => {
    expect([0, 1, 2, 3, 4, 5].map((c) => revealBin(c, 5))).toEqual([0, 1, 2, 3, 3, 4]);
    expect(revealBin(1, 4)).toBe(1);
    expect(revealBin(2, 4)).toBe(2);
  });

  it("counts each method's fresh attempts from the jump on, and leaves written answers out", () => {
    const runs = [
      {
        method: 'mentor',
        steps: [
          // Before the jump: not counted.
          { step: 9, interventions: [retry(4, true)] },
          { step: 10, interventions: [retry(4, true), retry(4, false), retry(0, false)] },
          {
            step: 11,
            interventions: [
              retry(1, true),
              { rewards: [1], reference_chars: 5, answer_chars: 5, help_kind: 'demonstration' },
              // A record from before the ledger.
              { rewards: [0] },
            ],
          },
        ],
      },
      { method: 'offpolicy', steps: [{ step: 10, interventions: [] }] },
    ];
    const rows = rescueBins(runs, ['offpolicy', 'mentor'], 10);
    expect(rows).toEqual([
      {
        method: 'mentor',
        bins: [
          { helps: 1, rescued: 0 },
          { helps: 1, rescued: 1 },
          { helps: 0, rescued: 0 },
          { helps: 2, rescued: 1 },
          { helps: 0, rescued: 0 },
        ],
        unledgered: 1,
      },
    ]);
    const md = rescueBinsMarkdown(rows);
    expect(md).toContain(
      '| mentor (1 not ledgered) | 1, 0.0% | 1, 100.0% | – | 2, 50.0% | – | 50% of 2 |',
    );
    expect(rescueBinsMarkdown([])).toBe('');
  });
});
