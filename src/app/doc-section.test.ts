import { describe, expect, it } from 'vitest';
import { markdownTable, withSection } from './doc-section.ts';

describe('a made section of the docs', () => {
  it('lays a table out as Prettier does', () => {
    expect(markdownTable(['a', 'long header'], [['wide cell', 'b']])).toBe(
      [
        '| a         | long header |',
        '| --------- | ----------- |',
        '| wide cell | b           |',
      ].join('\n'),
    );
  });

  it('replaces what lies between its markers, and only that', () => {
    const section = { path: 'x.md', begin: '<!-- s:begin -->', end: '<!-- s:end -->' };
    expect(withSection('a\n<!-- s:begin -->\nold\n<!-- s:end -->\nb', section, 'new')).toBe(
      'a\n<!-- s:begin -->\n\nnew\n\n<!-- s:end -->\nb',
    );
    expect(() => withSection('# no table here', section, 'new')).toThrow(
      /x\.md: the <!-- s:begin --> … <!-- s:end --> markers are missing/,
    );
  });
});
