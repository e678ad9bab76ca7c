import { describe, expect, it } from 'vitest';
import { customMentorNotice } from './custom-mentor-notice.ts';

describe("what a lane says of its custom mentor's code", () => {
  it('says each fault in a sentence, and that the lane trains as plain GRPO', () => {
    expect(
      customMentorNotice({
        ok: false,
        fault: 'has the wrong shape',
        message: 'it exports x, and none of it is an intervention',
      }),
    ).toBe(
      "The custom mentor's code has the wrong shape: it exports x, and none of it is an intervention. The lane trains as plain GRPO until code that loads is applied.",
    );
    expect(
      customMentorNotice({
        ok: false,
        fault: 'does not load',
        message: 'Unexpected end of input (near line 1, column 17)',
      }),
    ).toBe(
      "The custom mentor's code does not load: Unexpected end of input (near line 1, column 17). The lane trains as plain GRPO until code that loads is applied.",
    );
  });

  it('names the loaded mentor, or says there is no code yet', () => {
    expect(customMentorNotice({ ok: true, name: 'mine' })).toBe(
      'The custom mentor "mine" is loaded; it helps from the next step.',
    );
    expect(customMentorNotice({ ok: true, name: null })).toMatch(/has no code to run yet/);
  });
});
