import { describe, expect, it } from 'vitest';
import { CustomMentor } from './custom-mentor.svelte.ts';

describe("the custom mentor's status beside Apply", () => {
  it('never says the lane runs code that does not load', () => {
    const custom = new CustomMentor();
    expect(custom.status).toBe('No code applied: the custom lane trains as plain GRPO.');
    custom.draft = 'export default {';
    custom.apply();
    expect(custom.status).toMatch(/^Applied: the custom lane loads it now/);
    custom.report = {
      fault: true,
      message: "The custom mentor's code does not load: Unexpected end of input.",
    };
    expect(custom.status).not.toMatch(/^Applied/);
    expect(custom.status).toBe(
      'Not running: the applied code cannot be used (why is said below); the custom lane trains as plain GRPO until code that loads is applied.',
    );
    custom.draft = 'export default { plan: async () => [] };';
    expect(custom.status).toBe(
      'Edited since applied: Apply runs it from the next step. Until then the custom lane trains as plain GRPO (the applied code cannot be used).',
    );
  });

  it('says the code runs once a lane has loaded it', () => {
    const custom = new CustomMentor();
    custom.apply();
    custom.report = { fault: false, message: 'The custom mentor "length-hint" is loaded.' };
    expect(custom.status).toBe('Applied and loaded: the custom lane runs this code.');
    custom.draft = `${custom.draft}\n// more`;
    expect(custom.status).toBe('Edited since applied: Apply runs it from the next step.');
  });
});
