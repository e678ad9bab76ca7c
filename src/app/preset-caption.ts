// What the preset picker says of the experiment: the preset's own description while the
// experiment is still that preset's, what changed once it is not, and that none applies on the
// person's own task (the presets set up the shipped ones).
import {
  CUSTOM_TASK,
  laneMethodLabel,
  taskLabel,
  type ExperimentConfig,
} from './experiment-config.ts';
import { teachingPreset } from './presets.ts';

export interface PresetCaption {
  /** Whether the picker shows the preset as the experiment's (else: none). */
  applies: boolean;
  text: string;
}

export function presetCaption(
  c: Pick<ExperimentConfig, 'preset' | 'task' | 'methods'>,
): PresetCaption {
  if (c.task === CUSTOM_TASK)
    return {
      applies: false,
      text: 'No preset: the lanes train on your own task. The presets set up the shipped tasks; picking one leaves yours for its task.',
    };
  const preset = teachingPreset(c.preset);
  const changed: string[] = [];
  if (c.task !== preset.config.task) changed.push(`the task is ${taskLabel(c.task)}`);
  c.methods.forEach((m, i) => {
    if (m !== preset.config.methods[i]) changed.push(`lane ${'AB'[i]} runs ${laneMethodLabel(m)}`);
  });
  return changed.length === 0
    ? { applies: true, text: preset.description }
    : {
        applies: true,
        text: `Started from the preset “${preset.title}”; changed since: ${changed.join('; ')}.`,
      };
}
