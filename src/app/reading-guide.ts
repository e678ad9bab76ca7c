// "How to read this": what a student needs before reading the page — how the task is written,
// what each line is, why "no learning signal" is high before the jump, and whether plain GRPO can
// escape by itself. Plain text; the page renders it as text.
import { isFamilyId } from '../tasks/registry.ts';
import { CUSTOM_TASK, type ExperimentConfig } from './experiment-config.ts';
import { escapeText } from './plain-escape.ts';
import { notationNote } from './reading.ts';
import type { ShippedGate } from './shipped-gate.ts';

export interface GuideItem {
  title: string;
  text: string;
}

/** Why the zero-std line is high before the jump: also the signal chart's note. */
export const ZERO_STD_NOTE =
  'Before the jump the dashed zero-std line sits near 1 because nearly every answer is right: a group whose rewards are all 1 has equal rewards, and equal rewards give no learning signal — there is nothing left to learn. After the jump the solid all-fail line shows the rewards are equal because all are 0.';

/** Whether plain GRPO escapes by itself: the shipped base's gate, or where to read the task's own. */
function escape(
  config: Pick<ExperimentConfig, 'task' | 'prompts' | 'groupSize' | 'replay'>,
  gate: ShippedGate | null,
  imported: boolean,
): string | null {
  const { task } = config;
  if (task === CUSTOM_TASK)
    return 'Your task’s gate — how soon an unhelped right answer comes by chance — is read in the Custom task panel once a base is warmed up.';
  if (!gate || !isFamilyId(task)) return null;
  const whose = imported ? 'For the shipped base (the lanes start from an imported one): ' : '';
  return `${whose}${escapeText(task, gate, config)}`;
}

export function readingGuide(x: {
  config: Pick<ExperimentConfig, 'task' | 'prompts' | 'groupSize' | 'replay'>;
  /** The lanes' names, lane A (orange) first. */
  names: readonly [string, string];
  /** The shipped base's gate reading, where one ships. */
  gate: ShippedGate | null;
  /** The lanes start from an imported checkpoint, not the shipped base. */
  imported: boolean;
}): GuideItem[] {
  const items: GuideItem[] = [];
  const notation = notationNote(x.config.task);
  if (notation) items.push({ title: 'Numbers', text: notation });
  items.push({
    title: 'Lines',
    text: `Colour is the lane: orange is ${x.names[0]}, blue is ${x.names[1]}. In the eval chart a solid line is the current level, dashed the level before the last change, dotted the mean over every level so far; each chart's legend draws its lines and, with the pointer off the chart, gives their latest values. A purple dashed line marked L and a level (L4) is where the difficulty changed; the lines break there.`,
  });
  items.push({ title: 'No learning signal', text: ZERO_STD_NOTE });
  const chance = escape(x.config, x.gate, x.imported);
  if (chance) items.push({ title: 'Can plain GRPO escape by itself?', text: chance });
  return items;
}
