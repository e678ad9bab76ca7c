import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkpointConfig } from '../../model/checkpoint.ts';
import { ARCHITECTURES } from '../../model/config.ts';
import { parseSafetensors } from '../../model/safetensors.ts';
import { FAMILY_IDS, familyEntry } from '../../tasks/index.ts';
import { warmupRecipe } from './recipes.ts';

// The shipped bases must be what `npm run pretrain -- --task <task>` makes from the recipe in
// code: a recipe edited without re-running the warm-up (or the reverse) fails here.
describe('shipped base checkpoints', () => {
  for (const task of FAMILY_IDS) {
    it(`${task}: architecture and warm-up mix are the recipe's`, () => {
      const recipe = warmupRecipe(task, familyEntry(task));
      const bytes = readFileSync(`public/checkpoints/${task}-tiny.safetensors`);
      const { metadata } = parseSafetensors(new Uint8Array(bytes));
      const config = checkpointConfig(metadata);
      expect(config.places?.maxPlace ?? 0).toBe(recipe.policy.maxPlace ?? 0);
      expect(config.rope ?? true).toBe(recipe.policy.rope ?? true);
      expect(config.layers).toBe(recipe.policy.layers ?? ARCHITECTURES.tiny.layers);
      const stored = JSON.parse(metadata.recipe ?? '{}') as Partial<typeof recipe>;
      expect(stored.mix).toEqual(recipe.mix);
      expect(stored.steps).toBe(recipe.steps);
      expect(stored.lr).toBe(recipe.lr);
      expect(stored.lengthHintShare).toBe(recipe.lengthHintShare);
      expect(stored.critique).toEqual(recipe.critique);
      expect(stored.restarts).toEqual(recipe.restarts);
    });
  }
});
