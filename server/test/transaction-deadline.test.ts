import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { allowLongTransaction, inTenant, type Tx } from '../src/core/db/index.js';
import { sqlState } from '../src/core/dbErrors.js';
import { nextId } from '../src/core/ids.js';
import { useServer } from './harness.js';
import { notice } from '../src/areas/desk/tables.js';

/**
 * No request holds the database (issue 23, item 2): a transaction still open at its deadline is rolled back
 * and its connection freed whatever its code does, so other tenants keep being answered; the abandoned
 * code's later statements fail instead of running outside a transaction or inside someone else's.
 */
const DEADLINE_MS = 1500;
const h = useServer({ TRANSACTION_TIMEOUT_MS: String(DEADLINE_MS) });

/** how a transaction or statement ended: committed, or the SQLSTATE it failed with (drizzle wraps the driver's error) */
const outcome = (p: Promise<unknown>) => p.then(() => 'committed', (e: unknown) => sqlState(e) ?? String(e));
const never = () => new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function platformAdminList(): Promise<number> {
  const token = (await h.login('000000', 'admin', 'admin')).access_token;
  return (await h.call('GET', '/api/blade-system/user/list', { token })).status;
}

/** the content of the demo tenant's notice titled title, read in a transaction of its own */
async function paramValue(title: string): Promise<string | undefined> {
  const rows = await inTenant(h.server.ctx.db, { tenantId: '541742' }, (tx) =>
    tx.select({ content: notice.content }).from(notice).where(eq(notice.title, title)));
  return rows[0]?.content ?? undefined;
}

async function insertParam(tx: Tx, title: string): Promise<void> {
  await tx.insert(notice).values({ id: nextId(), tenantId: '541742', title, category: 1, releaseTime: new Date(), content: 'held' });
}

describe('a transaction has a deadline', () => {
  it('rolls back a transaction whose code awaits forever, frees the connection, and refuses its later statements', async () => {
    let abandoned: Tx | undefined;
    // every connection held (PostgreSQL's pool has 10, PGlite is one): nothing else could run without the deadline
    const connections = process.env.DATABASE_URL ? 10 : 1;
    const held = Array.from({ length: connections }, (_, i) => inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      if (i === 0) {
        abandoned = tx;
        await insertParam(tx, 'held.forever');
      }
      await tx.execute(sql`select 1`);
      return never();
    }));
    const outcomes = held.map(outcome);
    // another tenant is answered meanwhile
    expect(await platformAdminList()).toBe(200);
    expect(await Promise.all(outcomes)).toEqual(Array(connections).fill('25P04'));
    // what the abandoned transaction wrote is gone, and its code can send nothing more
    expect(await paramValue('held.forever')).toBeUndefined();
    expect(await outcome(abandoned!.execute(sql`select 1`))).toBe('25P04');
  });

  it('stops code that loops on statements, and its statements after the deadline run nowhere', async () => {
    let statements = 0;
    let refused: unknown;
    let finished!: () => void;
    const codeFinished = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const looping = inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      try {
        for (;;) {
          await tx.execute(sql`select 1`);
          statements++;
        }
      } catch (e) {
        refused = e;
      }
      // the code carries on after the refusal: its write must not land outside a transaction nor in the next one
      await insertParam(tx, 'after.deadline').catch(() => undefined);
      finished();
      return 'done';
    });
    const ended = outcome(looping);
    expect(await platformAdminList()).toBe(200);
    expect(await ended).toBe('25P04');
    expect(statements).toBeGreaterThan(0);
    await codeFinished;
    expect(sqlState(refused)).toBe('25P04');
    // the next transactions run normally and see nothing of it
    await inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => insertParam(tx, 'next.one'));
    expect(await paramValue('after.deadline')).toBeUndefined();
    expect(await paramValue('next.one')).toBe('held');
  });

  it('answers a transaction past its deadline as 503 "took too long", never a 500', async () => {
    const { answerForDbError } = await import('../src/core/dbErrors.js');
    const { TransactionExpiredError } = await import('../src/core/db/index.js');
    expect(answerForDbError(new TransactionExpiredError())).toEqual({ status: 503, key: 'transactionTimedOut' });
  });

  it('lets a transaction the caller asked to be long (an import, a batch) run past the default deadline, still bounded', async () => {
    const result = await inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      await allowLongTransaction(tx, DEADLINE_MS * 4);
      await insertParam(tx, 'long.import');
      await sleep(DEADLINE_MS * 2);
      await tx.execute(sql`select 1`);
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(await paramValue('long.import')).toBe('held');
    const bounded = inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      await allowLongTransaction(tx, DEADLINE_MS * 2);
      return never();
    });
    expect(await outcome(bounded)).toBe('25P04');
  });

  it('survives its own bound being reached while this thread is too busy to act on it first', async () => {
    // the database's side of the bound (idle_in_transaction_session_timeout) then fires before this process's:
    // PostgreSQL ends the session, and PGlite must not be given it at all (its backend stops and never answers)
    const busy = inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      await allowLongTransaction(tx, DEADLINE_MS);
      const until = Date.now() + DEADLINE_MS * 2;
      while (Date.now() < until) {
        // this thread is busy: no timer of its own runs
      }
      return never();
    });
    expect(await outcome(busy)).toBe('25P04');
    expect(await inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      await tx.execute(sql`select 1`);
      return 'ok';
    })).toBe('ok');
    expect(await platformAdminList()).toBe(200);
  });

  it('leaves transactions that finish in time alone, and background work its own bound', async () => {
    expect(await inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => {
      await tx.execute(sql`select 1`);
      return 'ok';
    })).toBe('ok');
    const background = inTenant(h.server.ctx.db, { tenantId: '541742', timeoutMs: DEADLINE_MS * 3 }, async (tx) => {
      await sleep(DEADLINE_MS * 2);
      await tx.execute(sql`select 1`);
      return 'ok';
    });
    expect(await background).toBe('ok');
  });
});
