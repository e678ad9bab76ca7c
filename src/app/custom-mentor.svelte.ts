// The custom mentor as the page holds it: the editor's text, the code the lanes run (applied by
// the person), and whether the text came from outside (a link, a file) and has not been run by
// them yet. Code from outside never runs until the person presses the button that runs it.
import lengthHint from '../../docs/examples/length-hint.js?raw';
import offPolicy from '../../docs/examples/offpolicy.js?raw';

/** Starter templates, from the examples the docs show (one copy of each). */
export const TEMPLATES = [
  { id: 'length-hint', label: 'Length hint for all-fail groups', code: lengthHint },
  { id: 'offpolicy', label: 'Off-policy reference (a rival)', code: offPolicy },
] as const;

/** Where text that the person has not run yet came from. */
export type CodeOrigin = 'link' | 'file';

export class CustomMentor {
  /** What the editor shows. */
  draft = $state<string>(TEMPLATES[0].code);
  /** The code the custom lanes run; null until the person applies some. */
  applied = $state<string | null>(null);
  /** The draft came from a link or a file and has not been run: it waits for consent. */
  unseen = $state<CodeOrigin | null>(null);
  /** The latest load report of a custom lane (a fault says what is wrong with the code). */
  report = $state<{ fault: boolean; message: string } | null>(null);

  /**
   * The status line beside Apply: what the custom lane runs now. Only a lane's load report says
   * whether the applied code runs, so the line never claims it does before, or after a fault.
   */
  get status(): string {
    if (this.applied === null) return 'No code applied: the custom lane trains as plain GRPO.';
    const fault = this.report?.fault === true;
    if (this.draft !== this.applied)
      return fault
        ? 'Edited since applied: Apply runs it from the next step. Until then the custom lane trains as plain GRPO (the applied code cannot be used).'
        : 'Edited since applied: Apply runs it from the next step.';
    if (fault)
      return 'Not running: the applied code cannot be used (why is said below); the custom lane trains as plain GRPO until code that loads is applied.';
    if (this.report) return 'Applied and loaded: the custom lane runs this code.';
    return 'Applied: the custom lane loads it now and runs it from the next step on.';
  }

  /** Text from a link or a file: shown, not run. */
  receive(code: string, origin: CodeOrigin): void {
    this.draft = code;
    this.unseen = origin;
  }

  /** The person runs the draft (Apply, or Run this code): returns it, for the lanes. */
  apply(): string {
    this.applied = this.draft;
    this.unseen = null;
    this.report = null;
    return this.applied;
  }
}
