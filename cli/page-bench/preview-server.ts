// The preview server of dist/ for `npm run bench:page`: on a port checked to be free, in a process
// group of its own (./process-group.ts), and ready only once vite says it listens there, so the
// bench never drives another server that answers on the port.
import { createServer } from 'node:net';
import { spawnGroup, waitForLine } from './process-group.ts';

const HOST = '127.0.0.1';

/** Throws, naming the port, where another server listens on `port`. */
export async function assertPortFree(port: number): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, HOST, resolve);
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`port ${port} is already taken by another server; free it or pass --port N`, {
        cause: e,
      });
    throw e;
  }
  await new Promise((resolve) => probe.close(resolve));
}

export interface PreviewServer {
  url: string;
  /** Ends the server's whole process group. */
  stop(): Promise<void>;
}

/** `vite preview` of dist/ on `port`, once it has said it listens there. */
export async function startPreviewServer(port: number, timeoutS = 60): Promise<PreviewServer> {
  await assertPortFree(port);
  // --strictPort: were the port taken after the check, vite exits rather than take another.
  const group = await spawnGroup(
    'npx',
    ['vite', 'preview', '--host', HOST, '--port', String(port), '--strictPort'],
    { env: { ...process.env, NO_COLOR: '1' } }, // a plain URL to look for
  );
  const url = `http://${HOST}:${port}/`;
  try {
    await waitForLine(group, (line) => line.includes(url), 'the preview server', timeoutS * 1000);
  } catch (e) {
    await group.stop();
    throw e;
  }
  return { url, stop: group.stop };
}
