import { describe, expect, it } from 'vitest';
import { TASK_CODE_PARAM } from './experiment-params.ts';
import {
  MAX_CODE_LENGTH,
  MAX_ENCODED_LENGTH,
  decodeSharedCode,
  encodeSharedCode,
  takeSharedCode,
} from './shared-code.ts';
import { MAX_QUERY_LENGTH, MAX_VALUE_LENGTH, decodeUrl } from './url-state.ts';

/** Code that compresses poorly: long enough to pass the query's limits once encoded. */
function codeOf(length: number): string {
  let x = 1;
  const chars = Array.from({ length }, () => {
    x = (x * 48271) % 2147483647;
    return String.fromCharCode(33 + (x % 90));
  });
  return `// ${chars.join('')}`;
}

describe('code in a link', () => {
  it("is exempt from the query's 4,096 and 256 character limits: taken out before they apply", async () => {
    const code = codeOf(6000);
    const encoded = await encodeSharedCode(code);
    expect(encoded.length).toBeGreaterThan(MAX_QUERY_LENGTH);
    const search = `?task=listlang&seed=7&mentor_code=${encoded}&task_code=${encoded}`;
    const mentor = takeSharedCode(search);
    const task = takeSharedCode(mentor.search, TASK_CODE_PARAM);
    expect(await decodeSharedCode(mentor.value ?? '')).toBe(code);
    expect(await decodeSharedCode(task.value ?? '')).toBe(code);
    const rest = decodeUrl(task.search);
    expect(rest.notices).toEqual([]);
    expect(rest.config).toMatchObject({ task: 'listlang', seed: 7 });
    expect(MAX_VALUE_LENGTH).toBeLessThan(encoded.length);
  });

  it('has bounds of its own: 16,000 characters encoded, 64,000 bytes inflated', async () => {
    await expect(decodeSharedCode('a'.repeat(MAX_ENCODED_LENGTH + 1))).rejects.toThrow(
      `it is ${MAX_ENCODED_LENGTH + 1} characters long (at most ${MAX_ENCODED_LENGTH})`,
    );
    const big = await encodeSharedCode(' '.repeat(MAX_CODE_LENGTH + 1));
    expect(big.length).toBeLessThan(MAX_ENCODED_LENGTH);
    await expect(decodeSharedCode(big)).rejects.toThrow(/inflates to more than 64000 bytes/);
    expect([MAX_ENCODED_LENGTH, MAX_CODE_LENGTH]).toEqual([16_000, 64_000]);
  });
});
