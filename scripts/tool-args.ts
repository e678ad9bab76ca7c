/**
 * How a Node tool in cli/ is launched (scripts/cli.ts, the table's runs, the CLI tests): relaxed
 * SIMD for the CPU kernels' fused multiply-add (off by default in Node 20, on in browsers), TypeScript,
 * and Vite's `?raw` imports so shaders load as in the browser.
 */
export const TOOL_NODE_ARGS: readonly string[] = [
  '--experimental-wasm-relaxed-simd',
  '--import',
  'tsx',
  '--import',
  './cli/register.mjs',
];
