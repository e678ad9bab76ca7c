// A module worker that inherits its creator's Content-Security-Policy. A worker started from a
// site URL takes its policy from that URL's HTTP response (none on a host that sends no header);
// one started from a blob: URL takes its creator's. So the worker starts from a one-line blob:
// module that imports the real one: it runs the same code, under the page's policy, on any host.

/**
 * `url`: the worker module's address (Vite's `?worker&url` import), resolved against `base`, the
 * caller's `import.meta.url`: inside a blob-started worker `location` is the blob: URL, which
 * nothing resolves against.
 */
export function inheritingWorker(url: string, base: string, name: string): Worker {
  const start = `import ${JSON.stringify(new URL(url, base).href)};`;
  const blob = URL.createObjectURL(new Blob([start], { type: 'text/javascript' }));
  const worker = new Worker(blob, { type: 'module', name });
  // The browser reads the start script after this returns: the URL lives on a while.
  setTimeout(() => URL.revokeObjectURL(blob), 60_000);
  return worker;
}
