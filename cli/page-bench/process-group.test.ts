import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnGroup, waitForLine, type ProcessGroup } from './process-group.ts';

// A tree like `npx vite preview`'s (npx, a shell, vite): a shell with a child and a grandchild,
// which says "ready" once all four exist.
const TREE = 'sleep 60 & sh -c "sleep 60 & echo ready; wait" & wait';

/** Whether `pid` runs; a zombie has ended and only waits to be reaped, which here may be never. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
  const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return !stat.trim().startsWith('Z');
}

/** The pids in process group `pgid`, by ps. */
function members(pgid: number): number[] {
  return execFileSync('ps', ['-eo', 'pid=,pgid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([, g]) => g === pgid)
    .map(([p]) => p);
}

// Groups a failing test may leave behind, ended without the code under test.
const started: number[] = [];
afterEach(() => {
  for (const pgid of started.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

async function shGroup(script: string, graceMs?: number): Promise<ProcessGroup> {
  const group = await spawnGroup('sh', ['-c', script], { graceMs });
  started.push(group.child.pid as number);
  return group;
}

async function tree(script = TREE, graceMs?: number): Promise<[ProcessGroup, number[]]> {
  const group = await shGroup(script, graceMs);
  await waitForLine(group, (l) => l === 'ready', 'the tree', 5000);
  return [group, members(group.child.pid as number)];
}

describe('spawnGroup', { timeout: 10_000 }, () => {
  it('stop() ends the whole group, not only its leader', async () => {
    const [group, pids] = await tree();
    expect(pids).toHaveLength(4);
    expect(pids).toContain(group.child.pid);
    await group.stop();
    expect(pids.filter(alive)).toEqual([]);
  });

  it('SIGKILLs, after the grace, a group that ignores SIGTERM', async () => {
    const [group, pids] = await tree(`trap "" TERM; ${TREE}`, 300);
    const t0 = performance.now();
    await group.stop();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
    expect(pids.filter(alive)).toEqual([]);
  });

  // The owner is a Node process of its own that started a group and never stops it itself.
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['exit', 3],
  ] as const)('ends the group when its owner ends by %s', async (how, code) => {
    const module = fileURLToPath(new URL('./process-group.ts', import.meta.url));
    const owner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { spawnGroup, waitForLine } = await import(${JSON.stringify(module)});
         const group = await spawnGroup('sh', ['-c', ${JSON.stringify(TREE)}]);
         await waitForLine(group, (l) => l === 'ready', 'the tree', 5000);
         console.log(group.child.pid);
         ${how === 'exit' ? 'process.exit(3);' : 'setInterval(() => {}, 1000);'}`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const pgid = await new Promise<number>((resolve) =>
      owner.stdout.once('data', (d: Buffer) => resolve(Number(d.toString()))),
    );
    started.push(pgid);
    const pids = members(pgid);
    expect(pids).toHaveLength(4);
    const exited = new Promise((resolve) => owner.once('exit', resolve));
    if (how !== 'exit') owner.kill(how);
    expect(await exited).toBe(code);
    expect(pids.filter(alive)).toEqual([]);
  });
});

describe('waitForLine', () => {
  it('rejects, saying so, when the leader exits before the line', async () => {
    const group = await shGroup('echo starting; exit 3');
    await expect(waitForLine(group, (l) => l === 'ready', 'the server', 5000)).rejects.toThrow(
      'the server exited (code 3) before it was ready',
    );
    await group.stop();
  });

  it('rejects after its time limit', async () => {
    const group = await shGroup('echo starting; sleep 60');
    await expect(waitForLine(group, (l) => l === 'ready', 'the server', 200)).rejects.toThrow(
      'the server was not ready after 200 ms',
    );
    await group.stop();
  });

  it('resolves with the first line that matches, split across writes', async () => {
    const group = await shGroup('printf "a\\nLoc"; sleep 0.1; echo "al: x"; wait');
    expect(await waitForLine(group, (l) => l.startsWith('Local'), 'the server', 5000)).toBe(
      'Local: x',
    );
    await group.stop();
  });
});
