// The page's Content-Security-Policy, in one place: the dev and preview servers and the e2e file
// server send it as a header (a dedicated worker takes its policy from its own HTTP response, not
// from the page), and index.html carries it as a meta tag for hosts that send none. Scripts come
// only from this site and from blob: URLs (the custom mentor's module); WebAssembly compiles
// (the CPU backend, ONNX Runtime); network goes to this site only, and to the Hugging Face hub
// for a language model the person opts into (its redirects land on *.huggingface.co and *.hf.co).
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' blob: 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co",
  // Svelte (in dev), uPlot and CodeMirror add style elements and attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');
