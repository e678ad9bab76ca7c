// The custom task as the page holds it: the editor's text, the code the lanes run (checked in a
// worker after the person pressed Check: their consent), its account, the base warmed up for it
// and that base's literacy table and gate. Code from a file waits, shown, until the person checks it.
import countLetter from '../../../docs/examples/count-letter.js?raw';
import reverse from '../../../docs/examples/reverse.js?raw';
import sortLetters from '../../../docs/examples/sort-letters.js?raw';
import type { GateChance } from '../../research/gate-chance.ts';
import type { GateVerdict } from '../../research/gate-verdict.ts';
import type { LiteracyRow } from '../../research/literacy.ts';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import type { BasePolicy } from '../base-checkpoint.ts';
import type { CodeOrigin } from '../custom-mentor.svelte.ts';

/** Starter families, from the examples the docs show (one copy of each). */
export const TASK_STARTERS = [
  { id: 'reverse', label: 'Reverse a word', code: reverse },
  { id: 'sort-letters', label: 'Sort the letters', code: sortLetters },
  { id: 'count-letter', label: 'Count a letter', code: countLetter },
] as const;

/** Warm-up steps the panel offers first: a usable base in a few minutes on a laptop's CPU. */
export const DEFAULT_WARMUP_STEPS = 2000;

export interface WarmupState {
  step: number;
  steps: number;
  loss: number;
  phase: 'warm-up' | 'report';
  /** Seconds left at the pace so far; null before there is a pace. */
  etaS: number | null;
}

export interface BaseReport {
  literacy: LiteracyRow[];
  gate: GateChance;
  verdict: GateVerdict;
}

export class CustomTask {
  draft = $state<string>(TASK_STARTERS[0].code);
  /** The checked code the lanes run; null until the person checks some. */
  applied = $state<string | null>(null);
  /** The draft came from a file and has not been checked: it waits for the person. */
  unseen = $state<CodeOrigin | null>(null);
  /** The account of the applied code, from its check. */
  info = $state<TaskInfo | null>(null);
  /** What the latest check or warm-up found wrong. */
  fault = $state<string | null>(null);
  checking = $state(false);
  warmup = $state<WarmupState | null>(null);
  warmupSteps = $state(DEFAULT_WARMUP_STEPS);
  /** The base warmed up for the applied code, and what its literacy table and gate say. */
  base = $state<BasePolicy | null>(null);
  report = $state<BaseReport | null>(null);

  /** Text from a file: shown, not run. */
  receive(code: string, origin: CodeOrigin): void {
    this.draft = code;
    this.unseen = origin;
  }

  /** A check passed: its code is the task now, and any earlier base is for another task. */
  accept(code: string, info: TaskInfo): void {
    this.applied = code;
    this.info = info;
    this.unseen = null;
    this.fault = null;
    this.base = null;
    this.report = null;
  }
}
