import { describe, expect, it } from 'vitest';
import { backendBadge } from './backend-badge.ts';

const cpu = { kind: 'cpu' as const, name: 'CPU', fallbackReason: null, fallbackChosen: false };

describe('the backend badge', () => {
  it('says the CPU was chosen, in a plain tone, where it is faster than a software adapter', () => {
    const b = backendBadge(
      {
        ...cpu,
        fallbackReason: 'the WebGPU adapter is a software one (swiftshader)',
        fallbackChosen: true,
      },
      null,
      '',
    );
    expect(b).toEqual({
      text: 'CPU, chosen: the WebGPU adapter is a software one (swiftshader)',
      tone: 'plain',
    });
    // Asked for with ?backend=cpu: plain too.
    expect(backendBadge(cpu, null, '').tone).toBe('plain');
  });

  it("says the CPU twin's threads last: how many, or why one", () => {
    const chosen = { ...cpu, fallbackReason: 'a software adapter', fallbackChosen: true };
    expect(backendBadge({ ...chosen, threads: '2 threads' }, null, '').text).toBe(
      'CPU, chosen: a software adapter · 2 threads',
    );
    expect(
      backendBadge({ ...cpu, fallbackReason: 'no adapter', threads: 'one thread (why)' }, null, '')
        .text,
    ).toBe('CPU fallback: no adapter · one thread (why)');
    expect(backendBadge({ ...cpu, threads: '4 threads' }, null, '').text).toBe('CPU · 4 threads');
  });

  it('warns only where WebGPU was wanted and failed, and is red only for an error', () => {
    expect(backendBadge({ ...cpu, fallbackReason: 'no WebGPU adapter' }, null, '')).toEqual({
      text: 'CPU fallback: no WebGPU adapter',
      tone: 'warn',
    });
    expect(backendBadge(null, 'the base is missing', '').tone).toBe('bad');
    expect(backendBadge(null, null, 'Starting the lanes…')).toEqual({
      text: 'Starting the lanes…',
      tone: 'wait',
    });
    expect(
      backendBadge(
        { kind: 'webgpu', name: 'WebGPU · x', fallbackReason: null, fallbackChosen: false },
        null,
        '',
      ).tone,
    ).toBe('gpu');
  });

  it('says which backend the lanes timed faster, and why', () => {
    const why = 'the faster here: a step took 12 ms on it against CPU 30 ms';
    expect(
      backendBadge(
        {
          kind: 'webgpu',
          name: 'WebGPU · x',
          fallbackReason: null,
          fallbackChosen: false,
          chosenBecause: why,
        },
        null,
        '',
      ),
    ).toEqual({ text: `WebGPU · x: ${why}`, tone: 'gpu' });
    expect(backendBadge({ ...cpu, chosenBecause: why }, null, '')).toEqual({
      text: `CPU: ${why}`,
      tone: 'plain',
    });
  });
});
