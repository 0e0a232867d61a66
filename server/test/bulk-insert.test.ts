import { asc, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { inList, insertRows } from '../src/core/db/bulk.js';
import { id, ts } from '../src/core/db/columns.js';
import { useServer } from './harness.js';

const probe = pgTable('test_bulk_probe', {
  id: id('id').primaryKey(),
  name: varchar('name', { length: 40 }).notNull(),
  note: text('note'),
  attributes: jsonb('attributes').$type<Record<string, unknown>>(),
  tags: text('tags').array(),
  count: integer('count').notNull().default(7),
  seenAt: ts('seen_at'),
});

/** The engine's bulk writer (imports): every column type a resource table holds comes back as written. */
describe('insertRows and inList', () => {
  const h = useServer();
  beforeAll(async () => {
    await h.server.ctx.db.execute(sql.raw(`create table test_bulk_probe (id bigint primary key, name varchar(40) not null, note text,
      attributes jsonb, tags text[], count integer not null default 7, seen_at timestamptz)`));
  });

  it('writes ids, text, JSON, arrays, times and nulls exactly, and a column a row leaves out takes its default', async () => {
    const at = new Date('2026-11-28T03:04:05.678Z');
    await insertRows(h.server.ctx.db, probe, [
      { id: '9007199254740993', name: 'quote " back\\slash 锁', note: null, attributes: { a: 1, b: [true, null], c: 'x"y' }, tags: ['p,q', 'r"s'], count: 3, seenAt: at },
      { id: '2', name: 'defaults', notAColumn: 'ignored' },
      { id: '3', name: 'chunked', count: 0 },
    ], 2);
    const rows = await h.server.ctx.db.select().from(probe).orderBy(asc(probe.name));
    expect(rows).toEqual([
      { id: '3', name: 'chunked', note: null, attributes: null, tags: null, count: 0, seenAt: null },
      { id: '2', name: 'defaults', note: null, attributes: null, tags: null, count: 7, seenAt: null },
      { id: '9007199254740993', name: 'quote " back\\slash 锁', note: null, attributes: { a: 1, b: [true, null], c: 'x"y' }, tags: ['p,q', 'r"s'], count: 3, seenAt: at },
    ]);
  });

  it('tests membership with one parameter, values quoted as they are', async () => {
    const names = await h.server.ctx.db.select({ name: probe.name }).from(probe)
      .where(inList(probe.name, ['quote " back\\slash 锁', 'chunked', "it's", '{,}'])).orderBy(asc(probe.name));
    expect(names.map((r) => r.name)).toEqual(['chunked', 'quote " back\\slash 锁']);
    const ids = await h.server.ctx.db.select({ id: probe.id }).from(probe).where(inList(probe.id, ['2', '9007199254740993']));
    expect(ids.map((r) => r.id).sort()).toEqual(['2', '9007199254740993']);
    expect(await h.server.ctx.db.select().from(probe).where(inList(probe.id, []))).toEqual([]);
  });

  it('refuses a row that names no column rather than writing an empty one', async () => {
    await expect(insertRows(h.server.ctx.db, probe, [{ other: 1 }])).rejects.toThrow(/no column/);
  });
});
