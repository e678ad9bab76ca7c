import type { LaneInfo } from './lane/lane-types.ts';
import type { Lane } from './lane/lane.svelte.ts';
import type { Phase } from './lockstep-lanes.svelte.ts';
import type { BackendInfo } from './selfcheck-client.ts';

/**
 * What the page's backend badge shows for the lanes: one backend, or each lane's when they differ;
 * before they run, what they wait for.
 */
export function lanesBadge(x: { phase: Phase; problem: string | null; lanes: readonly Lane[] }): {
  info: BackendInfo | null;
  error: string | null;
  waiting: string;
} {
  const waiting =
    x.phase === 'waiting' ? 'Waiting for a base for your task' : 'Starting the lanes…';
  const infos = x.lanes.map((l) => l.info);
  if (x.phase === 'error' && infos.every((i) => !i))
    return { info: null, error: x.problem, waiting };
  const [a, b] = infos;
  if (!a || !b) return { info: null, error: null, waiting };
  const one = (i: LaneInfo): BackendInfo => ({
    kind: i.backendKind,
    name: i.backend,
    fallbackReason: i.fallbackReason,
    chosenBecause: i.chosenBecause,
    fallbackChosen: i.fallbackChosen,
    threads: i.threads,
  });
  if (
    a.backend === b.backend &&
    a.threads === b.threads &&
    a.fallbackReason === b.fallbackReason &&
    a.chosenBecause === b.chosenBecause
  )
    return { info: one(a), error: null, waiting };
  return {
    info: {
      kind: a.backendKind === 'webgpu' && b.backendKind === 'webgpu' ? 'webgpu' : 'cpu',
      name: x.lanes.map((l) => `${l.name}: ${l.info?.backend}`).join(' · '),
      fallbackReason: null,
      fallbackChosen: false,
    },
    error: null,
    waiting,
  };
}
