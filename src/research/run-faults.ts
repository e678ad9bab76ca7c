// What went wrong in a table's runs, from their step lines' events (a method's plan that threw, a
// verifier or sampler that failed, an update skipped): a table built on such runs measures the
// fault as much as the method, so it says so above its figures rather than averaging it in.

export interface RunFaults {
  method: string;
  /** Runs of the method with a step that reported one, of all its runs. */
  runs: number;
  of: number;
  /** Steps from the jump on that reported one, over the method's runs, of all such steps. */
  steps: number;
  stepsOf: number;
  /** The first, as its step line wrote it. */
  first: string;
}

/** Per method with any, the steps from `jump` on whose events report a fault. */
export function runFaults(
  runs: readonly { method: string; steps: readonly { step: number; events?: string[] }[] }[],
  jump: number,
): RunFaults[] {
  const out = new Map<string, RunFaults>();
  for (const run of runs) {
    const after = run.steps.filter((p) => p.step >= jump);
    const faulty = after.filter((p) => (p.events?.length ?? 0) > 0);
    const f = out.get(run.method) ?? {
      method: run.method,
      runs: 0,
      of: 0,
      steps: 0,
      stepsOf: 0,
      first: '',
    };
    f.of++;
    f.stepsOf += after.length;
    if (faulty.length > 0) {
      f.runs++;
      f.steps += faulty.length;
      f.first ||= faulty[0].events?.[0] ?? '';
    }
    out.set(run.method, f);
  }
  return [...out.values()].filter((f) => f.steps > 0);
}

/** A warning paragraph for table.md, or null where no run reported a fault. */
export function runFaultsMarkdown(faults: readonly RunFaults[]): string | null {
  if (faults.length === 0) return null;
  const lines = faults.map(
    (f) =>
      `- \`${f.method}\`: ${f.steps} of ${f.stepsOf} steps after the jump (${f.runs} of ${f.of} runs); the first: "${f.first}"`,
  );
  return [
    "**Faults in these runs** (their step lines' events): the rows below measure them as well as the method.",
    '',
    ...lines,
  ].join('\n');
}
