/**
 * The refused reprompts of one plan, counted by cause: a plan of ten thousand malformed helps
 * writes one event line per cause, not one per help, so a step's record keeps its usual size
 * whatever a module returns. A cause refused once reads as it always did.
 */
export class Refusals {
  private readonly byCause = new Map<string, { once: string; subjects: Set<string>; n: number }>();

  /** A refusal for `cause`, of `subject` (a group, a value), reading `once` if it stays alone. */
  add(cause: string, subject: string, once: string): void {
    const entry = this.byCause.get(cause) ?? { once, subjects: new Set<string>(), n: 0 };
    entry.subjects.add(subject);
    entry.n++;
    this.byCause.set(cause, entry);
  }

  /** One event per cause, in the order the causes first came. */
  flushTo(events: string[]): void {
    for (const [cause, { once, subjects, n }] of this.byCause) {
      if (n === 1) {
        events.push(once);
        continue;
      }
      const named = [...subjects].slice(0, 3).join(', ');
      const more =
        subjects.size > 3 ? ` and ${(subjects.size - 3).toLocaleString('en-US')} more` : '';
      events.push(`${n.toLocaleString('en-US')} reprompts rejected: ${cause} (${named}${more})`);
    }
    this.byCause.clear();
  }
}
