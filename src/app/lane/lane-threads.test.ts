import { describe, expect, it } from 'vitest';
import { MAX_AUTO_THREADS, threadsFor } from './lane-threads.ts';

describe("a lane's threads", () => {
  it('are what the URL asks for, or with threads=0 the cores, at most MAX_AUTO_THREADS', () => {
    expect(threadsFor(1, 16)).toBe(1);
    expect(threadsFor(3, 2)).toBe(3);
    expect(threadsFor(0, 2)).toBe(2);
    expect(threadsFor(0, 1)).toBe(1);
    expect(threadsFor(0, 0)).toBe(1);
    expect(threadsFor(0, 16)).toBe(MAX_AUTO_THREADS);
  });
});
