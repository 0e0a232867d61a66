/**
 * The background work of this process that outlives the request that started it (an import's rows being
 * checked and written): a graceful stop waits for it, within the stop's deadline.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();

  get size(): number {
    return this.running.size;
  }

  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(() => undefined, () => undefined);
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return work;
  }

  /** waits for the work running now (and what it starts meanwhile) until `deadline` (ms epoch); true when all ended */
  async settle(deadline: number): Promise<boolean> {
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all([...this.running]), new Promise((r) => { timer = setTimeout(r, left); })]);
      clearTimeout(timer);
    }
    return true;
  }
}
