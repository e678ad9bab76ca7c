import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { experimentCommand, shellWord } from './experiment-command.ts';

describe('experimentCommand', () => {
  it("is the run's node command, each word as the shell reads it back", () => {
    const args = ['--out', "runs/it's here.jsonl", '--extra', '$HOME `x` "y"', ''];
    const command = experimentCommand({ method: 'none', seed: 1, args, out: '' });
    expect(command).toMatch(/^node --experimental-wasm-relaxed-simd .* cli\/experiment\.ts --out /);
    const echoed = spawnSync('sh', ['-c', `printf '%s\\n' ${args.map(shellWord).join(' ')}`], {
      encoding: 'utf8',
    });
    expect(echoed.stdout).toBe(args.map((a) => `${a}\n`).join(''));
  });
});
