import type { Page } from '@console/contract';
import { and, asc, desc, sql } from 'drizzle-orm';
import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/core/context.js';
import type { Executor } from '../src/core/db/index.js';
import { buildFilters, sortKeys, type SortKeys } from '../src/core/resource/filters.js';
import { csvCell } from '../src/core/resource/io/csvWriter.js';
import { exportSheetColumns, keysetAfter, openExport } from '../src/core/resource/io/export.js';
import { buildMount, type ResourceMount } from '../src/core/resource/mount/resourceMount.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes, ioNoticeBinding } from './io-resource.js';

/**
 * The export's CSV option (`?format=csv`): the xlsx's columns, headers and labels as UTF-8 CSV with a BOM, RFC 4180
 * quoting, formula-looking text defused; the same tenant, data scope and permission as the xlsx; a bad format a 400
 * in the caller's language. And the read under both: a chunk at a time in the list's order (keyset or ids first).
 */
const h = useServer({}, {}, { extraResources: [ioNoticeBinding] });
const PATH = '/api/blade-desk/notice-io';
type Notice = { id: string; title: string; category: number; categoryName: string; releaseTime: string };

let admin: string; // 000000, administrator
let demoAdmin: string; // 541742
let plain: string; // 000000, role user: no export code

const TITLES = [
  '通知, 带逗号和 "引号"',
  '=HYPERLINK("http://evil.example","点我")',
  '+86 138 0000 0000',
  '-1+1',
  '@SUM(A1:A2)',
  '\t制表符开头',
  '第一行\n第二行',
  '普通的中文标题',
];

beforeAll(async () => {
  await grantCodes(h.server, ['notice_io', 'notice_io_add', 'notice_io_view', 'notice_io_export'], ['administrator', 'admin']);
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demoAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  await h.createUser('000000', 'csv-plain', 'pw', ['user']);
  plain = (await h.login('000000', 'csv-plain', 'pw')).access_token;
  for (const [i, title] of TITLES.entries()) {
    const res = await h.call('POST', `${PATH}/submit`, {
      token: admin, body: { title: `csv-${title}`, category: (i % 3) + 1, releaseTime: `2024-06-0${(i % 2) + 1} 08:00:00`, content: `<p>${i}</p>` },
    });
    expect(res.status).toBe(200);
  }
  const other = await h.call('POST', `${PATH}/submit`, { token: demoAdmin, body: { title: 'csv-other-tenant', category: 1, releaseTime: '2024-06-01 08:00:00' } });
  expect(other.status).toBe(200);
});

async function download(query: Record<string, string>, opts: { token?: string; lang?: 'zh' | 'en' } = {}) {
  const headers: Record<string, string> = { authorization: BASIC, 'blade-auth': `bearer ${opts.token ?? admin}` };
  if (opts.lang) headers['accept-language'] = opts.lang;
  return h.server.app.inject({ method: 'GET', url: `${PATH}/export`, query, headers });
}

/** RFC 4180: fields split on commas and CRLF, quoted fields unquoted (quotes doubled inside) */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let at = 0;
  while (at < text.length) {
    let cell = '';
    if (text[at] === '"') {
      at++;
      for (;;) {
        const q = text.indexOf('"', at);
        cell += text.slice(at, q);
        at = q + 1;
        if (text[at] === '"') { cell += '"'; at++; } else break;
      }
    } else {
      const end = text.slice(at).search(/,|\r\n/);
      cell = end < 0 ? text.slice(at) : text.slice(at, at + end);
      at = end < 0 ? text.length : at + end;
    }
    row.push(cell);
    if (text.startsWith('\r\n', at)) { rows.push(row); row = []; at += 2; } else if (text[at] === ',') at++;
  }
  if (row.length) rows.push(row);
  return rows;
}

async function sheetOf(body: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('export as CSV', () => {
  it('writes the xlsx\'s headers, columns and labels as UTF-8 with a BOM, quoted where needed, formulas defused', async () => {
    const query = { title: 'csv-', ascs: 'releaseTime' };
    const res = await download({ ...query, format: 'csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename\*=UTF-8''.+\.csv$/);
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("''")[1]!)).toMatch(/^通知公告-\d{4}-\d{2}-\d{2}\.csv$/);
    const body = res.rawPayload;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = body.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain('"csv-通知, 带逗号和 ""引号"""'); // RFC 4180
    expect(text).toContain('"csv-第一行\n第二行"');
    const csv = parseCsv(text);
    expect(csv[0]).toEqual(['通知标题', '通知类型', '发布时间', '通知内容']);
    expect(csv.length).toBe(TITLES.length + 1);

    // the same cells as the xlsx (text there is an inline string, never a formula: nothing to defuse)
    const sheet = await sheetOf((await download(query)).rawPayload);
    expect(sheet.map((r) => r.map((v) => String(v ?? '')))).toEqual(csv.map((r) => r.map((v) => v.replace(/^'(?=[=+\-@\t\r])/, ''))));
    // dictionary labels as the list answers them, in the list's order
    const listed = (await h.call<Page<Notice>>('GET', `${PATH}/list`, { token: admin, query: { ...query, size: 100 } })).body.data.records;
    expect(csv.slice(1).map((r) => [r[1], r[2]])).toEqual(listed.map((n) => [n.categoryName, n.releaseTime]));
    expect(listed.every((n) => n.categoryName && !/^\d+$/.test(n.categoryName))).toBe(true);

    // formula-looking text starts with a single quote; plain text does not
    const titles = csv.slice(1).map((r) => r[0]);
    for (const t of ['=HYPERLINK("http://evil.example","点我")', '+86 138 0000 0000', '-1+1', '@SUM(A1:A2)', '\t制表符开头']) {
      expect(titles).toContain(`csv-${t}`); // the stored title starts with csv-: nothing to defuse
    }
  });

  it('defuses a cell starting with = + - @, a tab or a carriage return, and quotes by RFC 4180', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("a","b")')).toBe(`"'=HYPERLINK(""a"",""b"")"`);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('中文')).toBe('中文');
    expect(csvCell(-5)).toBe('-5'); // a number is not a formula
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(true)).toBe('TRUE');
    expect(csvCell(null)).toBe('');
  });

  it('writes a title that looks like a formula defused, as the first cell of its row', async () => {
    const res = await h.call('POST', `${PATH}/submit`, { token: admin, body: { title: '=cmd|\' /C calc\'!A0', category: 1, releaseTime: '2024-06-09 09:00:00' } });
    expect(res.status).toBe(200);
    const csv = parseCsv((await download({ title: '=cmd', format: 'csv' })).rawPayload.toString('utf8').slice(1));
    expect(csv[1]![0]).toBe("'=cmd|' /C calc'!A0");
    const sheet = await sheetOf((await download({ title: '=cmd' })).rawPayload);
    expect(sheet[1]![0]).toBe("=cmd|' /C calc'!A0"); // an inline string in the xlsx: shown as typed, never run
  });

  it('answers English headers to an English caller', async () => {
    const csv = parseCsv((await download({ title: 'csv-', format: 'csv' }, { lang: 'en' })).rawPayload.toString('utf8').slice(1));
    expect(csv[0]).toEqual(['Title', 'Category', 'Release time', 'Content']);
  });

  it('holds only the caller\'s tenant, and needs the export code, as the xlsx', async () => {
    const mine = (await download({ title: 'csv-', format: 'csv' })).rawPayload.toString('utf8');
    expect(mine).not.toContain('csv-other-tenant');
    const theirs = parseCsv((await download({ title: 'csv-', format: 'csv' }, { token: demoAdmin })).rawPayload.toString('utf8').slice(1));
    expect(theirs.slice(1).map((r) => r[0])).toEqual(['csv-other-tenant']);
    const denied = await download({ format: 'csv' }, { token: plain });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().msg).toContain('notice_io_export');
    expect((await download({ format: 'xlsx' }, { token: plain })).statusCode).toBe(403);
  });

  it('refuses an unknown format with a 400 in the caller\'s language; xlsx stays the default', async () => {
    const zh = await download({ format: 'pdf' });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toBe('不支持的导出格式 "pdf", 可选: xlsx, csv');
    const en = await download({ format: 'xls' }, { lang: 'en' });
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toBe('Unknown export format "xls"; choose one of: xlsx, csv');
    const byDefault = await download({ title: 'csv-' });
    expect(byDefault.headers['content-type']).toContain('spreadsheetml');
    expect(String(byDefault.headers['content-disposition'])).toMatch(/\.xlsx$/);
    expect((await download({ title: 'csv-', format: 'XLSX' })).statusCode).toBe(200);
  });
});

describe('the export\'s read', () => {
  // the resource as the engine mounts it (the registry keeps only what other resources need of it)
  const mount = (): ResourceMount => buildMount(h.server.ctx, ioNoticeBinding.def, ioNoticeBinding.table, ioNoticeBinding.hooks?.(h.server.ctx) ?? {});
  // the engine's caller: tenant 000000, no data scope (the routes' own checks are the tests above)
  const caller: AuthUser = { tenantId: '000000', userId: '1', deptId: '', roleIds: [], roleAliases: ['administrator'], account: 'admin', userName: 'admin', clientId: 'saber', sessionId: '' };

  it('reads a chunk at a time, never more, in the list\'s order, by keyset or ids first alike', async () => {
    const m = mount();
    for (const [ascs, descs] of [['releaseTime', 'title'], [undefined, undefined], [undefined, 'releaseTime']] as const) {
      const query: Record<string, string> = { title: 'csv-', ...(ascs ? { ascs } : {}), ...(descs ? { descs } : {}) };
      const listed = (await h.call<Page<Notice>>('GET', `${PATH}/list`, { token: admin, query: { ...query, size: 100 } })).body.data.records.map((n) => n.id);
      expect(listed.length).toBeGreaterThanOrEqual(TITLES.length);
      const built = buildFilters(m.def, m.columns, { title: 'csv-' }, 'zh');
      const keys = sortKeys(m.def, m.columns, ascs, descs, 'zh');
      const { wanted } = await exportSheetColumns(m, caller, {}, 'zh');
      for (const strategy of ['keyset', 'ids'] as const) {
        const source = await openExport(m, caller, { built, keys, wanted, lang: 'zh' }, { chunk: 3, strategy });
        expect(source.strategy).toBe(strategy);
        const chunks: string[][] = [];
        for (let rows = await source.next(); rows; rows = await source.next()) chunks.push(rows.map((r) => String(r.id)));
        expect(chunks.every((c) => c.length <= 3)).toBe(true);
        expect(chunks.length).toBe(Math.ceil(listed.length / 3));
        expect(chunks.flat()).toEqual(listed);
      }
      // by default: a keyset walk where the planner sorts few rows (or walks an index)
      expect((await openExport(m, caller, { built, keys, wanted, lang: 'zh' }, { chunk: 3 })).strategy).toBe('keyset');
    }
  });

  it('walks ascending and descending keys with nulls and ties as PostgreSQL orders them', async () => {
    const db = h.server.ctx.db as Executor;
    await db.execute(sql`create table if not exists test_keyset (id bigint not null, a integer, b text)`);
    await db.execute(sql`delete from test_keyset`);
    const values = Array.from({ length: 40 }, (_, i) => sql`(${i + 1}, ${i % 4 === 0 ? null : i % 3}, ${i % 5 === 0 ? null : `b${i % 2}`})`);
    await db.execute(sql`insert into test_keyset (id, a, b) values ${sql.join(values, sql`, `)}`);
    const t = pgTable('test_keyset', { id: bigint('id', { mode: 'number' }).notNull(), a: integer('a'), b: text('b') });
    for (const dirs of [['asc', 'asc'], ['desc', 'asc'], ['asc', 'desc'], ['desc', 'desc']] as const) {
      const keys: SortKeys = [{ column: t.a, dir: dirs[0] }, { column: t.b, dir: dirs[1] }, { column: t.id, dir: 'desc' }];
      const order = keys.map((k) => (k.dir === 'asc' ? asc(k.column) : desc(k.column)));
      const all = (await db.select({ id: t.id }).from(t).orderBy(...order)).map((r) => r.id);
      const walked: number[] = [];
      let last: Array<string | null> | undefined;
      for (;;) {
        const rows = await db.select({ id: t.id, a: sql<string | null>`${t.a}::text`, b: t.b }).from(t)
          .where(and(last ? keysetAfter(keys, last) : undefined)).orderBy(...order).limit(7);
        walked.push(...rows.map((r) => r.id));
        if (rows.length < 7) break;
        const end = rows.at(-1)!;
        last = [end.a, end.b, String(end.id)];
      }
      expect(walked, dirs.join(',')).toEqual(all);
    }
    await db.execute(sql`drop table test_keyset`);
  });
});

