// The custom task as the page holds it: the editor's text, the code the lanes run (checked in a
// worker after the person pressed Check: their consent), its account, the base warmed up for it
// and that base's literacy table and gate. Code from a file waits, shown, until the person checks it.
import countLetter from '../../../docs/examples/count-letter.js?raw';
import reverse from '../../../docs/examples/reverse.js?raw';
import sortLetters from '../../../docs/examples/sort-letters.js?raw';
import { gateVerdict, type GateVerdict } from '../../rl/bases/gate-verdict.ts';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import type { BasePolicy } from '../base-checkpoint.ts';
import type { CodeOrigin } from '../custom-mentor.svelte.ts';
import type { BaseMeasure } from './base-report.ts';

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

export interface BaseReport extends BaseMeasure {
  verdict: GateVerdict;
}

/** What a base's literacy table and gate say, with the verdict they give. */
export function baseReport(measure: BaseMeasure): BaseReport {
  return { ...measure, verdict: gateVerdict(measure.literacy, measure.gate) };
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
  /** The base the lanes start from on the custom task (warmed up, imported, or a saved run's). */
  base = $state<BasePolicy | null>(null);
  /** What that base's literacy table and gate say; null where they are not known here. */
  report = $state<BaseReport | null>(null);
  /** The code the latest check refused, and the first of its faults. */
  refused = $state<{ code: string; why: string } | null>(null);

  /**
   * The status line beside Check: of the editor's code, whether it was checked, refused or
   * edited since, and of the task the lanes run.
   */
  get status(): string {
    const { applied, draft, info, refused } = this;
    if (refused !== null && refused.code === draft)
      return `Refused: ${refused.why}${/[?!]$/.test(refused.why) ? '' : '.'} Fix the code and Check again${applied === null ? '' : '; the lanes keep the task checked before'}.`;
    if (applied === null)
      return 'Not checked yet: every level is sampled in a worker before anything trains on it.';
    if (draft !== applied) return 'Edited since checked: Check again to use the edits.';
    if (info === null) return 'Checked.';
    return `Checked: ${info.label}, levels ${info.levels.min}–${info.levels.max}, the jump ${info.collapse.easy} → ${info.collapse.hard}.`;
  }

  /** A check refused `code`: the whole message below the editor, its first fault in the status. */
  refuse(code: string, message: string): void {
    this.fault = message;
    this.refused = { code, why: firstFault(message) };
  }

  /** Text from a file: shown, not run. */
  receive(code: string, origin: CodeOrigin): void {
    this.draft = code;
    this.unseen = origin;
  }

  /**
   * The base the lanes start from now, with what was measured of it: an import's own report or
   * none, never the verdict of the base before.
   */
  useBase(base: BasePolicy, measure: BaseMeasure | null): void {
    this.base = base;
    this.report = measure && baseReport(measure);
  }

  /** Why no verdict is shown beside the base; null where one is, or there is no base. */
  get unmeasured(): string | null {
    if (this.base === null || this.report !== null) return null;
    return 'No verdict for this base: its file carries no literacy table and gate for this task (a base warmed up in this page carries them; npm run pretrain writes them to the .json beside its checkpoint). Warm a base up here to measure one.';
  }

  /** A check passed: its code is the task now, and any earlier base is for another task. */
  accept(code: string, info: TaskInfo): void {
    this.applied = code;
    this.info = info;
    this.unseen = null;
    this.fault = null;
    this.refused = null;
    this.base = null;
    this.report = null;
  }
}

/** A refusal's first fault, short: a refusal lists them under a heading line, one a line. */
function firstFault(message: string): string {
  const [head, first] = message.split('\n');
  const why = (first ?? head).trim().replace(/[.:]$/, '');
  return why.length > 160 ? `${why.slice(0, 159)}…` : why;
}
