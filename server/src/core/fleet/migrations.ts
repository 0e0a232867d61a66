import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Executor, migrationsFolder } from '../db/index.js';
import { NotReady } from './health.js';

let known: number | undefined;

/** how many migrations this build carries */
function migrationsKnown(): number {
  known ??= (JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
  return known;
}

/**
 * Resolves when the database answers and holds at least this build's migrations (a newer build may have added
 * more: its migrations only add, so this build still runs on them); rejects otherwise.
 */
export async function migrationsApplied(db: Executor): Promise<void> {
  const res = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`) as unknown as { rows: Array<{ n: number }> };
  if ((res.rows[0]?.n ?? 0) < migrationsKnown()) throw new NotReady('MIGRATIONS_PENDING');
}
