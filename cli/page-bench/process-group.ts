// A command in a process group of its own, ended as a whole: `npx vite preview` runs vite in a
// child of npx, and killing npx alone left vite alive, holding its port. Each group still running
// is ended however this process ends: by stop(), on SIGINT, SIGTERM or SIGHUP, and, last, in
// process.on('exit') (an error that reaches process.exit, an uncaught one).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';

/** How long a group has to end after SIGTERM before SIGKILL. */
const GRACE_MS = 2000;
const POLL_MS = 25;

export interface ProcessGroup {
  /** The leader, whose pid is the group's id; read its stdout (waitForLine) or it may block. */
  readonly child: ChildProcessByStdio<null, Readable, null>;
  /** SIGTERM to the whole group, SIGKILL after the grace to what still runs; resolves once none does. */
  stop(): Promise<void>;
}

const live = new Map<number, { stop(): Promise<void>; stopNow(): void }>();

/**
 * Whether a process of group `pgid` still runs. A zombie does not count: it holds no port and
 * waits only for its parent to reap it, which the init of some containers never does for orphans.
 */
function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return true; // no /proc (not Linux): a zombie counts as running
  }
  return pids.some((pid) => {
    try {
      // "pid (comm) state ppid pgrp …", where comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z';
    } catch {
      return false; // gone since the listing
    }
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is gone already.
  }
}

function onSignal(signal: NodeJS.Signals): void {
  void Promise.all([...live.values()].map((g) => g.stop())).then(() =>
    process.exit(128 + constants.signals[signal]),
  );
}

function onExit(): void {
  for (const g of live.values()) g.stopNow();
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function track(pgid: number, g: { stop(): Promise<void>; stopNow(): void }): void {
  if (live.size === 0) {
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('exit', onExit);
  }
  live.set(pgid, g);
}

function untrack(pgid: number): void {
  // Once the group is gone its id may be reused, so it is never signalled again.
  if (!live.delete(pgid) || live.size > 0) return;
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('exit', onExit);
}

/** Run `command` as the leader of a new process group, its stdout piped, its stderr this one's. */
export async function spawnGroup(
  command: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; graceMs?: number } = {},
): Promise<ProcessGroup> {
  const graceMs = opts.graceMs ?? GRACE_MS;
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: opts.env ?? process.env,
  });
  await new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pgid = child.pid as number;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let stopping: Promise<void> | undefined;
  // Whether the group ended within the grace.
  const ended = async () => {
    const deadline = performance.now() + graceMs;
    while (groupRunning(pgid) && performance.now() < deadline) await sleep(POLL_MS);
    return !groupRunning(pgid);
  };
  const end = async () => {
    signalGroup(pgid, 'SIGTERM');
    if (!(await ended())) {
      signalGroup(pgid, 'SIGKILL');
      await ended(); // a moment in delivery; longer only for a process stuck in the kernel
    }
    untrack(pgid);
  };
  // In an 'exit' handler nothing asynchronous runs, so the grace is waited out blocking.
  const stopNow = () => {
    signalGroup(pgid, 'SIGTERM');
    const tick = new Int32Array(new SharedArrayBuffer(4));
    const deadline = performance.now() + graceMs;
    while (groupRunning(pgid) && performance.now() < deadline) Atomics.wait(tick, 0, 0, POLL_MS);
    if (groupRunning(pgid)) signalGroup(pgid, 'SIGKILL');
    untrack(pgid);
  };
  const stop = () => (stopping ??= end());
  track(pgid, { stop, stopNow });
  return { child, stop };
}

/**
 * The first line of the group leader's stdout that `match` accepts. Rejects, naming `what`, if
 * the leader exits first or `timeoutMs` passes. Its stdout is read on after that, so that a
 * process that goes on writing never blocks on a full pipe.
 */
export function waitForLine(
  group: ProcessGroup,
  match: (line: string) => boolean,
  what: string,
  timeoutMs: number,
): Promise<string> {
  const { child } = group;
  return new Promise((resolve, reject) => {
    let settled = false;
    let rest = '';
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      f();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(() =>
        reject(new Error(`${what} exited (${signal ?? `code ${code}`}) before it was ready`)),
      );
    const timer = setTimeout(
      () => settle(() => reject(new Error(`${what} was not ready after ${timeoutMs} ms`))),
      timeoutMs,
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (settled) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      const line = lines.find(match);
      if (line !== undefined) settle(() => resolve(line));
    });
    if (child.exitCode !== null || child.signalCode !== null)
      onExit(child.exitCode, child.signalCode);
    else child.on('exit', onExit);
  });
}
