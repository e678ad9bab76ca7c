// The golden trace: short runs of every method on every family whose JSONL, wall-clock fields
// aside, is committed (cli/testing/golden/) and must be reproduced exactly, so that a change meant
// to move nothing (a refactoring) shows it moved nothing. The runs take the portable SIMD path:
// with relaxed SIMD the sums would depend on whether the CPU fuses multiply-adds.
import { spawn } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PORTABLE_TOOL_NODE_ARGS } from '../../scripts/tool-args.ts';

export interface GoldenRun {
  /** The file name under cli/testing/golden/, without `.jsonl.gz`. */
  name: string;
  args: string[];
}

export const GOLDEN_DIR = 'cli/testing/golden';

const METHODS = ['none', 'static', 'prefix', 'offpolicy', 'refine', 'mentor'];
// The jump comes after 50 steps (not the scenario's 100) so that help runs for 100 of the 150.
const FAMILIES = [
  { task: 'arithmetic', schedule: '0:3,50:4' },
  { task: 'listlang', schedule: '0:1,50:2' },
];
const COMMON = ['--seed', '1', '--steps', '150', '--eval-size', '50'];

/** Every method on every family, then variants that reach the trainer's other paths. */
export const GOLDEN_RUNS: GoldenRun[] = [
  ...FAMILIES.flatMap(({ task, schedule }) =>
    METHODS.map((method) => ({
      name: `${task}-${method}`,
      args: ['--task', task, '--method', method, '--schedule', schedule, ...COMMON],
    })),
  ),
  ...[
    ['mentor-importance', '--method', 'mentor', '--mentor-shaped', 'off'],
    ['mentor-whole', '--method', 'mentor', '--mentor-shaped', 'whole'],
    ['mentor-demonstrate', '--method', 'mentor', '--mentor-channel', 'demonstrate'],
    ['mentor-no-reminder', '--method', 'mentor', '--mentor-remind', 'off'],
    ['refine-from-mark', '--method', 'refine', '--refine-from-mark'],
    ['offpolicy-full', '--method', 'offpolicy-full'],
    ['refine-full', '--method', 'refine-full'],
    ['mentor-cd', '--method', 'mentor-cd'],
    ['placebo-cd', '--method', 'placebo-cd'],
    ['static-cd', '--method', 'static-cd'],
    ['static-unhinted', '--method', 'static-unhinted'],
    ['offpolicy-plain', '--method', 'offpolicy-plain'],
    // Dense evals after the jump: more eval lines, the same training.
    ['mentor-dense-evals', '--method', 'mentor', '--eval-dense-every', '10'],
    // The trainer's settings beside the method: PPO epochs, KL, distillation, annealing, replay.
    [
      'settings',
      '--method',
      'mentor',
      '--inner-epochs',
      '2',
      '--kl',
      '0.05',
      '--distill',
      '0.1',
      '--distill-max',
      '0.3',
      '--distill-prompts',
      '4',
      '--lr-decay',
      '0.3',
      '--keep-failed',
      '2',
      '--replay-max',
      '0.5',
      '--shaping-gamma',
      '0.05',
    ],
  ].map(([name, ...flags]) => ({
    name: `arithmetic-${name}`,
    args: ['--task', 'arithmetic', '--schedule', '0:3,50:4', ...COMMON, ...flags],
  })),
];

/** A JSONL line without what differs from one run to the next: its timing. */
function withoutWallClock(line: string): string {
  const row = JSON.parse(line) as Record<string, unknown>;
  delete row.tokens_per_s;
  const summary = row.summary as Record<string, unknown> | undefined;
  if (summary) delete summary.wall_s;
  return JSON.stringify(row);
}

/** The JSONL of one golden run (wall-clock fields removed), run as `npm run experiment` is. */
export function runGolden(run: GoldenRun): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...PORTABLE_TOOL_NODE_ARGS, 'cli/experiment.ts', ...run.args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(
            out
              .split('\n')
              .filter((l) => l.trim())
              .map(withoutWallClock)
              .join('\n') + '\n',
          )
        : reject(new Error(`${run.name} failed (${code}): ${err.slice(-500)}`)),
    );
  });
}

export const packGolden = (jsonl: string): Buffer => gzipSync(jsonl, { level: 9 });
export const unpackGolden = (bytes: Buffer): string => gunzipSync(bytes).toString('utf8');

/** Where two traces first differ, for a reader: the line and the fields that moved. */
export function firstDifference(want: string, got: string): string | null {
  const a = want.split('\n');
  const b = got.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (a[i] === undefined || b[i] === undefined)
      return `line ${i + 1}: ${a[i] === undefined ? 'extra' : 'missing'} in this run`;
    const x = JSON.parse(a[i]) as Record<string, unknown>;
    const y = JSON.parse(b[i]) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter(
      (k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]),
    );
    const show = (v: unknown) => JSON.stringify(v)?.slice(0, 200);
    return `line ${i + 1} (step ${String(x.step ?? 'summary')}): ${keys
      .map((k) => `${k}: golden ${show(x[k])}, now ${show(y[k])}`)
      .join('; ')}`;
  }
  return null;
}
