// Launcher for the Node tools in cli/: `tsx scripts/cli.ts <tool> [args]`. It adds Vite's `?raw`
// imports (so shaders load as in the browser) and the Vulkan environment Dawn needs on machines
// without a GPU, which must be in place before the process starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { gpuTestEnv } from './gpu-env.ts';
import { TOOL_NODE_ARGS } from './tool-args.ts';

const [tool, ...args] = process.argv.slice(2);
const entry = `cli/${tool}.ts`;
if (!tool || !existsSync(entry)) {
  console.error(`usage: tsx scripts/cli.ts <tool> [args]; no ${entry}`);
  process.exit(2);
}
const r = spawnSync(process.execPath, [...TOOL_NODE_ARGS, entry, ...args], {
  stdio: 'inherit',
  env: { ...process.env, ...gpuTestEnv(process.env) },
});
process.exit(r.status ?? 1);
