/**
 * Relaxed SIMD for the CPU kernels' fused multiply-add (off by default in Node 20, on in browsers).
 * Where the CPU fuses, sums round differently from where it does not, so a run that must give the
 * same numbers on every machine (the golden trace) is launched without it.
 */
export const RELAXED_SIMD_FLAG = '--experimental-wasm-relaxed-simd';

/** TypeScript, and Vite's `?raw` imports so shaders load as in the browser. */
export const PORTABLE_TOOL_NODE_ARGS: readonly string[] = [
  '--import',
  'tsx',
  '--import',
  './cli/register.mjs',
];

/** How a Node tool in cli/ is launched (scripts/cli.ts, the table's runs, the CLI tests). */
export const TOOL_NODE_ARGS: readonly string[] = [RELAXED_SIMD_FLAG, ...PORTABLE_TOOL_NODE_ARGS];
