import type { Page } from '@console/contract';
import type { ImportProgress } from '@console/contract/io';
import { asc, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { id, ts } from '../src/core/db/columns.js';
import { copyRows } from '../src/core/db/copy.js';
import { inTenant } from '../src/core/db/index.js';
import { secureTenantTables } from '../src/core/db/tenantSecurity.js';
import { CHECK_CHUNK } from '../src/core/resource/io/importJob.js';
import { SealWorker } from '../src/core/sealWorker.js';
import { unseal } from '../src/core/secrets.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes, ioNoticeBinding } from './io-resource.js';
import { multipart } from './multipart.js';

/**
 * The import engine's bulk path: rows written with COPY (PostgreSQL) or one unnest insert a chunk (PGlite), under
 * the transaction's role and row-level security; files of several chunks checked and written all or nothing.
 */
const h = useServer({}, {}, { extraResources: [ioNoticeBinding] });
const PATH = '/api/blade-desk/notice-io';

const probe = pgTable('test_copy_probe', {
  id: id('id').primaryKey(),
  name: varchar('name', { length: 40 }).notNull(),
  note: text('note'),
  attributes: jsonb('attributes').$type<Record<string, unknown>>(),
  count: integer('count').notNull().default(7),
  seenAt: ts('seen_at'),
});
const probeArrays = pgTable('test_copy_probe_arrays', { id: id('id').primaryKey(), tags: text('tags').array() });
const tenantProbe = pgTable('test_copy_tenant_probe', { id: id('id').primaryKey(), tenantId: varchar('tenant_id', { length: 12 }).notNull(), name: text('name') });

let admin: string; // 000000
let demoAdmin: string; // 541742

beforeAll(async () => {
  const db = h.server.ctx.db;
  await db.execute(sql.raw(`create table test_copy_probe (id bigint primary key, name varchar(40) not null unique, note text,
    attributes jsonb, count integer not null default 7, seen_at timestamptz)`));
  await db.execute(sql.raw('create table test_copy_probe_arrays (id bigint primary key, tags text[])'));
  await db.execute(sql.raw('create table test_copy_tenant_probe (id bigint primary key, tenant_id varchar(12) not null, name text)'));
  // the tenant policies every table with a tenant_id gets at start
  await secureTenantTables(db);
  await grantCodes(h.server, ['notice_io', 'notice_io_add', 'notice_io_view', 'notice_io_export', 'notice_io_import'], ['administrator', 'admin']);
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demoAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
});

describe('copyRows', () => {
  const db = () => h.server.ctx.db;

  it('writes every value exactly (escapes, JSON, times, nulls); a column a row leaves out takes its default', async () => {
    const at = new Date('2026-11-28T03:04:05.678Z');
    const awkward = 'tab\there, new\nline, cr\r, back\\slash, \\N, "quotes", 锁 🔒';
    await inTenant(db(), { tenantId: '000000' }, (tx) => copyRows(tx, probe, [
      { id: '9007199254740993', name: 'awkward', note: awkward, attributes: { a: 1, b: [true, null], c: 'x"y\\z\n' }, count: 3, seenAt: at },
      { id: '2', name: 'defaults', notAColumn: 'ignored' },
      { id: '3', name: 'nulls', note: null, attributes: null, count: 0, seenAt: null },
      { id: '4', name: 'same time', seenAt: at },
    ]));
    const rows = await db().select().from(probe).orderBy(asc(probe.id));
    expect(rows).toEqual([
      { id: '2', name: 'defaults', note: null, attributes: null, count: 7, seenAt: null },
      { id: '3', name: 'nulls', note: null, attributes: null, count: 0, seenAt: null },
      { id: '4', name: 'same time', note: null, attributes: null, count: 7, seenAt: at },
      { id: '9007199254740993', name: 'awkward', note: awkward, attributes: { a: 1, b: [true, null], c: 'x"y\\z\n' }, count: 3, seenAt: at },
    ]);
  });

  it('writes arrays, and many rows in chunks', async () => {
    await inTenant(db(), { tenantId: '000000' }, (tx) => copyRows(tx, probeArrays, [{ id: '1', tags: ['p,q', 'r"s', 'back\\slash', '{}'] }, { id: '2', tags: [] }, { id: '3' }]));
    expect(await db().select().from(probeArrays).orderBy(asc(probeArrays.id))).toEqual([
      { id: '1', tags: ['p,q', 'r"s', 'back\\slash', '{}'] }, { id: '2', tags: [] }, { id: '3', tags: null },
    ]);
    const many = Array.from({ length: 2500 }, (_, i) => ({ id: String(1000 + i), name: `many-${i}`, count: i }));
    await inTenant(db(), { tenantId: '000000' }, (tx) => copyRows(tx, probe, many, 1000));
    const [n] = (await db().execute(sql`select count(*)::int as n, sum(count)::int as s from test_copy_probe where name like 'many-%'`) as unknown as { rows: Array<{ n: number; s: number }> }).rows;
    expect(n).toEqual({ n: 2500, s: (2499 * 2500) / 2 });
  });

  it('fails the statement, and the transaction, on a row the table refuses', async () => {
    await expect(inTenant(db(), { tenantId: '000000' }, (tx) => copyRows(tx, probe, [{ id: '50', name: 'fresh' }, { id: '51', name: 'awkward' }]))).rejects.toThrow();
    expect(await db().select().from(probe).where(sql`id = 50`)).toEqual([]);
  });

  it('writes a tenant table under its row-level security: the tenant\'s rows, never another tenant\'s', async () => {
    await inTenant(db(), { tenantId: '541742' }, (tx) => copyRows(tx, tenantProbe, [{ id: '1', tenantId: '541742', name: 'mine' }, { id: '2', tenantId: '541742', name: 'mine too' }]));
    const refused = await inTenant(db(), { tenantId: '541742' }, (tx) => copyRows(tx, tenantProbe, [{ id: '3', tenantId: '541742', name: 'mine' }, { id: '4', tenantId: '000000', name: 'not mine' }]))
      .then(() => undefined, (e: unknown) => e as Error & { cause?: Error });
    // drizzle's error names the statement; PostgreSQL's is its cause
    expect(refused?.cause?.message ?? refused?.message).toMatch(/row-level security/);
    // two tables staged in one transaction, the second twice
    await inTenant(db(), { tenantId: '541742' }, async (tx) => {
      await copyRows(tx, tenantProbe, [{ id: '5', tenantId: '541742', name: 'a' }]);
      await copyRows(tx, probe, [{ id: '60', name: 'between' }]);
      await copyRows(tx, tenantProbe, [{ id: '6', tenantId: '541742', name: 'b' }]);
    });
    const rows = await db().select().from(tenantProbe).orderBy(asc(tenantProbe.id));
    expect(rows.map((r) => [r.id, r.tenantId, r.name])).toEqual([['1', '541742', 'mine'], ['2', '541742', 'mine too'], ['5', '541742', 'a'], ['6', '541742', 'b']]);
  });
});

describe('the sealing worker', () => {
  it('seals as secrets.ts does: each value opens with the key, a fresh IV each', async () => {
    const key = randomBytes(32);
    const worker = new SealWorker(key);
    try {
      const plains = ['c2VjcmV0', 'c2VjcmV0', '密钥 🔑', ''];
      const sealed = await worker.seal(plains);
      expect(sealed).toHaveLength(4);
      for (const s of sealed) expect(s).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]*$/);
      expect(sealed[0]).not.toBe(sealed[1]);
      expect(sealed.map((s) => unseal(key, s))).toEqual(plains);
      expect(await worker.seal([])).toEqual([]);
    } finally {
      await worker.close();
    }
  });
});

type Notice = { id: string; title: string; tenantId: string };

async function upload(data: Buffer | string, opts: { token?: string; filename?: string; type?: string } = {}) {
  const { payload, contentType } = multipart([{ name: 'file', filename: opts.filename ?? 'notices.xlsx', type: opts.type ?? 'application/octet-stream', data }]);
  const res = await h.server.app.inject({
    method: 'POST', url: `${PATH}/import`, headers: { authorization: BASIC, 'blade-auth': `bearer ${opts.token ?? admin}`, 'content-type': contentType, 'accept-language': 'en' }, payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { id: string } }).data.id;
}

async function finished(id: string, token = admin): Promise<ImportProgress> {
  const until = Date.now() + 120_000;
  for (;;) {
    const res = await h.call<ImportProgress>('GET', `${PATH}/get-upload-progress`, { token, query: { id }, lang: 'en' });
    if (res.body.data.status !== 'running') return res.body.data;
    if (Date.now() > until) throw new Error(`import ${id} still running: ${JSON.stringify(res.body.data)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** an .xlsx as the streaming writer makes it (inline strings), or a regular one (shared strings) */
async function xlsxOf(rows: unknown[][], streamed = true): Promise<Buffer> {
  if (!streamed) {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sheet1');
    for (const r of rows) sheet.addRow(r);
    return Buffer.from(await book.xlsx.writeBuffer());
  }
  const chunks: Buffer[] = [];
  const { PassThrough } = await import('node:stream');
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow(r).commit();
  await book.commit();
  return Buffer.concat(chunks);
}

const titled = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => [`${prefix}-${String(i + 1).padStart(5, '0')}`, (i % 3) + 1, '2024-10-01 10:00:00']);
const HEADER = ['title', 'category', 'releaseTime'];
/** the live notices of a tenant whose title starts so (counted exactly: a list's total is an estimate past 10,000) */
const total = async (prefix: string, tenantId = '000000') => (await h.server.ctx.db.execute(
  sql`select count(*)::int as n from blade_notice where tenant_id = ${tenantId} and title like ${`${prefix}%`} and is_deleted = 0`,
) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
// rows past two chunks: three statements' worth of checks and writes
const ROWS = 2 * CHECK_CHUNK + 1;

describe('an import of several chunks', () => {
  it('writes every row of every chunk, in the importer\'s tenant', async () => {
    const done = await finished(await upload(await xlsxOf([HEADER, ...titled('bulk', ROWS)])));
    expect(done).toMatchObject({ status: 'done', total: ROWS, processed: ROWS, succeeded: ROWS, failed: 0, errors: [] });
    expect(await total('bulk-')).toBe(ROWS);
    for (const title of ['bulk-00001', `bulk-${String(CHECK_CHUNK).padStart(5, '0')}`, `bulk-${String(CHECK_CHUNK + 1).padStart(5, '0')}`, `bulk-${String(ROWS).padStart(5, '0')}`]) {
      const [row] = (await h.call<Page<Notice>>('GET', `${PATH}/list`, { token: admin, query: { title } })).body.data.records;
      expect(row, title).toMatchObject({ title, tenantId: '000000' });
    }
    expect(await total('bulk-', '541742')).toBe(0);
  }, 120_000);

  it('finds a title repeated in a later chunk, and writes nothing', async () => {
    const rows = titled('dupe', ROWS);
    rows[CHECK_CHUNK + 500]![0] = 'dupe-00003'; // spreadsheet row CHECK_CHUNK + 502 repeats row 4
    const done = await finished(await upload(await xlsxOf([HEADER, ...rows], false)));
    expect(done).toMatchObject({ status: 'failed', total: ROWS, succeeded: 0, failed: 1 });
    expect(done.errors).toEqual([{ row: CHECK_CHUNK + 502, message: 'Title "dupe-00003" repeats row 4' }]);
    expect(await total('dupe-')).toBe(0);
  }, 120_000);

  it('takes back every chunk already written when a row of the last chunk is bad, naming its row', async () => {
    const rows = titled('late', ROWS);
    rows[ROWS - 1]![2] = 'not a date';
    const done = await finished(await upload(await xlsxOf([HEADER, ...rows])));
    expect(done).toMatchObject({ status: 'failed', total: ROWS, succeeded: 0, failed: 1 });
    expect(done.errors).toHaveLength(1);
    expect(done.errors[0]!.row).toBe(ROWS + 1);
    expect(done.errors[0]!.message).toContain('not a valid time');
    expect(await total('late-')).toBe(0);
  }, 120_000);

  it('fails whole when the file turns unreadable after chunks were written', async () => {
    // a record past csv's 1 MB limit, after more than a chunk of good rows
    const lines = [HEADER.join(','), ...titled('broken', CHECK_CHUNK + 1000).map((r) => r.join(',')), `broken-x,1,"${'x'.repeat(1_100_000)}"`, 'broken-y,1,2024-10-01 10:00:00'];
    const done = await finished(await upload(lines.join('\n'), { filename: 'n.csv', type: 'text/csv' }));
    expect(done).toMatchObject({ status: 'failed', succeeded: 0 });
    expect(done.errors).toEqual([{ row: 0, message: 'The file cannot be read; make sure it is a valid .xlsx or .csv file' }]);
    expect(await total('broken-')).toBe(0);
  }, 120_000);

  it('checks titles against the importer\'s tenant only, in every chunk', async () => {
    // 541742 may hold the titles 000000 imported above
    const csv = [HEADER.join(','), ...titled('bulk', ROWS).map((r) => r.join(','))].join('\n');
    const theirs = await finished(await upload(csv, { token: demoAdmin, filename: 'n.csv', type: 'text/csv' }), demoAdmin);
    expect(theirs).toMatchObject({ status: 'done', succeeded: ROWS });
    expect(await total('bulk-', '541742')).toBe(ROWS);
    // 000000 may not import them again: each chunk's rows are found in the table
    const again = titled('fresh', 3 * CHECK_CHUNK);
    again[10]![0] = 'bulk-00007';
    again[2 * CHECK_CHUNK + 10]![0] = `bulk-${String(ROWS).padStart(5, '0')}`;
    const ours = await finished(await upload(await xlsxOf([HEADER, ...again])));
    expect(ours).toMatchObject({ status: 'failed', failed: 2 });
    expect(ours.errors).toEqual([
      { row: 12, message: 'Title "bulk-00007" already exists' },
      { row: 2 * CHECK_CHUNK + 12, message: `Title "bulk-${String(ROWS).padStart(5, '0')}" already exists` },
    ]);
    expect(await total('fresh-')).toBe(0);
    expect(await total('bulk-')).toBe(ROWS);
  }, 180_000);
});
