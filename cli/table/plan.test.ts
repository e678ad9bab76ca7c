import { describe, expect, it } from 'vitest';
import { tablePlan } from './plan.ts';

describe('tablePlan', () => {
  const table = {
    taskFlag: 'arithmetic',
    init: undefined,
    methods: ['none', 'mentor'],
    seeds: [1, 2],
    steps: 30,
    dir: 'out',
    extra: ['--eval-every', '5'],
    scheduleText: undefined,
  };

  it('is one npm run experiment command and one output path per method and seed', () => {
    const plan = tablePlan(table);
    expect(plan.map((r) => `${r.method}/${r.seed} → ${r.out}`)).toEqual([
      'none/1 → out/none-seed1.jsonl',
      'none/2 → out/none-seed2.jsonl',
      'mentor/1 → out/mentor-seed1.jsonl',
      'mentor/2 → out/mentor-seed2.jsonl',
    ]);
    expect(plan[3].args).toEqual([
      ...['--task', 'arithmetic', '--method', 'mentor', '--seed', '2', '--steps', '30'],
      ...['--out', 'out/mentor-seed2.jsonl', '--eval-every', '5'],
    ]);
  });

  it('passes --schedule on to every run where one was given', () => {
    const plan = tablePlan({ ...table, scheduleText: '0:3,10:4' });
    for (const r of plan) expect(r.args.slice(-2)).toEqual(['--schedule', '0:3,10:4']);
  });

  it('passes a task module file and --init on to every run as given', () => {
    const plan = tablePlan({
      ...table,
      taskFlag: 'docs/examples/reverse.js',
      init: 'runs/r.safetensors',
    });
    for (const r of plan) {
      expect(r.args.slice(0, 2)).toEqual(['--task', 'docs/examples/reverse.js']);
      expect(r.args.slice(6, 8)).toEqual(['--init', 'runs/r.safetensors']);
    }
  });
});
