/** Time spent in one kernel during a profiled stretch of work. */
export interface KernelTime {
  kernel: string;
  calls: number;
  ms: number;
}

/** Launch times summed by kernel name. */
export class KernelTimes {
  private readonly byName = new Map<string, KernelTime>();

  add(kernel: string, ms: number): void {
    const t = this.byName.get(kernel) ?? { kernel, calls: 0, ms: 0 };
    t.calls++;
    t.ms += ms;
    this.byName.set(kernel, t);
  }

  /** Most time first. */
  list(): KernelTime[] {
    return [...this.byName.values()].sort((a, b) => b.ms - a.ms);
  }
}
