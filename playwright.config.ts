import { defineConfig } from '@playwright/test';
import { PORT, SUBPATH, SUBPATH_PORT, SUBPATH_URL } from './e2e/ports.ts';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.ts';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 180_000,
  expect: { timeout: 60_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    screenshot: 'on',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'webgpu',
      testIgnore: /no-webgpu/,
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: chromiumPath(),
          args: ['--enable-unsafe-webgpu', ...CHROMIUM_ARGS],
        },
      },
    },
    {
      // Same browser without the flag: navigator.gpu.requestAdapter() returns null.
      name: 'no-webgpu',
      testMatch: /no-webgpu/,
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The same build under a sub-path, as a course site would host it (e2e/subpath.spec.ts).
      command: `npx tsx e2e/static-server.ts --port ${SUBPATH_PORT} --prefix ${SUBPATH} --root dist`,
      url: SUBPATH_URL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
