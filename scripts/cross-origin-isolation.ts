// Cross-origin isolation for the page, so that its lanes may share memory with a pool of threads
// (src/engine/cpu/threads/). The servers here (vite dev and preview) send COOP/COEP themselves;
// a static host that sends no headers gets them from coi-serviceworker, a service worker that
// adds them to the site's responses (the page reloads once, the first time). Not with
// `threads=1`, which asks for one thread and so for no isolation.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Connect, Plugin } from 'vite';

export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

const SHIM = 'coi-serviceworker.min.js';
const SHIM_CONFIG = 'coi-config.js';

/** Read by the shim before it registers: a classic script, since the policy forbids inline ones. */
const configScript = `// coi-serviceworker's settings (scripts/cross-origin-isolation.ts).
window.coi = {
  shouldRegister: () => new URLSearchParams(location.search).get('threads') !== '1',
  quiet: true,
};
`;

const shimScript = () =>
  readFileSync(createRequire(import.meta.url).resolve(`coi-serviceworker/${SHIM}`), 'utf8');

const files: Record<string, () => string> = {
  [SHIM]: shimScript,
  [SHIM_CONFIG]: () => configScript,
};

const headers: Connect.NextHandleFunction = (req, res, next) => {
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) res.setHeader(name, value);
  const file = (req.url ?? '').split(/[?#]/)[0].split('/').pop() ?? '';
  if (file in files) {
    res.setHeader('Content-Type', 'text/javascript');
    res.end(files[file]());
    return;
  }
  next();
};

export function crossOriginIsolation(): Plugin {
  let base = './';
  return {
    name: 'cross-origin-isolation',
    configResolved: (config) => void (base = config.base),
    configureServer: (server) => void server.middlewares.use(headers),
    configurePreviewServer: (server) => void server.middlewares.use(headers),
    generateBundle() {
      for (const [fileName, source] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName, source: source() });
    },
    transformIndexHtml: () =>
      [SHIM_CONFIG, SHIM].map((file) => ({
        tag: 'script',
        attrs: { src: `${base}${file}` },
        injectTo: 'head' as const,
      })),
  };
}
