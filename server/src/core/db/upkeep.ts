import { sql } from 'drizzle-orm';
import type { Db } from './index.js';

/** changes below this many rows wait for more (the planner's figures do not move for a few rows) */
export const UPKEEP_MIN_ROWS = 1000;
/** a burst of bulk writes (a batch and its certificates) is tended once */
const DELAY_MS = 2000;

/**
 * Keeps the planner's statistics and the visibility map true after bulk writes (a batch of 100,000 devices,
 * an import, a batch removed). PostgreSQL's autovacuum would get to such a table within a minute or so; until
 * then a new batch's devices are estimated at 0.5 % of the table and listed by a sort of the whole batch
 * (280 ms instead of 10), and counting them visits every row (100 ms instead of 10). The embedded PGlite runs
 * no autovacuum at all: without this, its tables are never analyzed and their dead rows never reclaimed.
 * So: `changed(table, rows)` after the commit; a moment later the table is vacuumed and analyzed. At start,
 * PGlite's tables that hold rows and were never analyzed are.
 */
export class TableUpkeep {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly kind: 'pglite' | 'postgres',
    private readonly onError: (e: unknown) => void,
    private readonly delayMs = DELAY_MS,
  ) {}

  /** `rows` rows of `table` were written or removed (after the commit) */
  changed(table: string, rows: number): void {
    if (this.closed || rows <= 0) return;
    const total = (this.pending.get(table) ?? 0) + rows;
    this.pending.set(table, total);
    if (total >= UPKEEP_MIN_ROWS && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.running = this.running.then(() => this.tend()).catch(this.onError);
      }, this.delayMs);
      this.timer.unref();
    }
  }

  /** PGlite: analyzes the tables that hold rows and were never analyzed (a database from before, a restore) */
  start(): void {
    if (this.kind !== 'pglite') return;
    this.running = this.running.then(async () => {
      const never = await this.db.execute(sql`
        select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and c.reltuples < 0`) as unknown as { rows: Array<{ name: string }> };
      for (const { name } of never.rows) {
        if (this.closed) return;
        const held = await this.db.execute(sql`select exists (select 1 from ${sql.identifier(name)}) as held`) as unknown as { rows: Array<{ held: boolean }> };
        if (held.rows[0]?.held) this.pending.set(name, UPKEEP_MIN_ROWS);
      }
      await this.tend();
    }).catch(this.onError);
  }

  /** the work queued now (tests and the bench wait for it) */
  async settled(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.running = this.running.then(() => this.tend()).catch(this.onError);
    }
    await this.running;
  }

  private async tend(): Promise<void> {
    const tables = [...this.pending].filter(([, rows]) => rows >= UPKEEP_MIN_ROWS).map(([name]) => name);
    for (const name of tables) {
      if (this.closed) return;
      this.pending.delete(name);
      // VACUUM cannot run in a transaction: each is a statement of its own. It also marks the new pages
      // all-visible, which lets a count or a page of ids come from the index alone (100 ms → 10 for a batch)
      await this.db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
