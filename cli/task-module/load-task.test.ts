import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { familyEntry } from '../../src/tasks/registry.ts';
import { createRng } from '../../src/tasks/rng.ts';
import { isTaskPath, loadTaskModule, loadedTask } from './load-task.ts';

const dir = mkdtempSync(join(tmpdir(), 'task-module-'));
function moduleFile(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

const WORDS = `
const word = (n, rng) => Array.from({ length: n }, () => rng.pick([...'abc'])).join('');`;

describe('loadTaskModule', () => {
  it('checks, imports and registers a sound task under its id', async () => {
    const path = moduleFile(
      'copy.mjs',
      `${WORDS}
export default { id: 'copy', label: 'Copy', levels: { min: 1, max: 3 },
  sample: (n, rng) => { const w = word(n, rng); return { text: w, answer: w }; } };`,
    );
    const entry = await loadTaskModule(path, 128);
    expect(entry.family.id).toBe('copy');
    expect(loadedTask(path)).toBe(entry);
    expect(familyEntry('copy')).toBe(entry);
    const p = entry.family.sample(3, createRng(2));
    expect(entry.family.verify(p, p.text).reward).toBe(1);
  }, 60_000);

  it('names the level of a sample that never returns, by its deadline', async () => {
    const path = moduleFile(
      'loops.mjs',
      `${WORDS}
export default { id: 'loops', label: 'Loops', levels: { min: 1, max: 4 },
  sample: (n, rng) => { while (n === 3) {} const w = word(n, rng); return { text: w, answer: w }; } };`,
    );
    await expect(loadTaskModule(path, 128, 3000)).rejects.toThrow(
      `--task ${path}: its load-time check did not end within 3 s (at level 3): a sample or verify that never returns?`,
    );
  }, 60_000);

  it('refuses a task that fails its check, listing the faults', async () => {
    const path = moduleFile(
      'shout.mjs',
      `export default { id: 'shout', label: 'Shout', levels: { min: 1, max: 2 },
  sample: () => ({ text: 'abc', answer: 'ABC' }) };`,
    );
    await expect(loadTaskModule(path, 128)).rejects.toThrow(
      /task "shout" is refused:\n {2}level 1, problem "abc": its answer holds "A" at position 0, not in the vocabulary/,
    );
  }, 60_000);

  it('says a module that does not load, or throws as it starts, does not load', async () => {
    const broken = moduleFile('broken.mjs', 'export default {');
    await expect(loadTaskModule(broken, 128)).rejects.toThrow(
      /broken\.mjs: does not load: Unexpected end of input \(near line 1, column 17\)$/,
    );
    const throwing = moduleFile('throws.mjs', "throw new Error('not today');");
    await expect(loadTaskModule(throwing, 128)).rejects.toThrow(/does not load: not today/);
    await expect(loadTaskModule(join(dir, 'missing.mjs'), 128)).rejects.toThrow(/does not load/);
  }, 60_000);

  it('tells a module file from a family id', () => {
    expect(isTaskPath('docs/examples/reverse.js')).toBe(true);
    expect(isTaskPath('mine.ts')).toBe(true);
    expect(isTaskPath('listlang')).toBe(false);
  });
});

describe('the starter task families', () => {
  it.each(['reverse', 'sort-letters', 'count-letter'])(
    'docs/examples/%s.js passes its check',
    async (name) => {
      const entry = await loadTaskModule(`docs/examples/${name}.js`, 128);
      expect(entry.family.id).toBe(name);
      const { easy, hard } = entry.collapse;
      expect(easy).toBeLessThan(hard);
      const p = entry.family.sample(hard, createRng(1));
      expect(entry.family.verify(p, p.answer).reward).toBe(1);
    },
    60_000,
  );
});
