// The site's Content-Security-Policy, in one place. The page's policy sends network to this site
// only; the servers (vite dev and preview, the e2e file server) send it as a header with the page,
// and index.html carries it as a meta tag for hosts that send none. Workers that run code from
// elsewhere (the lanes, hence the person's own mentor) start from blob: URLs, so they inherit the
// page's policy wherever the site is hosted (src/platform/inheriting-worker.ts).
//
// A worker started from this site's URL takes its policy from its own HTTP response instead: the
// servers send those responses the worker policy, which also lets the built-in mentor's worker
// fetch a language model the person opts into from the Hugging Face hub (its redirects land on
// *.huggingface.co and *.hf.co). Hosts that send no header give such workers no policy at all.
const policy = (connect: string) =>
  [
    "default-src 'self'",
    // blob: — the inheriting workers' start scripts and the person's module.
    "script-src 'self' blob: 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    `connect-src ${connect}`,
    // Svelte (in dev), uPlot and CodeMirror add style elements and attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');

/** The page's (and every worker's that inherits it): network to this site only. */
export const CONTENT_SECURITY_POLICY = policy("'self'");

/** For workers started from this site's URLs: also the Hugging Face hub, for the opt-in model. */
export const WORKER_CONTENT_SECURITY_POLICY = policy(
  "'self' https://huggingface.co https://*.huggingface.co https://*.hf.co",
);

/** The header a server sends with `path`: the page's policy for documents, else the workers'. */
export function policyForPath(path: string): string {
  const file = path.split(/[?#]/)[0];
  const isDocument = file.endsWith('/') || file.endsWith('.html') || !/\.[a-z0-9]+$/i.test(file);
  return isDocument ? CONTENT_SECURITY_POLICY : WORKER_CONTENT_SECURITY_POLICY;
}
