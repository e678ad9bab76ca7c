import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { assertPortFree, startPreviewServer } from './preview-server.ts';

let other: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve())));

/** Another server, listening on `host` (undefined: every address); its port. */
async function otherServer(host?: string): Promise<number> {
  other = createServer();
  await new Promise<void>((resolve) => other?.listen(0, host, resolve));
  const addr = other.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return addr.port;
}

describe('startPreviewServer', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['every address', undefined],
  ])('refuses a port another server holds on %s, naming it', async (_, host) => {
    const port = await otherServer(host);
    await expect(startPreviewServer(port)).rejects.toThrow(
      `port ${port} is already taken by another server; free it or pass --port N`,
    );
  });
});

describe('assertPortFree', () => {
  it('passes a free port and leaves it free', async () => {
    const port = await otherServer('127.0.0.1');
    await new Promise((resolve) => other?.close(resolve));
    other = undefined;
    await assertPortFree(port);
    await assertPortFree(port);
  });
});
