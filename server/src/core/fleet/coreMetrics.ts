import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import { importQueue } from '../resource/io/import.js';

/** core's own series: the database pool, the bounded queues of heavy work and the background jobs */
export function registerCoreMetrics(ctx: AppContext, database: Pick<Database, 'pool'>): void {
  const { metrics } = ctx;
  metrics.gauge({
    name: 'db_pool_connections', help: 'Database connections: open, idle, and callers waiting for one', labelNames: ['state'] as const,
    collect: (g) => {
      const p = database.pool();
      g.set({ state: 'total' }, p.total);
      g.set({ state: 'idle' }, p.idle);
      g.set({ state: 'waiting' }, p.waiting);
    },
  });
  metrics.gauge({
    name: 'console_work_slots', help: 'Bounded kinds of work: running and waiting', labelNames: ['kind', 'state'] as const,
    collect: (g) => {
      for (const [kind, s] of [['password_hashing', ctx.hashing], ['heavy_query', ctx.heavyQueries]] as const) {
        g.set({ kind, state: 'running' }, s.active);
        g.set({ kind, state: 'waiting' }, s.queued);
      }
    },
  });
  metrics.gauge({
    name: 'console_jobs', help: 'Import jobs of this process: running or queued behind the one running', labelNames: ['state'] as const,
    collect: (g) => {
      g.set({ state: 'running' }, importQueue.running);
      g.set({ state: 'queued' }, importQueue.queued);
    },
  });
  metrics.gauge({ name: 'console_background_work', help: 'Work outliving its request that a graceful stop waits for', collect: (g) => g.set(ctx.background.size) });
}
