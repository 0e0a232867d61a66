import type { Lang } from '@console/contract';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/core/context.js';
import { buildFilters, sortKeys } from '../src/core/resource/filters.js';
import { CsvSheetWriter } from '../src/core/resource/io/csvWriter.js';
import { type CopySource, exportSheetColumns, openExport, type RowSource, writeExport } from '../src/core/resource/io/export.js';
import { type CopyFormat, exportCopyPlan, inlined, startCopyExport } from '../src/core/resource/io/exportCopy.js';
import { xlsxRows } from '../src/core/resource/io/xlsxReader.js';
import { type SheetWriter, XlsxSheetWriter } from '../src/core/resource/io/xlsxWriter.js';
import { mountOf as engineMount } from '../src/core/resource/engine.js';
import type { ResourceMount } from '../src/core/resource/mount/resourceMount.js';
import { useServer } from './harness.js';
import { grantCodes, ioNoticeBinding } from './io-resource.js';

/**
 * Exports presented by PostgreSQL (`io/exportCopy.ts`, each chunk a `COPY (select …) TO STDOUT`) write what the
 * row-by-row presenting writes: for every resource with an export whose cells are all SQL expressions, the CSV byte
 * for byte and the .xlsx's cells value for value (types too), in zh and en, by the platform's and a tenant's
 * administrator, over chunk boundaries; texts that need quoting, defusing, escaping, a missing label, a deleted or
 * another tenant's reference. PostgreSQL only: the embedded database answers no COPY to a client, and its exports
 * go row by row (checked too).
 */
const h = useServer({}, {}, { extraResources: [ioNoticeBinding] });
const onPostgres = Boolean(process.env.DATABASE_URL);
const PATH = '/api/blade-desk/notice-io';

const platform: AuthUser = { tenantId: '000000', userId: '1123598821738675201', deptId: '', roleIds: [], roleAliases: ['administrator'], account: 'admin', userName: 'admin', clientId: 'saber', sessionId: '' };
const demo: AuthUser = { ...platform, tenantId: '541742', roleAliases: ['admin'] };

const TITLES = [
  'copy-通知, 带逗号和 "引号"',
  '=HYPERLINK("http://evil.example","点我")',
  '+86 138 0000 0000',
  '-1+1',
  '@SUM(A1:A2)',
  '\t制表符开头',
  '第一行\n第二行\r\n第三行',
  ' 两端空格 ',
  'back\\slash \\N',
  '',
  'Ünïcödé 😀 𠀀',
  'ctl-字符',
];

const mountOf = (code: string): ResourceMount => engineMount(h.server.ctx.resources.get(code))!;

/** the export of `m` (every row, default order) through `sheet`, by COPY or row by row */
async function run(m: ResourceMount, user: AuthUser, lang: Lang, out: PassThrough, via: 'copy' | 'rows', format: CopyFormat, chunk: number) {
  const built = buildFilters(m.def, m.columns, {}, lang);
  const keys = sortKeys(m.def, m.columns, undefined, undefined, lang);
  const { cols, wanted, dynamic } = await exportSheetColumns(m, user, {}, lang);
  const sheet: SheetWriter = format === 'csv' ? new CsvSheetWriter(out) : new XlsxSheetWriter(out, m.def.code, cols.map((c) => ({ header: c.header, width: c.width })));
  const plan = via === 'copy' ? await exportCopyPlan(m, user, cols, lang, dynamic) : undefined;
  const source: RowSource | CopySource = await openExport(m, user, { built, keys, wanted, lang }, { chunk, strategy: 'keyset', ...(plan ? { copy: { plan, format } } : {}) });
  await writeExport(m, sheet, out, user, lang, source, cols, wanted);
  return { plan, source };
}

async function exported(m: ResourceMount, user: AuthUser, lang: Lang, via: 'copy' | 'rows', format: CopyFormat, chunk: number) {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const { source } = await run(m, user, lang, out, via, format, chunk);
  return { bytes: Buffer.concat(parts), strategy: source.strategy };
}

async function csvOf(m: ResourceMount, user: AuthUser, lang: Lang, via: 'copy' | 'rows', chunk: number) {
  const { bytes, strategy } = await exported(m, user, lang, via, 'csv', chunk);
  return { text: bytes.toString('utf8'), strategy };
}

/** the .xlsx's rows as its reader gives them (numbers, cells) */
async function cellsOf(m: ResourceMount, user: AuthUser, lang: Lang, via: 'copy' | 'rows', chunk: number) {
  const { bytes, strategy } = await exported(m, user, lang, via, 'xml', chunk);
  const path = join(tmpdir(), `export-copy-${randomUUID()}.xlsx`);
  await writeFile(path, bytes);
  try {
    const rows: Array<{ row: number; cells: unknown[] }> = [];
    for await (const r of xlsxRows(path)) rows.push({ row: r.row, cells: [...r.cells] });
    return { rows, strategy, bytes };
  } finally {
    await rm(path, { force: true });
  }
}

beforeAll(async () => {
  await grantCodes(h.server, ['notice_io', 'notice_io_add', 'notice_io_export'], ['administrator', 'admin']);
  const admin = (await h.login('000000', 'admin', 'admin')).access_token;
  for (const [i, title] of TITLES.entries()) {
    const res = await h.call('POST', `${PATH}/submit`, {
      token: admin, body: { title: title || `copy-blank-${i}`, category: (i % 3) + 1, releaseTime: `2024-06-0${(i % 2) + 1} 08:00:${String(i).padStart(2, '0')}`, content: `<p>${i}</p>` },
    });
    expect(res.status).toBe(200);
  }
  // a category no dictionary names (its label missing: the code is written); texts the API would have trimmed
  const db = h.server.ctx.db;
  await db.execute(sql`update blade_notice set category = 99 where title = ${'copy-blank-9'}`);
  await db.execute(sql`update blade_notice set title = ${'\t制表符开头'} where title = ${'制表符开头'}`);
  await db.execute(sql`update blade_notice set title = ${' 两端空格 '} where title = ${'两端空格'}`);
  await db.execute(sql`update blade_notice set content = '' where title = ${'-1+1'}`);
  // control characters XML does not allow (dropped in the .xlsx, kept in the CSV), and what XML escapes
  await db.execute(sql`update blade_notice set title = ${'ctl-\u0001<b>\u0008&"q"\u001F\uFFFE\uFFFF'} where title = ${'ctl-字符'}`);
  // batch devices: references to a live, a deleted and a missing row, a label and none, no MAC, no burn time
  const base = 7_400_000_000_000_000n;
  await db.execute(sql.raw(`insert into ymy_factory (id, factory_name, factory_code) values (${base}, 'copy 工厂', 'CPF')`));
  await db.execute(sql.raw(`insert into ymy_product (id, product_name, product_code, type_id, model_id, cloud_vendor, is_deleted)
    select ${base} + g, (array['智能门锁 X1', '指纹锁 "旗舰", 二代', '=已删除'])[g], 'CPP' || g, 1, 1, 1, (g = 3)::int from generate_series(1, 3) g`));
  await db.execute(sql.raw(`insert into ymy_station (id, factory_id, station_name, station_code, station_type)
    values (${base} + 1, ${base}, '一号工位', 'CPS1', 1)`));
  await db.execute(sql.raw(`insert into ymy_batch (id, batch_no, factory_id, product_id, cloud_vendor, quantity, sn_prefix, state)
    values (${base} + 1, 'CPB0001', ${base}, ${base} + 1, 1, 9, 'CP', 3)`));
  await db.execute(sql.raw(`insert into ymy_factory_device (id, sn, batch_id, product_id, mac, station_id, burn_time, test_result, owner_tenant_id)
    select ${base} + 100 + g, 'CP' || lpad(g::text, 6, '0'), case when g <> 9 then ${base} + 1 else ${base} + 77 end, ${base} + 1 + g % 3,
      case when g % 2 = 0 then upper(substr(md5(g::text), 1, 12)) end, case when g % 3 <> 0 then ${base} + 1 end,
      case when g % 4 <> 0 then timestamptz '2025-03-30 17:59:58+00' + g * interval '61 minutes' end,
      case when g % 5 <> 0 then g % 3 end, '000000'
    from generate_series(1, 9) g`));
  // region paths shown by name (a code the tree lacks, and one that is not a code, as they are)
  const paths = ['110000,110100,110101', '110000,999999', 'abc', '110000,,110100', '110000'];
  await db.execute(sql.raw(`insert into ymy_device_area (id, tenant_id, device_sn, code, source)
    select ${base} + 200 + g, '000000', 'CP' || lpad(g::text, 6, '0'), (array['${paths.join("','")}'])[g], 'manual' from generate_series(1, 5) g`));
  await db.execute(sql.raw(`insert into ymy_device_area_modify (id, tenant_id, device_sn, old_code, new_code, operator)
    select ${base} + 300 + g, '000000', 'CP' || lpad(g::text, 6, '0'), case when g > 1 then (array['${paths.join("','")}'])[g - 1] end, (array['${paths.join("','")}'])[g], 'op' from generate_series(1, 5) g`));
  await db.execute(sql.raw(`insert into ymy_device_area_warn (id, tenant_id, device_sn, dispatched_code, activated_code, location, activation_time)
    select ${base} + 400 + g, '000000', 'CP' || lpad(g::text, 6, '0'), (array['${paths.join("','")}'])[g], case when g < 5 then (array['${paths.join("','")}'])[g + 1] end, '杭州', now() from generate_series(1, 5) g`));
});

describe.runIf(onPostgres)('exports presented by PostgreSQL', () => {
  it('write what the row-by-row presenting writes, for every resource whose cells are all expressions', async () => {
    const exported = h.server.ctx.resources.all().filter((r) => r.def.io?.export);
    const byCopy: string[] = [];
    const byRows: string[] = [];
    for (const { def } of exported) {
      const m = mountOf(def.code);
      for (const user of def.scope === 'tenant' ? [platform, demo] : [platform]) {
        for (const lang of ['zh', 'en'] as const) {
          // small chunks (their boundaries are what a keyset walk gets wrong), fewer for the regions' thousands of rows
          const chunk = def.code === 'region' ? 700 : 4;
          const copied = await csvOf(m, user, lang, 'copy', chunk);
          const rows = await csvOf(m, user, lang, 'rows', 5000);
          expect(copied.text, `${def.code} as ${user.tenantId} in ${lang}: the CSV`).toBe(rows.text);
          const cells = await cellsOf(m, user, lang, 'copy', chunk - 1);
          expect(cells.rows, `${def.code} as ${user.tenantId} in ${lang}: the cells`).toEqual((await cellsOf(m, user, lang, 'rows', 5000)).rows);
          if (user === platform && lang === 'zh') (copied.strategy === 'copy' ? byCopy : byRows).push(`${def.code} (${rows.text.split('\r\n').length - 2} rows)`);
        }
      }
    }
    console.log(`exports by COPY: ${byCopy.join(', ')}\nrow by row: ${byRows.join(', ')}`);
    // the engine's own resources are presented by PostgreSQL (a resource with a `shown` hook is not)
    expect(byCopy.some((r) => r.startsWith('notice_io'))).toBe(true);
    expect(byCopy).toContain('factory_device (9 rows)');
    // a resource whose `shown` hook has its SQL (the regions by name) too
    expect(byCopy).toContain('area (5 rows)');
    expect(byCopy).toContain('area_modify_log (5 rows)');
    expect(byCopy).toContain('region_wrong_log (5 rows)');
    expect(byRows).toEqual([]);
  }, 180_000);

  it('writes the texts that need it quoted, defused and escaped, a missing label as its code', async () => {
    const m = mountOf('notice_io');
    const { text } = await csvOf(m, platform, 'zh', 'copy', 4);
    expect(text).toContain('"copy-通知, 带逗号和 ""引号"""');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""点我"")"`);
    expect(text).toContain("'+86 138 0000 0000");
    expect(text).toContain("'-1+1");
    expect(text).toContain('"第一行\n第二行\r\n第三行"');
    expect(text).toContain('back\\slash \\N');
    expect(text).toContain('Ünïcödé 😀 𠀀');
    expect(text.split('\r\n').find((l) => l.startsWith('copy-blank-9'))).toMatch(/,99,/);
    const { rows, bytes } = await cellsOf(m, platform, 'zh', 'copy', 4);
    const cells = rows.map((r) => r.cells);
    expect(cells.find((r) => r[0] === 'copy-blank-9')).toContain(99);
    expect(cells.find((r) => r[0] === '\t制表符开头')).toBeDefined();
    expect(cells.find((r) => r[0] === ' 两端空格 ')).toBeDefined();
    expect(cells.find((r) => r[0] === 'back\\slash \\N')).toBeDefined();
    expect(cells.find((r) => r[0] === '第一行\n第二行\r\n第三行')).toBeDefined();
    // characters XML does not allow are dropped; what XML escapes is escaped; spaces kept where they would be lost
    expect(cells.find((r) => r[0] === 'ctl-<b>&"q"')).toBeDefined();
    const { default: JSZip } = await import('jszip');
    const xml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string');
    expect(xml).toContain('<t>ctl-&lt;b&gt;&amp;&quot;q&quot;</t>');
    expect(xml).toContain('<t xml:space="preserve"> 两端空格 </t>');
    expect(xml).toContain('<t xml:space="preserve">\t制表符开头</t>');
    expect(xml).toContain('<t xml:space="preserve">第一行\n第二行&#13;\n第三行</t>');
    expect(xml).toContain('<t>Ünïcödé 😀 𠀀</t>');
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(text).toContain("'\t制表符开头");
  });

  it('keeps to the caller\'s tenant: another tenant\'s rows and its references\' names are not written', async () => {
    const m = mountOf('notice_io');
    const theirs = await csvOf(m, demo, 'zh', 'copy', 4);
    expect(theirs.strategy).toBe('copy');
    expect(theirs.text).not.toContain('copy-');
  });

  it('stops past the bound on the rows: refused before anything is sent, or the download cut', async () => {
    const m = mountOf('notice_io');
    const { cols, dynamic } = await exportSheetColumns(m, platform, {}, 'zh');
    const plan = (await exportCopyPlan(m, platform, cols, 'zh', dynamic))!;
    const keys = sortKeys(m.def, m.columns, undefined, undefined, 'zh');
    const where = async () => buildFilters(m.def, m.columns, { title: 'copy-' }, 'zh').conditions[0];
    // the check refuses (as the export's does when the count passes the bound): nothing is started
    await expect(startCopyExport(m, platform, plan, 'csv', where, keys, 1, async () => { throw new Error('over the bound'); })).rejects.toThrow('over the bound');
    // the check let it through (an estimate far off): the statement stops one row past the bound
    const copied = (await startCopyExport(m, platform, plan, 'csv', where, keys, 1, async () => undefined))!;
    const read = async () => {
      for await (const _ of copied.bytes()) { /* drained */ }
    };
    await expect(read()).rejects.toMatchObject({ key: 'exportTooManyRows' });
    await copied.close();
    // within it, every row
    const whole = (await startCopyExport(m, platform, plan, 'xml', where, keys, 100, async () => undefined))!;
    let text = '';
    for await (const b of whole.bytes()) text += b.toString('utf8');
    await whole.close();
    expect(text.match(/<row r="\d+">/g)).toEqual(['<row r="2">', '<row r="3">']);
  });

  it('writes a filter\'s values into the statement as quoted literals, and refuses a NUL', async () => {
    const m = mountOf('notice_io');
    const where = buildFilters(m.def, m.columns, { title: "x'); drop table blade_notice; --" }, 'zh').conditions[0]!;
    const text = inlined(sql`select 1 from ${m.table} where ${where} and ${m.columns.id!} = ${5} and ${m.columns.releaseTime!} < ${new Date('2024-01-01T00:00:00Z')}`)!;
    expect(text).toContain("'%x''); drop table blade\\_notice; --%'");
    expect(text).toContain("= '5'");
    expect(inlined(sql`select ${'a\0b'}`)).toBeUndefined();
    const rows = await h.server.ctx.db.execute(sql.raw(`select count(*)::int as n from (${text}) s`));
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });
});

describe('exports on the embedded database', () => {
  it.runIf(!onPostgres)('go row by row: no plan by COPY', async () => {
    const m = mountOf('notice_io');
    const { cols, dynamic } = await exportSheetColumns(m, platform, {}, 'zh');
    expect(await exportCopyPlan(m, platform, cols, 'zh', dynamic)).toBeUndefined();
    const { text, strategy } = await csvOf(m, platform, 'zh', 'copy', 4);
    expect(strategy).toBe('keyset');
    expect(text).toContain('copy-通知');
  });
});


