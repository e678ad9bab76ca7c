/**
 * Where the site serves `public/models/`, as an origin-absolute path (`/…/models/`), to pass as
 * `modelRoot`. Call it on the page and hand the result to the worker: a relative base (`./`)
 * resolves against the document, and a built worker lives in `assets/`. A path, not a full URL:
 * Transformers.js 4.3 skips its local existence check for `http(s):` model roots and then
 * silently loads no tokenizer. Its own module so that the page does not bundle Transformers.js.
 */
export function siteModelRoot(): string {
  return new URL(`${import.meta.env.BASE_URL}models/`, document.baseURI).pathname;
}
