import type { Lang } from '@console/contract';
import { sql } from 'drizzle-orm';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/core/context.js';
import { buildFilters, sortKeys } from '../src/core/resource/filters.js';
import { CsvSheetWriter } from '../src/core/resource/io/csvWriter.js';
import { type CopySource, exportSheetColumns, openExport, type RowSource, writeExport } from '../src/core/resource/io/export.js';
import { exportCopyPlan, inlined, startCopyExport, unescapeCopyText } from '../src/core/resource/io/exportCopy.js';
import type { SheetWriter, XlsxValue } from '../src/core/resource/io/xlsxWriter.js';
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
];

/** every row a sheet writer is given, as values */
class Recorder implements SheetWriter {
  readonly rows: XlsxValue[][] = [];
  full = false;
  row(values: readonly XlsxValue[]): void {
    // an empty text and nothing are the same empty cell in the .xlsx
    this.rows.push(values.map((v) => (v === '' ? null : v)));
  }
  async flush(): Promise<void> {}
  async addRows(rows: ReadonlyArray<readonly XlsxValue[]>): Promise<void> {
    for (const r of rows) this.row(r);
  }
  async finish(): Promise<void> {}
}

const mountOf = (code: string): ResourceMount => engineMount(h.server.ctx.resources.get(code))!;

/** the export of `m` (every row, default order) through `sheet`, by COPY or row by row */
async function run(m: ResourceMount, user: AuthUser, lang: Lang, sheet: SheetWriter, out: PassThrough, via: 'copy' | 'rows', format: 'csv' | 'text', chunk: number) {
  const built = buildFilters(m.def, m.columns, {}, lang);
  const keys = sortKeys(m.def, m.columns, undefined, undefined, lang);
  const { cols, wanted, dynamic } = await exportSheetColumns(m, user, {}, lang);
  const plan = via === 'copy' ? await exportCopyPlan(m, user, cols, lang, dynamic) : undefined;
  const source: RowSource | CopySource = await openExport(m, user, { built, keys, wanted, lang }, { chunk, strategy: 'keyset', ...(plan ? { copy: { plan, format } } : {}) });
  await writeExport(m, sheet, out, user, lang, source, cols, wanted);
  return { plan, source };
}

async function csvOf(m: ResourceMount, user: AuthUser, lang: Lang, via: 'copy' | 'rows', chunk: number) {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const { source } = await run(m, user, lang, new CsvSheetWriter(out), out, via, 'csv', chunk);
  return { text: Buffer.concat(parts).toString('utf8'), strategy: source.strategy };
}

async function cellsOf(m: ResourceMount, user: AuthUser, lang: Lang, via: 'copy' | 'rows', chunk: number) {
  const sheet = new Recorder();
  const { source } = await run(m, user, lang, sheet, new PassThrough(), via, 'text', chunk);
  return { rows: sheet.rows, strategy: source.strategy };
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
    const { rows } = await cellsOf(m, platform, 'zh', 'copy', 4);
    const blank = rows.find((r) => r[0] === 'copy-blank-9')!;
    expect(blank).toContain(99);
    expect(rows.find((r) => r[0] === '\t制表符开头')).toBeDefined();
    expect(rows.find((r) => r[0] === ' 两端空格 ')).toBeDefined();
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
    const whole = (await startCopyExport(m, platform, plan, 'text', where, keys, 100, async () => undefined))!;
    let lines = 0;
    for await (const b of whole.bytes()) lines += b.toString('utf8').split('\n').length - 1;
    await whole.close();
    expect(lines).toBe(2);
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

  it('reads COPY\'s text format back', () => {
    expect(unescapeCopyText('\\N')).toBeNull();
    expect(unescapeCopyText('a\\tb\\nc\\\\d\\re')).toBe('a\tb\nc\\d\re');
    expect(unescapeCopyText('plain')).toBe('plain');
  });
});


