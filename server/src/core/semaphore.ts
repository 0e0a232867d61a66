import { AppError } from './errors.js';

/**
 * Bounds how many of one kind of work run at once (password hashing, heavy searches), so that kind can
 * never take every core or every database connection from the cheap requests. Waiters queue in order;
 * a full queue or a wait past `maxWaitMs` is refused with 429 instead of piling up.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<{ start: () => void; timer?: NodeJS.Timeout }> = [];

  /**
   * `restRatio` keeps a place busy for that fraction of each job's own time after it ends (its caller gets
   * the result at once): with 1, the work holds at most half of `limit` cores, however long the queue.
   */
  constructor(
    readonly limit: number,
    private readonly maxQueue = 1000,
    private readonly maxWaitMs = 10_000,
    private readonly restRatio = 0,
  ) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    const started = performance.now();
    try {
      return await fn();
    } finally {
      const rest = (performance.now() - started) * this.restRatio;
      if (rest >= 1) setTimeout(() => this.release(), rest).unref?.();
      else this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxQueue) return Promise.reject(new AppError(429, 'serverBusy'));
    return new Promise((resolve, reject) => {
      const entry: { start: () => void; timer?: NodeJS.Timeout } = { start: () => resolve() };
      entry.timer = setTimeout(() => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new AppError(429, 'serverBusy'));
      }, this.maxWaitMs);
      entry.timer.unref?.();
      this.waiting.push(entry);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.start(); // the slot passes straight to the next waiter
    } else {
      this.running--;
    }
  }
}
