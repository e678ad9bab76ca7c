// Node module hooks: `import text from './file.wgsl?raw'` yields the file's text, as Vite does in
// the browser, so CLI tools load shaders exactly the way the app does.
import { readFile } from 'node:fs/promises';

const RAW = '?raw';

export async function resolve(specifier, context, nextResolve) {
  if (!specifier.endsWith(RAW)) return nextResolve(specifier, context);
  const r = await nextResolve(specifier.slice(0, -RAW.length), context);
  return { url: r.url + RAW, format: 'module', shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith(RAW)) return nextLoad(url, context);
  const text = await readFile(new URL(url.slice(0, -RAW.length)), 'utf8');
  return {
    format: 'module',
    source: `export default ${JSON.stringify(text)};`,
    shortCircuit: true,
  };
}
