/**
 * Thrown by a transaction that was still open at its deadline, and by every statement its code sends
 * afterwards. SQLSTATE 25P04 is PostgreSQL's own for a transaction that ran past `transaction_timeout`.
 */
export class TransactionExpiredError extends Error {
  readonly code = '25P04';
  constructor() {
    super('the transaction ran past its deadline and was rolled back');
  }
}

/**
 * The time bound of one transaction. `inTenant` creates it and hands it to the driver that opens the transaction
 * (`withDeadline`, `currentDeadline`); the drivers start it when the transaction has its connection (the wait for one is
 * bounded by the deadlines of those ahead) and at the deadline roll back, free the connection and refuse the
 * code's further statements, whatever that code is doing.
 */
export class TransactionDeadline {
  readonly expired: Promise<never>;
  private rejectExpired!: (e: Error) => void;
  private timer: NodeJS.Timeout | undefined;
  private endsAt = 0;
  private state: 'running' | 'expired' | 'settled' = 'running';
  private readonly listeners: Array<() => void> = [];

  private started = false;

  /** The clock starts when the transaction opens (`start`), not while it waits for the connection. */
  constructor(private ms: number) {
    this.expired = new Promise<never>((_, reject) => {
      this.rejectExpired = reject;
    });
    this.expired.catch(() => undefined);
  }

  /** The transaction has its connection: from now on it has `ms`. */
  start(): void {
    if (this.started || this.state !== 'running') return;
    this.started = true;
    this.arm(this.ms);
  }

  get hasExpired(): boolean {
    return this.state === 'expired';
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.endsAt = Date.now() + ms;
    this.timer = setTimeout(() => this.expire(), ms);
    this.timer.unref();
  }

  /** Gives the transaction at least `ms` from now (a bulk write the caller asked for). */
  extend(ms: number): void {
    if (this.state !== 'running') return;
    if (!this.started) this.ms = Math.max(this.ms, ms);
    else if (Date.now() + ms > this.endsAt) this.arm(ms);
  }

  /** The transaction is ending on its own (COMMIT sent, or rolled back): the deadline no longer applies. */
  settle(): void {
    if (this.state !== 'running') return;
    this.state = 'settled';
    clearTimeout(this.timer);
  }

  /** Runs `fn` at the deadline (at once when it has passed). */
  onExpire(fn: () => void): void {
    if (this.state === 'expired') fn();
    else this.listeners.push(fn);
  }

  private expire(): void {
    if (this.state !== 'running') return;
    this.state = 'expired';
    this.rejectExpired(new TransactionExpiredError());
    for (const fn of this.listeners.splice(0)) {
      try {
        fn();
      } catch {
        // a driver that could not free its connection must not stop the others
      }
    }
  }
}

let opening: TransactionDeadline | undefined;

/**
 * Runs fn with `deadline` as the deadline of the transaction it opens: the driver takes it when fn asks for the
 * transaction's connection, which fn does before its first `await` (`inTenant`). Not an AsyncLocalStorage: on
 * node 20 one makes every promise of the process pay for carrying it (about 7 % of a request's CPU).
 */
export function withDeadline<T>(deadline: TransactionDeadline, fn: () => Promise<T>): Promise<T> {
  const before = opening;
  opening = deadline;
  try {
    return fn();
  } finally {
    opening = before;
  }
}

/** The deadline of the transaction being opened now (undefined: none, e.g. seeding or migrations). */
export function currentDeadline(): TransactionDeadline | undefined {
  return opening;
}
