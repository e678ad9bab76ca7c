import type { BenchResult } from '../src/model/benchmark.ts';
import { formatFigure, formatRatio, formatValue } from '../src/model/benchmark-format.ts';
import type { BenchRow } from '../src/model/benchmark-rows.ts';
import type { Profile, StepProfile } from '../src/model/profile.ts';
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

/**
 * The CPU twin on one thread over the CPU twin on its pool, for the training step and cached
 * decoding (above 1× the pool is faster), or null where the bench ran no pool.
 */
export function threadsSpeedUp(results: readonly BenchResult[]): string | null {
  const cpu = results.filter((r) => r.kind === 'cpu');
  if (cpu.length < 2) return null;
  const [one, pool] = cpu;
  const decode = (r: BenchResult) =>
    r.generation.filter((g) => g.cache).reduce((s, g) => s + g.msPerToken, 0);
  const x = (v: number) => `${v.toFixed(2)}×`;
  return (
    `threads speed-up (${one.backend} ÷ ${pool.backend}): training step ${x(one.trainStepMs / pool.trainStepMs)}, ` +
    `decoding with the KV cache ${x(decode(one) / decode(pool))}`
  );
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
 * CPU twin's and our WebGPU's (where they ran); unavailable and failed peers say why. Below it,
 * where a peer decoded, the same for a decoding step with the KV cache.
 */
export function peerTable(ours: readonly BenchResult[], report: PeersReport): string {
  const training = trainingPeerTable(ours, report);
  const decoding = peerDecodingTable(ours, report);
  return decoding ? `${training}\n\n${decoding}` : training;
}

/** A "÷ our …" column's name for one of our results: WebGPU, or the CPU as named (its threads). */
const ourLabel = (r: BenchResult) => (r.kind === 'webgpu' ? 'WebGPU' : r.backend);

/** A "÷ our …" column for each of our figures that exists (CPU, CPU on its pool, WebGPU). */
function againstOurs(ours: readonly { label: string; ms: number | undefined }[]) {
  const present = ours.filter((o) => o.ms);
  return {
    head: present.map((o) => `÷ our ${o.label}`),
    cells: (ms: number | undefined) =>
      present.map((o) => (ms === undefined ? '' : formatRatio(ms / o.ms!))),
  };
}

function trainingPeerTable(ours: readonly BenchResult[], report: PeersReport): string {
  const { head: against, cells: ratios } = againstOurs(
    ours.map((r) => ({ label: ourLabel(r), ms: r.trainStepMs })),
  );
  const head = ['training step', 'ms', 'tokens/s', 'loss', ...against, 'notes'];
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

/** Decoding with the KV cache, ms per step of the whole batch: ours and each peer that decoded. */
function peerDecodingTable(ours: readonly BenchResult[], report: PeersReport): string | null {
  const spec = report.decode;
  const peers = report.results.flatMap((p) =>
    p.status === 'ok' && p.decoding ? [{ peer: p.peer, ...p.decoding }] : [],
  );
  if (!spec || peers.length === 0) return null;
  const msOf = (r: BenchResult) =>
    r.generation.find((g) => g.cache && g.promptLength === spec.promptLength)?.msPerToken;
  const { head: against, cells: ratios } = againstOurs(
    ours.map((r) => ({ label: ourLabel(r), ms: msOf(r) })),
  );
  const head = [
    `decoding, KV cache (batch ${spec.B}, prompt ${spec.promptLength})`,
    'ms/token',
    ...against,
    'notes',
  ];
  const body: string[][] = [];
  for (const r of ours) {
    const ms = msOf(r);
    if (ms !== undefined) body.push([`ours · ${r.backend}`, formatMs(ms), ...ratios(ms), '']);
  }
  for (const p of peers) {
    if (p.status === 'ok')
      body.push([
        p.peer,
        formatMs(p.msPerToken),
        ...ratios(p.msPerToken),
        `${p.steps} timed steps`,
      ]);
    else body.push([p.peer, '', ...ratios(undefined), `FAILED: ${p.reason}`]);
  }
  return alignTable(head, body, true);
}

/** One step of a profile: its phases, then its kernels (most time first), with their shares. */
export function profileTable(title: string, step: StepProfile, topKernels = 12): string {
  const total = step.phases.reduce((s, p) => s + p.ms, 0);
  const share = (ms: number, of: number) => (of > 0 ? `${((100 * ms) / of).toFixed(0)}%` : '');
  const phases = alignTable(
    [title, 'ms', 'share'],
    [
      ...step.phases.map((p) => [p.phase, formatMs(p.ms), share(p.ms, total)]),
      ['whole step', formatMs(total), ''],
    ],
  );
  const counts = `${step.launches} kernel launches, ${step.reads} reads to the host per step`;
  if (!step.kernels)
    return `${phases}
${counts}; this backend cannot time single kernels`;
  const kernelMs = step.kernels.reduce((s, k) => s + k.ms, 0);
  const shown = step.kernels.slice(0, topKernels);
  const rest = step.kernels.slice(topKernels);
  const kernels = alignTable(
    ['kernel', 'calls', 'ms', 'share'],
    [
      ...shown.map((k) => [k.kernel, String(k.calls), formatMs(k.ms), share(k.ms, kernelMs)]),
      ...(rest.length
        ? [
            [
              `${rest.length} more`,
              String(rest.reduce((s, k) => s + k.calls, 0)),
              formatMs(rest.reduce((s, k) => s + k.ms, 0)),
              share(
                rest.reduce((s, k) => s + k.ms, 0),
                kernelMs,
              ),
            ],
          ]
        : []),
      ['all kernels', String(step.launches), formatMs(kernelMs), ''],
    ],
  );
  return `${phases}

${kernels}
${counts}`;
}

/** Both steps of a backend's profile. */
export function profileReport(p: Profile): string {
  return [
    `Profile · ${p.backend}`,
    profileTable('training step', p.training),
    profileTable('decoding step (KV cache)', p.decoding),
  ].join('\n\n');
}

function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
