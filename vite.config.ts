import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { gpuTestEnv } from './scripts/gpu-env.ts';
import type { Connect } from 'vite';
import { CONTENT_SECURITY_POLICY, policyForPath } from './src/app/content-security-policy.ts';
import { crossOriginIsolation } from './scripts/cross-origin-isolation.ts';

// WGSL tests run Dawn (npm `webgpu`) on SwiftShader; its Vulkan loader and ICD ship with Debian's
// chromium. The forked test processes inherit this environment.
Object.assign(process.env, gpuTestEnv(process.env));

// The page's policy with documents, the workers' with the rest (content-security-policy.ts).
const policyHeader: Connect.NextHandleFunction = (req, res, next) => {
  res.setHeader('Content-Security-Policy', policyForPath(req.url ?? '/'));
  next();
};

export default defineConfig({
  // Relative by default so the built site works under any path; BASE_PATH overrides.
  base: process.env.BASE_PATH ?? './',
  plugins: [
    svelte(),
    crossOriginIsolation(),
    {
      name: 'content-security-policy-header',
      configureServer: (server) => void server.middlewares.use(policyHeader),
      configurePreviewServer: (server) => void server.middlewares.use(policyHeader),
    },
    {
      // For static hosts that send no header: the page's policy as a meta tag.
      name: 'content-security-policy-meta',
      transformIndexHtml: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
          injectTo: 'head-prepend',
        },
      ],
    },
  ],
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: { fs: { allow: ['.'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'cli/**/*.test.ts'],
          exclude: ['src/**/*.gpu.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // Relaxed SIMD (fused multiply-add) for the CPU backend's WebAssembly kernels, as in
          // the browsers that have it and in the CLI (scripts/cli.ts).
          execArgv: ['--experimental-wasm-relaxed-simd'],
        },
      },
      {
        extends: true,
        test: {
          name: 'wgsl',
          include: ['src/**/*.gpu.test.ts'],
          environment: 'node',
          fileParallelism: false,
          execArgv: ['--experimental-wasm-relaxed-simd'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
