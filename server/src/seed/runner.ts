import { sql } from 'drizzle-orm';
import type { DataStep } from '../core/area.js';
import { type Db, schema } from '../core/db/index.js';

export type { DataStep } from '../core/area.js';

const STEP_LOCK = 72_707_002;

export async function runDataSteps(db: Db, steps: readonly DataStep[]): Promise<string[]> {
  const ran: string[] = [];
  // a step recorded is done for good: only the others take the lock (a start on an up-to-date database reads once)
  const recorded = new Set((await db.select({ name: schema.appDataStep.name }).from(schema.appDataStep)).map((r) => r.name));
  for (const step of steps) {
    if (recorded.has(step.name)) continue;
    const done = await db.transaction(async (tx) => {
      // Instances starting together on PostgreSQL take turns; the loser sees the step as done.
      await tx.execute(sql`select pg_advisory_xact_lock(${STEP_LOCK})`);
      const seen = await tx.select().from(schema.appDataStep).where(sql`${schema.appDataStep.name} = ${step.name}`);
      if (seen.length) return false;
      await step.run(tx);
      await tx.insert(schema.appDataStep).values({ name: step.name });
      return true;
    });
    if (done) ran.push(step.name);
  }
  return ran;
}
