import { sql } from 'drizzle-orm';
import { type Db, type Tx, schema } from '../core/db/index.js';

/**
 * A data step: seed rows or the menus of a feature. Each runs once per database, in order, in its own
 * transaction, and is recorded in app_data_step; so a database created by an older version gets the
 * steps of newer features when it is upgraded, and nothing runs twice.
 */
export interface DataStep {
  name: string;
  run(tx: Tx): Promise<void>;
}

const STEP_LOCK = 72_707_002;

export async function runDataSteps(db: Db, steps: readonly DataStep[]): Promise<string[]> {
  const ran: string[] = [];
  for (const step of steps) {
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
