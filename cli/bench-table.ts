import {
  formatFigure,
  formatRatio,
  formatValue,
  type BenchResult,
  type BenchRow,
} from '../src/model/benchmark.ts';
import type { PeersReport } from './peers/run.ts';

/** Rows as aligned plain text: figure names left, numbers right, one column per backend. */
export function benchTable(results: readonly BenchResult[], rows: readonly BenchRow[]): string {
  const withRatio = rows.some((r) => r.ratio !== null);
  const head = ['figure', ...results.map((r) => r.backend), ...(withRatio ? ['WebGPU/CPU'] : [])];
  const body = rows.map((row) => [
    row.label,
    ...row.values.map((v) => formatValue(row, v)),
    ...(withRatio ? [formatRatio(row.ratio)] : []),
  ]);
  return alignTable(head, body);
}

/** Aligned plain text: the first column left, the others right (with leftLast, the last left). */
function alignTable(head: string[], body: string[][], leftLast = false): string {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((cells) => cells[c].length)));
  const last = head.length - 1;
  const line = (cells: string[]) =>
    cells
      .map((s, c) =>
        c === 0 || (leftLast && c === last) ? s.padEnd(widths[c]) : s.padStart(widths[c]),
      )
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** A loss as the peer table shows it: the 7 significant digits the check compares. */
const formatLoss = (x: number | undefined) => (x === undefined ? '' : x.toPrecision(7));

/**
 * The training step of every peer beside ours: ms, tokens/s, loss, and the peer's time over our
 * CPU twin's and our WebGPU's (where they ran); unavailable and failed peers say why.
 */
export function peerTable(ours: readonly BenchResult[], report: PeersReport): string {
  const cpu = ours.find((r) => r.kind === 'cpu');
  const gpu = ours.find((r) => r.kind === 'webgpu');
  const head = [
    'training step',
    'ms',
    'tokens/s',
    'loss',
    ...(cpu ? ['÷ our CPU'] : []),
    ...(gpu ? ['÷ our WebGPU'] : []),
    'notes',
  ];
  const ratios = (ms: number | undefined) => [
    ...(cpu ? [ms === undefined ? '' : formatRatio(ms / cpu.trainStepMs)] : []),
    ...(gpu ? [ms === undefined ? '' : formatRatio(ms / gpu.trainStepMs)] : []),
  ];
  const body = ours.map((r) => [
    `ours · ${r.backend}`,
    formatFigure(r.trainStepMs),
    formatFigure(r.trainTokensPerSecond),
    r.kind === 'cpu' ? formatLoss(report.loss) : '',
    ...ratios(r.trainStepMs),
    r.kind === 'cpu' ? `after one step ${formatLoss(report.lossAfterStep)}` : '',
  ]);
  for (const p of report.results) {
    if (p.status === 'ok') {
      body.push([
        p.peer,
        formatFigure(p.stepMs),
        formatFigure(p.tokensPerSecond),
        formatLoss(p.loss),
        ...ratios(p.stepMs),
        `${p.detail}; ${p.steps} timed step${p.steps === 1 ? '' : 's'}`,
      ]);
    } else {
      const loss = p.status === 'failed' ? p.loss : undefined;
      const note = p.status === 'failed' ? `FAILED: ${p.reason}` : `unavailable: ${p.reason}`;
      body.push([p.peer, '', '', formatLoss(loss), ...ratios(undefined), note]);
    }
  }
  return alignTable(head, body, true);
}
