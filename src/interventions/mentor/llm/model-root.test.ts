import { afterEach, expect, it, vi } from 'vitest';
import { siteModelRoot } from './model-root.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

it('resolves public/models/ against the page, as an origin-absolute path', () => {
  vi.stubGlobal('document', { baseURI: 'https://example.org/mentor/index.html' });
  vi.stubEnv('BASE_URL', './'); // our build's relative base
  expect(siteModelRoot()).toBe('/mentor/models/');
  vi.stubEnv('BASE_URL', '/site/'); // BASE_PATH=/site/
  expect(siteModelRoot()).toBe('/site/models/');
});
