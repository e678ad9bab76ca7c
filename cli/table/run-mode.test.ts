import { describe, expect, it } from 'vitest';
import { parseTableArgs } from './args.ts';

const mode = (...argv: string[]) => parseTableArgs(['--task', 'arithmetic', ...argv]).mode;

describe('the run mode flags', () => {
  it('run here by default', () => {
    expect(mode()).toEqual({ kind: 'local' });
    expect(mode('--print-commands')).toEqual({ kind: 'print-commands' });
    expect(mode('--collect')).toEqual({ kind: 'collect' });
  });

  it("give sbatch the scheduler's options on --on slurm", () => {
    expect(
      mode(
        ...['--on', 'slurm', '--partition', 'cpu', '--time', '1:00:00', '--cpus-per-task', '2'],
        ...['--mem', '2G', '--sbatch-args=--account lab  --qos low', '--no-wait', '--poll', '3'],
      ),
    ).toEqual({
      kind: 'slurm',
      sbatch: {
        partition: 'cpu',
        time: '1:00:00',
        cpusPerTask: 2,
        mem: '2G',
        extra: ['--account', 'lab', '--qos', 'low'],
      },
      wait: false,
      resume: false,
      pollS: 3,
    });
    expect(mode('--on', 'slurm', '--resume')).toMatchObject({ wait: true, resume: true });
  });

  it('refuse what does not go together', () => {
    expect(() => mode('--partition', 'cpu')).toThrow(/--partition is for --on slurm/);
    expect(() => mode('--resume')).toThrow(/--resume is for --on slurm/);
    expect(() => mode('--collect', '--no-wait')).toThrow(/--no-wait is for --on slurm/);
    expect(() => mode('--on', 'slurm', '--collect')).toThrow(/do not go together/);
    expect(() => mode('--print-commands', '--collect')).toThrow(/do not go together/);
  });
});
