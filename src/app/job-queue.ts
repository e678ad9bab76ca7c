/** Jobs run one at a time: each starts when the one before has settled, failed or not. */
export class JobQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const next = this.last.then(job, job);
    this.last = next.catch(() => {});
    return next;
  }
}
