import { describe, expect, it } from 'vitest';
import { lanesBadge } from './lanes-badge.ts';
import { LockstepLanes } from './lockstep-lanes.svelte.ts';
import { Notices } from './notices.svelte.ts';
import { CUSTOM_TASK } from './experiment-config.ts';
import { presetConfig } from './presets.ts';
import { quietLockstep } from './testing/quiet-lockstep.ts';

function lockstep(): { lanes: LockstepLanes; notices: Notices } {
  return quietLockstep({ ...presetConfig('quick'), task: CUSTOM_TASK });
}

describe('the page’s backend badge for the lanes', () => {
  it('says the lanes wait for a custom task’s base, as no error and in no notice', () => {
    const { lanes, notices } = lockstep();
    lanes.stop(0, false);
    lanes.wait('Warm a base up for your task in the Custom task panel: the lanes start from it');
    expect(lanes.phase).toBe('waiting');
    expect(lanesBadge(lanes)).toEqual({
      info: null,
      error: null,
      waiting: 'Waiting for a base for your task',
    });
    expect(notices.list).toEqual([]);
    // The slider cannot record a level change for lanes that are not there.
    lanes.setLevel(5);
    expect(lanes.level).toBe(3);
  });

  it('says why the lanes failed to start, as an error and in a notice', () => {
    const { lanes, notices } = lockstep();
    lanes.stop(0, false);
    lanes.fail('no base policy for arithmetic');
    expect(lanesBadge(lanes)).toMatchObject({ info: null, error: 'no base policy for arithmetic' });
    expect(notices.list.map((n) => n.level)).toEqual(['error']);
  });
});
