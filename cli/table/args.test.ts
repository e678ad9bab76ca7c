import { describe, expect, it } from 'vitest';
import { parseTableArgs } from './args.ts';

const args = (...argv: string[]) => parseTableArgs(['--task', 'arithmetic', ...argv]);

describe("the table's reference method", () => {
  it('is the mentor by default, present or not (no ratios without it)', () => {
    expect(args().reference).toBe('mentor');
    expect(args('--methods', 'none,offpolicy').reference).toBe('mentor');
  });

  it('may be any method of the table, and no other', () => {
    expect(args('--methods', 'offpolicy,mentor-cd', '--reference', 'mentor-cd').reference).toBe(
      'mentor-cd',
    );
    expect(() => args('--methods', 'offpolicy,mentor', '--reference', 'mentor-cd')).toThrow(
      '--reference: mentor-cd is not one of --methods',
    );
  });
});

describe("the table's methods", () => {
  it('refuses a lesson made of working on a task that writes none', () => {
    expect(() => args('--methods', 'mentor,teacher-working')).toThrow(
      "--methods: teacher-working's lessons are made of working, which arithmetic does not write",
    );
    expect(
      parseTableArgs(['--task', 'worked', '--methods', 'mentor,random-step,teacher-cd']).methods,
    ).toEqual(['mentor', 'random-step', 'teacher-cd']);
  });

  it('runs every method the task can run by default, the variants only when named', () => {
    const all = args().methods;
    expect(all).toContain('mentor-cd');
    expect(all).not.toContain('teacher-working');
    expect(all).not.toContain('mentor-no-reminder');
    expect(args('--methods', 'mentor,mentor-no-reminder').methods).toEqual([
      'mentor',
      'mentor-no-reminder',
    ]);
  });
});
