import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeUrl } from './url-state.ts';
import { DOC_PATH, paramTable, withParamTable } from './url-params-doc.ts';

describe('the URL parameter table of the docs', () => {
  it('is the one the parameter table makes (npm run docs:params writes it)', () => {
    const doc = readFileSync(DOC_PATH, 'utf8');
    expect(withParamTable(doc)).toBe(doc);
  });

  it('names every parameter the decoder reads, and nothing else', () => {
    const names = [...paramTable().matchAll(/^\| `(\w+)`/gm)].map((m) => m[1]);
    expect(names).toContain('group_size');
    const query = names.map((n) => `${n}=`).join('&');
    expect(decodeUrl(`?${query}`).notices.join('\n')).not.toMatch(/unknown parameter/);
  });

  it('refuses a document without its markers', () => {
    expect(() => withParamTable('# no table here')).toThrow(/markers are missing/);
  });
});
