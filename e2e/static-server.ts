// A plain static file server that hosts dist/ under a sub-path (default /course/mentor/), as a
// course site would: `npx tsx e2e/static-server.ts --port 4175 --prefix /course/mentor/`.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { policyForPath } from '../src/app/content-security-policy.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i], process.argv[i + 1]);
const port = Number(args.get('--port') ?? 4175);
const prefix = args.get('--prefix') ?? '/course/mentor/';
const root = resolve(args.get('--root') ?? 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.onnx': 'application/octet-stream',
  '.safetensors': 'application/octet-stream',
};

createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (!path.startsWith(prefix)) {
    res.writeHead(404).end('outside the site');
    return;
  }
  let file = normalize(join(root, path.slice(prefix.length)));
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file)) {
    res.writeHead(404).end('not found');
    return;
  }
  // As a course site should: the page's policy with documents, the workers' with the rest.
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': policyForPath(path),
  });
  createReadStream(file).pipe(res);
}).listen(port, '127.0.0.1');
