import { defineResource, type Page } from '@console/contract';
import { logApiResource } from '@console/contract/areas/monitor/index';
import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOG_PARTITIONS, LOG_RETENTION_PARAM, purgeLogs } from '../src/areas/monitor/retention.js';
import { param } from '../src/areas/system/tables.js';
import { type Executor, inTenant, migrationsFolder, schema } from '../src/core/db/index.js';
import { partitionsOf } from '../src/core/db/partitions/catalog.js';
import { maintainTimePartitions } from '../src/core/db/partitions/maintain.js';
import { addMonths, monthRange, monthStart, PREMAKE_MONTHS } from '../src/core/db/partitions/months.js';
import { nextId } from '../src/core/ids.js';
import type { ColumnMap } from '../src/core/resource/filters.js';
import { buildFilters } from '../src/core/resource/filters.js';
import { formatDateTime, parseDateTime } from '../src/core/time.js';
import { withDatabase } from './db-template.js';
import { freshDatabase, migrationsBefore } from './migration-db.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';
import { bind } from '../src/areas/index.js';
import ExcelJS from 'exceljs';

/** the API log with an export, as a definition declaring one would have it */
const exportedLog = defineResource({ ...logApiResource, code: 'log_api_io', path: '/api/blade-log/api-io', menu: undefined, io: { export: {} } });
const h = useServer({}, {}, { extraResources: [bind(exportedLog, schema.logApi)] });
const onPostgres = Boolean(process.env.DATABASE_URL);
const DEMO = '541742';
const PLATFORM = '000000';
const DAY = 86_400_000;
const LOGS = [
  { table: 'blade_log_usual', kind: 'usual', drizzle: schema.logUsual },
  { table: 'blade_log_api', kind: 'api', drizzle: schema.logApi },
  { table: 'blade_log_error', kind: 'error', drizzle: schema.logError },
] as const;
type Log = { id: string; requestUri: string; createTime: string };

let demo: string;
beforeAll(async () => {
  demo = (await h.login(DEMO, 'admin', 'admin')).access_token;
});

const rows = async <T>(ex: Executor, query: SQL) => ((await ex.execute(query)) as unknown as { rows: T[] }).rows;
const asOwner = <T>(query: SQL) => rows<T>(h.server.ctx.db, query);
const setRetention = (days: string) => h.server.ctx.db.update(param).set({ paramValue: days }).where(eq(param.paramKey, LOG_RETENTION_PARAM));

/** rows of every log, in a tenant, at these times, their request URI tagged */
async function seed(tenantId: string, tag: string, times: Date[]): Promise<string[]> {
  const ids: string[] = [];
  await inTenant(h.server.ctx.db, { tenantId }, async (tx) => {
    for (const createTime of times) {
      const id = nextId();
      ids.push(id);
      const row = { id, tenantId, requestUri: `/partitions/${tag}`, createTime };
      for (const log of LOGS) await tx.insert(log.drizzle).values(row);
    }
  });
  return ids;
}

async function partitionOf(table: string, id: string): Promise<string> {
  const [row] = await asOwner<{ part: string }>(sql`select tableoid::regclass::text as part from ${sql.identifier(table)} where id = ${id}`);
  return row!.part;
}

const monthName = (table: string, at: Date) => monthRange(table, monthStart(at)).name;

/** a purge again while the server's own (hourly, and 10 s after its start) holds a table */
async function untilDone(purge: () => ReturnType<typeof purgeLogs>): ReturnType<typeof purgeLogs> {
  for (let i = 0; ; i++) {
    const result = await purge();
    expect(result.partitions.filter((p) => p.error)).toEqual([]);
    if (i === 20 || result.partitions.every((p) => !p.busy)) return result;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the logs are partitioned by month', () => {
  it('each log is a table partitioned by range of create_time, its primary key (id, create_time), the previous month to three ahead made', async () => {
    const now = new Date();
    for (const { table } of LOGS) {
      const [parted] = await asOwner<{ strategy: string; key: string }>(sql`
        select p.partstrat as strategy, a.attname as key from pg_partitioned_table p
        join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0] where p.partrelid = ${table}::regclass`);
      expect(parted).toEqual({ strategy: 'r', key: 'create_time' });
      const [pk] = await asOwner<{ def: string }>(sql`select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = ${table}::regclass and contype = 'p'`);
      expect(pk!.def).toBe('PRIMARY KEY (id, create_time)');
      const { ranges, defaultName } = await partitionsOf(h.server.ctx.db, table);
      expect(defaultName).toBe(`${table}_default`);
      const names = ranges.map((r) => r.name);
      for (let i = -1; i <= PREMAKE_MONTHS; i++) expect(names).toContain(monthRange(table, addMonths(monthStart(now), i)).name);
      const inherits = await asOwner<{ n: number | string }>(sql`select count(*) as n from pg_inherits where inhparent = ${table}::regclass`);
      expect(Number(inherits[0]!.n)).toBe(ranges.length + 1);
      // the hand-written BRIN index of the dashboard's counts is still there
      if (table !== 'blade_log_usual') {
        const brin = await asOwner<{ name: string }>(sql`select indexrelid::regclass::text as name from pg_index where indrelid = ${table}::regclass`);
        expect(brin.map((b) => b.name)).toContain(table.replace('blade_', 'brin_') + '_time');
      }
    }
  });

  it('puts each row in the partition of its month; a time outside every month waits in the default partition', async () => {
    const now = new Date();
    const [current, ahead, far] = await seed(DEMO, 'landing', [now, addMonths(monthStart(now), 2), new Date(now.getTime() + 800 * DAY)]);
    for (const { table } of LOGS) {
      expect(await partitionOf(table, current!)).toBe(monthName(table, now));
      expect(await partitionOf(table, ahead!)).toBe(monthName(table, addMonths(monthStart(now), 2)));
      expect(await partitionOf(table, far!)).toBe(`${table}_default`);
    }
  });

  it('keeps the tenants apart through the partitioned table and on each partition', async () => {
    await seed(PLATFORM, 'platform-only', [new Date()]);
    await inTenant(h.server.ctx.db, { tenantId: DEMO }, async (tx) => {
      for (const { table } of LOGS) {
        const seen = await rows<{ n: number | string }>(tx, sql`select count(*) as n from ${sql.identifier(table)} where request_uri = '/partitions/platform-only'`);
        expect(Number(seen[0]!.n)).toBe(0);
        const direct = await rows<{ n: number | string }>(tx, sql`select count(*) as n from ${sql.identifier(monthName(table, new Date()))} where tenant_id <> ${DEMO}`);
        expect(Number(direct[0]!.n)).toBe(0);
      }
    });
    const foreign = inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.insert(schema.logApi).values({ id: nextId(), tenantId: PLATFORM, requestUri: '/partitions/foreign' }));
    await expect(foreign).rejects.toThrow();
    const secured = await asOwner<{ name: string; rls: boolean }>(sql`
      select c.relname as name, c.relrowsecurity as rls from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent in ('blade_log_usual'::regclass, 'blade_log_api'::regclass, 'blade_log_error'::regclass)`);
    expect(secured.filter((s) => !s.rls)).toEqual([]);
  });
});

describe('lists read the recent partitions', () => {
  it('lists each log through the API: every row newest first when no time is asked (as BladeX), the time asked otherwise', async () => {
    const now = Date.now();
    const [recent, weekOld] = await seed(DEMO, 'listed', [new Date(now - 3600_000), new Date(now - 10 * DAY)]);
    const since = new Date(now - 30 * DAY).toISOString().slice(0, 10);
    for (const { kind } of LOGS) {
      const list = (query: Record<string, string>) => h.call<Page<Log>>('GET', `/api/blade-log/${kind}/list`, { token: demo, query: { requestUri: '/partitions/listed', ...query } });
      const opened = await list({});
      expect(opened.status).toBe(200);
      expect(opened.body.data.records.map((r) => r.id)).toEqual([recent, weekOld]);
      const week = await list({ createTime_datege: new Date(now - 7 * DAY).toISOString().slice(0, 10) });
      expect(week.body.data.records.map((r) => r.id)).toEqual([recent]);
      expect(week.body.data.total).toBe(1);
      const asked = await list({ createTime_datege: since });
      expect(asked.body.data.records.map((r) => r.id)).toEqual([recent, weekOld]);
      const detail = await h.call<Log>('GET', `/api/blade-log/${kind}/detail`, { token: demo, query: { id: weekOld! } });
      expect(detail.body.data.id).toBe(weekOld);
    }
  });

  it('exports the rows the list shows: the range asked, or every row', async () => {
    await grantCodes(h.server, ['log_api_io', 'log_api_io_export'], ['admin']);
    const sheet = async (query: Record<string, string>) => {
      const res = await h.server.app.inject({
        method: 'GET', url: '/api/blade-log/api-io/export', query: { requestUri: '/partitions/listed', ...query }, headers: { authorization: BASIC, 'blade-auth': `bearer ${demo}` },
      });
      expect(res.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return book.worksheets[0]!.rowCount - 1; // the header
    };
    expect(await sheet({ createTime_datege: new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10) })).toBe(1);
    expect(await sheet({})).toBe(2);
  });

  it('plans the list as the console opens it (its week\'s range) over those partitions alone (no older month, none ahead, not the default)', async () => {
    // rows two months back get that month's partition (filed out of the default partition by the maintenance)
    await seed(DEMO, 'two-months-back', [addMonths(new Date(), -2)]);
    await untilDone(() => purgeLogs(h.server.ctx.db));
    const now = new Date();
    const { ranges } = await partitionsOf(h.server.ctx.db, 'blade_log_api');
    expect(ranges.map((r) => r.name)).toContain(monthName('blade_log_api', addMonths(now, -2)));
    // the range the console's search form opens with (web/src/resource/columns.tsx): whole days of the display zone
    const day = (d: Date) => formatDateTime(d)!.slice(0, 10);
    const from = `${day(new Date(now.getTime() - 6 * DAY))} 00:00:00`;
    const to = `${day(now)} 23:59:59`;
    const [lo, hi] = [parseDateTime(from)!.getTime(), parseDateTime(to)!.getTime()];
    const expected = ranges.filter((r) => r.to.getTime() > lo && r.from.getTime() <= hi).map((r) => r.name).sort();
    expect(expected.length).toBeGreaterThanOrEqual(1);
    expect(expected.length).toBeLessThanOrEqual(2);

    const t = schema.logApi;
    const window = and(...buildFilters(logApiResource, getTableColumns(t) as ColumnMap, { createTime_datege: from, createTime_datele: to }, 'zh').conditions)!;
    const relations = (plan: unknown): string[] => {
      const found: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (typeof node['Relation Name'] === 'string') found.push(node['Relation Name']);
        for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
      };
      const raw = (plan as Array<Record<string, unknown>>)[0]!['QUERY PLAN'];
      walk((typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan);
      return [...new Set(found)].sort();
    };
    await inTenant(h.server.ctx.db, { tenantId: DEMO }, async (tx) => {
      const page = tx.select({ id: t.id }).from(t).where(window).orderBy(desc(t.createTime), desc(t.id)).limit(10);
      expect(relations(await rows(tx, sql`explain (format json) ${page}`))).toEqual(expected);
      const count = sql`select count(*) from (select 1 from ${t} where ${window} limit 10001) s`;
      expect(relations(await rows(tx, sql`explain (format json) ${count}`))).toEqual(expected);
    });
  });
});

describe('retention drops whole months', () => {
  const managers = onPostgres ? [undefined, false] as const : [undefined] as const;

  it.each(managers)('drops the months wholly past the retention and nothing else (pg_partman: %s)', async (usePartman) => {
    const now = new Date();
    // ended well before the cutoff of 90 days, whatever the day of the month
    const fiveBack = addMonths(monthStart(now), -6);
    const fourBack = addMonths(monthStart(now), -5);
    await setRetention('0');
    try {
      await seed(DEMO, 'old-months', [new Date(fiveBack.getTime() + DAY), new Date(fourBack.getTime() + 2 * DAY)]);
      const kept = await seed(DEMO, 'kept', [new Date(now.getTime() - 20 * DAY), now]);
      await untilDone(() => purgeLogs(h.server.ctx.db, { usePartman }));
      const before = new Map<string, string[]>();
      for (const { table } of LOGS) {
        const names = (await partitionsOf(h.server.ctx.db, table)).ranges.map((r) => r.name);
        expect(names).toEqual(expect.arrayContaining([monthRange(table, fiveBack).name, monthRange(table, fourBack).name]));
        before.set(table, names);
      }

      await setRetention('90');
      const result = await untilDone(() => purgeLogs(h.server.ctx.db, { usePartman }));
      expect(result.partitions.every((p) => !p.error && !p.busy)).toBe(true);
      for (const { table } of LOGS) {
        const after = (await partitionsOf(h.server.ctx.db, table)).ranges.map((r) => r.name);
        const cutoff = now.getTime() - 90 * DAY;
        const old = before.get(table)!.filter((n) => !after.includes(n));
        // exactly the months that ended before the cutoff went
        const { ranges: left } = await partitionsOf(h.server.ctx.db, table);
        expect(left.every((r) => r.to.getTime() > cutoff)).toBe(true);
        expect(old).toEqual(expect.arrayContaining([monthRange(table, fiveBack).name, monthRange(table, fourBack).name]));
        expect(after).toEqual(expect.arrayContaining(before.get(table)!.filter((n) => !old.includes(n))));
        const [counts] = await asOwner<{ old: number | string; kept: number | string }>(sql`
          select count(*) filter (where request_uri = '/partitions/old-months') as old,
                 count(*) filter (where id in (${sql.join(kept.map((id) => sql`${id}`), sql`, `)})) as kept
          from ${sql.identifier(table)}`);
        expect(Number(counts!.old)).toBe(0);
        expect(Number(counts!.kept)).toBe(2);
      }
      if (onPostgres && usePartman === undefined) {
        expect(result.partitions.map((p) => p.manager)).toEqual(['pg_partman', 'pg_partman', 'pg_partman']);
        const configured = await asOwner<{ parent: string; retention: string | null }>(sql`select parent_table as parent, retention from partman.part_config order by 1`);
        expect(configured).toEqual(LOGS.map((l) => ({ parent: `public.${l.table}`, retention: '90 days' })).sort((a, b) => a.parent.localeCompare(b.parent)));
      } else {
        expect(result.partitions.map((p) => p.manager)).toEqual(['server', 'server', 'server']);
      }
    } finally {
      await setRetention('90');
    }
  });

  it('makes the months ahead of a later date, and fills the default partition\'s rows of a month into it', async () => {
    const later = addMonths(monthStart(new Date()), 7);
    const [stray] = await seed(DEMO, 'stray', [new Date(later.getTime() + 5 * DAY)]);
    for (const { table } of LOGS) expect(await partitionOf(table, stray!)).toBe(`${table}_default`);
    const done = await maintainTimePartitions(h.server.ctx.db, LOG_PARTITIONS, { retentionDays: null, now: later, usePartman: false });
    for (const [i, { table }] of LOGS.entries()) {
      expect(done[i]).toMatchObject({ table, manager: 'server', filed: 1 });
      const names = (await partitionsOf(h.server.ctx.db, table)).ranges.map((r) => r.name);
      for (let m = 0; m <= PREMAKE_MONTHS; m++) expect(names).toContain(monthRange(table, addMonths(later, m)).name);
      expect(await partitionOf(table, stray!)).toBe(monthRange(table, later).name);
    }
    // what was made is under the tenants' row-level security at once
    const open = await asOwner<{ name: string }>(sql`select relname as name from pg_class where relname like 'blade_log_%_p%' and relkind = 'r' and not relrowsecurity`);
    expect(open).toEqual([]);
  });

  it.skipIf(!onPostgres)('leaves a table another instance is maintaining', async () => {
    const holder = new pg.Client({ connectionString: await testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query(`select pg_advisory_lock(72707002, hashtext('blade_log_api'))`);
      const done = await maintainTimePartitions(h.server.ctx.db, LOG_PARTITIONS, { retentionDays: 90 });
      expect(done.map((d) => [d.table, d.busy ?? false])).toEqual([['blade_log_usual', false], ['blade_log_api', true], ['blade_log_error', false]]);
    } finally {
      await holder.end();
    }
  });
});

/** this file's database (a copy of the template) */
async function testDatabaseUrl(): Promise<string> {
  const [row] = await asOwner<{ name: string }>(sql`select current_database() as name`);
  return withDatabase(process.env.DATABASE_URL!, row!.name);
}

describe('migration 0036 on a database with rows', () => {
  it('keeps every row, in the partition of its month, with its search grams computed again', async () => {
    const folder = await migrationsBefore('0036_');
    const db = await freshDatabase();
    try {
      await db.migrate(folder.dir);
      const now = new Date();
      const times = [now, new Date(now.getTime() - 40 * DAY), new Date(now.getTime() - 400 * DAY)];
      for (const { table } of LOGS) {
        await db.exec(sql`insert into ${sql.identifier(table)} (id, tenant_id, request_uri, create_time)
          select ${table === 'blade_log_api' ? 1000 : 2000} + g, '541742', '/migrated/' || g, (array[${times[0]}::timestamptz, ${times[1]}::timestamptz, ${times[2]}::timestamptz])[1 + g % 3]
          from generate_series(1, 30) g`);
      }
      const read = async (table: string) => (await db.exec(sql`select id::text, create_time, request_uri_grams, tableoid::regclass::text as part from ${sql.identifier(table)} order by id`) as unknown as { rows: Array<{ id: string; create_time: Date | string; request_uri_grams: string[]; part: string }> }).rows;
      const earlier = await Promise.all(LOGS.map((l) => read(l.table)));

      await db.migrate(migrationsFolder());

      for (const [i, { table }] of LOGS.entries()) {
        const now36 = await read(table);
        expect(now36.map((r) => [r.id, new Date(r.create_time).getTime(), r.request_uri_grams]))
          .toEqual(earlier[i]!.map((r) => [r.id, new Date(r.create_time).getTime(), r.request_uri_grams]));
        for (const r of now36) expect(r.part).toBe(monthName(table, new Date(r.create_time)));
        const made = (await db.exec(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass order by 1`) as unknown as { rows: Array<{ name: string }> }).rows.map((r) => r.name);
        // the months holding rows, the previous month to three ahead, and the default partition
        const months = [...new Set([...times.map((d) => monthName(table, d)), ...Array.from({ length: PREMAKE_MONTHS + 2 }, (_, m) => monthRange(table, addMonths(monthStart(now), m - 1)).name)])];
        expect(made).toEqual([...months, `${table}_default`].sort());
      }
    } finally {
      await db.close();
      await folder.dispose();
    }
  }, 120_000);
});
