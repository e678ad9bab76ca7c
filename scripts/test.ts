// `npm test`: the three suites — unit (Node, CPU), wgsl (Node, Dawn on SwiftShader), e2e
// (Playwright, Debian Chromium) — each must run more than zero tests and pass.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chromiumPath } from './chromium.ts';
import { gpuTestEnv } from './gpu-env.ts';

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  ok: boolean;
}

function sh(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  return r.status ?? 1;
}

function ensureChromium(): string {
  const found = chromiumPath();
  if (found) return found;
  const canApt = process.getuid?.() === 0 && spawnSync('which', ['apt-get']).status === 0;
  if (canApt) {
    console.log(
      "Chromium is missing: the WGSL and e2e suites need Debian's chromium (its SwiftShader",
    );
    console.log('Vulkan driver runs WebGPU without a GPU). Installing it with apt-get…');
    sh('apt-get', ['update', '-qq']);
    sh('apt-get', ['install', '-y', '-qq', 'chromium'], {
      ...process.env,
      DEBIAN_FRONTEND: 'noninteractive',
    });
    const after = chromiumPath();
    if (after) return after;
  }
  console.error(
    'Chromium not found. The WGSL and e2e suites need it:\n' +
      '  sudo apt-get install -y chromium      (Debian/Ubuntu)\n' +
      'or set CHROMIUM_PATH to a Chromium ≥ 120 binary.',
  );
  process.exit(1);
}

function vitestSuite(project: string, env: NodeJS.ProcessEnv): SuiteResult {
  const out = `test-results/${project}.json`;
  const code = sh(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${out}`,
    ],
    env,
  );
  if (!existsSync(out)) return { name: project, passed: 0, failed: 1, skipped: 0, ok: false };
  const j = JSON.parse(readFileSync(out, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  return {
    name: project,
    passed: j.numPassedTests,
    failed: j.numFailedTests,
    skipped: j.numPendingTests + j.numTodoTests,
    ok: code === 0 && j.numPassedTests > 0,
  };
}

function e2eSuite(env: NodeJS.ProcessEnv): SuiteResult {
  if (sh('npx', ['vite', 'build', '--logLevel', 'warn'], env) !== 0) {
    return { name: 'e2e', passed: 0, failed: 1, skipped: 0, ok: false };
  }
  const code = sh('npx', ['playwright', 'test'], env);
  const out = 'test-results/e2e.json';
  if (!existsSync(out)) return { name: 'e2e', passed: 0, failed: 1, skipped: 0, ok: false };
  const s = (JSON.parse(readFileSync(out, 'utf8')) as { stats: Record<string, number> }).stats;
  const passed = (s.expected ?? 0) + (s.flaky ?? 0);
  return {
    name: 'e2e',
    passed,
    failed: s.unexpected ?? 0,
    skipped: s.skipped ?? 0,
    ok: code === 0 && passed > 0,
  };
}

const only = process.argv.slice(2);
const wants = (s: string) => only.length === 0 || only.includes(s);
const chromium = wants('wgsl') || wants('e2e') ? ensureChromium() : undefined;
const env = {
  ...process.env,
  ...gpuTestEnv(process.env),
  ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
};

const results: SuiteResult[] = [];
if (wants('unit')) results.push(vitestSuite('unit', env));
if (wants('wgsl')) results.push(vitestSuite('wgsl', env));
if (wants('e2e')) results.push(e2eSuite(env));

console.log('\nSuite     passed  failed  skipped');
for (const r of results) {
  console.log(
    `${r.name.padEnd(9)} ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.skipped).padStart(7)}  ${r.ok ? 'ok' : 'FAILED'}`,
  );
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
