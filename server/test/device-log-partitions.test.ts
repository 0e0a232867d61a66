import { APP_API, PLATFORM_TENANT } from '@console/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldDeviceEvents } from '../src/areas/device/events.js';
import type { Uplink } from '../src/areas/device/gateway/types.js';
import { foldOtaReports } from '../src/areas/device/ota.js';
import { APP_LOG_RETENTION, deviceRetention, FACE_LOG_RETENTION, OTA_LOG_RETENTION, REPORT_TOKEN_DAYS } from '../src/areas/device/retention.js';
import { postsaleUser } from '../src/areas/postsale/tables.js';
import { attach } from '../src/areas/resource/tables.js';
import { param } from '../src/areas/system/tables.js';
import { hashPassword } from '../src/core/auth/index.js';
import { type Executor, inTenant, migrationsFolder } from '../src/core/db/index.js';
import { partitionsOf } from '../src/core/db/partitions/catalog.js';
import { addMonths, monthRange, monthStart } from '../src/core/db/partitions/months.js';
import { purgeRetained, type RetentionGroup } from '../src/core/db/partitions/retention.js';
import { nextId } from '../src/core/ids.js';
import { type Fleet, makeFleet } from './device-fixture.js';
import { md5, useServer } from './harness.js';
import { freshDatabase, migrationsBefore } from './migration-db.js';
import { multipart } from './multipart.js';

/**
 * The device area's logs partitioned by month (issue 29, migration 0038): the OTA log by report time, the face log
 * by event time, the app's logs by upload time. A resent report or event is still kept once across months (the
 * client tokens' own table), each log keeps its parameter's days with whole months dropped, and the app's logs go
 * with their stored files.
 */
type Row = Record<string, unknown>;
const h = useServer();
const DAY = 86_400_000;
const TENANT = '541742';
let admin: string;
let fleet: Fleet;

const rows = async <T>(query: SQL, ex: Executor = h.server.ctx.db) => ((await ex.execute(query)) as unknown as { rows: T[] }).rows;
const group = (name: string): RetentionGroup => deviceRetention(h.server.ctx).find((g) => g.name === name)!;
const setDays = (key: string, days: string) => h.server.ctx.db.update(param).set({ paramValue: days }).where(eq(param.paramKey, key));
const platform = <T>(fn: (tx: Executor) => Promise<T>) => inTenant(h.server.ctx.db, { tenantId: PLATFORM_TENANT }, fn);

function uplink(sn: string, method: string, token: string, at: Date, params: Record<string, unknown>): Uplink {
  return {
    device: { sn, productId: fleet.productId, cloudVendor: 1, cloudProductId: fleet.cloudProductId, deviceName: sn },
    kind: method === 'event_post' ? 'event' : 'ota', method, clientToken: token, timestamp: at.getTime(), params, receivedAt: at.getTime(),
  } as Uplink;
}

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, admin, { count: 3, tag: 'dlp' });
});

describe('device logs partitioned by month', () => {
  it('are partitioned tables with month partitions ahead and a default, under the tenants\' row-level security', async () => {
    const now = new Date();
    for (const table of ['ymy_ota_log', 'ymy_face_log', 'ymy_app_log']) {
      const { ranges, defaultName } = await partitionsOf(h.server.ctx.db, table);
      expect(defaultName).toBe(`${table}_default`);
      const names = ranges.map((r) => r.name);
      for (let m = -1; m <= 3; m++) expect(names).toContain(monthRange(table, addMonths(monthStart(now), m)).name);
    }
    const open = await rows<{ name: string }>(sql`select relname as name from pg_class where relname like 'ymy_app_log_%' and relkind = 'r' and not relrowsecurity`);
    expect(open).toEqual([]);
  });

  it('keeps a resent OTA report and face event once, though the resend falls in another month', async () => {
    const sn = fleet.devices[0]!.sn;
    const lastMonth = new Date(monthStart(new Date()).getTime() - 60_000);
    const thisMonth = new Date(monthStart(new Date()).getTime() + 60_000);
    const report = (at: Date) => uplink(sn, 'report_progress', 'ota-resent-1', at, { state: 'downloading', percent: 10 });
    const face = (at: Date) => uplink(sn, 'event_post', 'face-resent-1', at, { eventId: 'face', event: 'match', userId: 'u-1' });
    await platform((tx) => foldOtaReports(tx, [report(lastMonth)]));
    await platform((tx) => foldOtaReports(tx, [report(thisMonth), report(thisMonth)]));
    await platform((tx) => foldDeviceEvents(tx, [face(lastMonth), face(thisMonth)]));
    await platform((tx) => foldDeviceEvents(tx, [face(thisMonth)]));
    const ota = await rows<{ part: string }>(sql`select tableoid::regclass::text as part from ymy_ota_log where device_sn = ${sn} and client_token = 'ota-resent-1'`);
    const faces = await rows<{ part: string }>(sql`select tableoid::regclass::text as part from ymy_face_log where device_sn = ${sn} and client_token = 'face-resent-1'`);
    expect(ota.map((r) => r.part)).toEqual([monthRange('ymy_ota_log', monthStart(lastMonth)).name]);
    expect(faces.map((r) => r.part)).toEqual([monthRange('ymy_face_log', monthStart(lastMonth)).name]);
    // another device may use the same token: it is that device's message
    const other = fleet.devices[1]!.sn;
    await platform((tx) => foldDeviceEvents(tx, [uplink(other, 'event_post', 'face-resent-1', thisMonth, { eventId: 'face', event: 'enrol' })]));
    expect(await rows(sql`select 1 from ymy_face_log where device_sn = ${other} and client_token = 'face-resent-1'`)).toHaveLength(1);
  });

  it('lists the OTA and face logs through the API within the range the screen opens with, newest first', async () => {
    const sn = fleet.devices[2]!.sn;
    const now = Date.now();
    await platform((tx) => foldDeviceEvents(tx, [0, 1, 2].map((i) => uplink(sn, 'event_post', `list-${i}`, new Date(now - i * 60_000), { eventId: 'face', event: 'match', userId: `u-${i}` }))));
    const from = new Date(now - 7 * DAY).toISOString().slice(0, 10);
    const res = await h.call<{ records: Row[]; total: number }>('GET', '/api/omc-log/face/list', { token: admin, query: { deviceSn: sn, eventTime_datege: from, descs: 'eventTime' } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.records.map((r) => r.userId)).toEqual(['u-0', 'u-1', 'u-2']);
  });
});

describe('device logs kept to their retention', () => {
  it('drops whole months past each log\'s days, deletes the older rows left, and keeps the rest', async () => {
    const sn = fleet.devices[1]!.sn;
    const now = new Date();
    const ages = [10, 200, 400];
    // the month of the oldest rows has its partition (as it had when they were written), dropped by the OTA log's 365 days
    const old = monthStart(new Date(now.getTime() - 400 * DAY));
    await h.server.ctx.db.execute(sql.raw(`create table ${monthRange('ymy_ota_log', old).name} partition of ymy_ota_log for values from ('${old.toISOString()}') to ('${addMonths(old, 1).toISOString()}')`));
    for (const age of ages) {
      const at = new Date(now.getTime() - age * DAY);
      await h.server.ctx.db.execute(sql`insert into ymy_ota_log (id, device_sn, product_id, state, message, report_time) values (${nextId()}::bigint, ${sn}, ${fleet.productId}::bigint, 'notified', ${`age ${age}`}, ${at})`);
      await h.server.ctx.db.execute(sql`insert into ymy_face_log (id, device_sn, product_id, event, user_id, event_time) values (${nextId()}::bigint, ${sn}, ${fleet.productId}::bigint, 'match', ${`age ${age}`}, ${at})`);
    }

    const ota = await purgeRetained(h.server.ctx.db, group('OTA log'), { usePartman: false, now });
    const face = await purgeRetained(h.server.ctx.db, group('face log'), { usePartman: false, now });
    expect(ota.partitions[0]!.dropped).toContain(monthRange('ymy_ota_log', old).name);
    expect(ota.cutoff!.getTime()).toBe(now.getTime() - OTA_LOG_RETENTION.defaultDays * DAY);
    expect(face.cutoff!.getTime()).toBe(now.getTime() - FACE_LOG_RETENTION.defaultDays * DAY);
    const left = async (table: string, column: string) => (await rows<{ m: string }>(sql`select ${sql.identifier(column)} as m from ${sql.identifier(table)} where device_sn = ${sn} and ${sql.identifier(column)} like 'age %' order by 1`)).map((r) => r.m);
    expect(await left('ymy_ota_log', 'message')).toEqual(['age 10', 'age 200']);
    expect(await left('ymy_face_log', 'user_id')).toEqual(['age 10']);

    // 0 keeps them forever: nothing more goes
    await setDays(FACE_LOG_RETENTION.key, '0');
    try {
      const kept = await purgeRetained(h.server.ctx.db, group('face log'), { usePartman: false, now: new Date(now.getTime() + 1000 * DAY) });
      expect(kept.cutoff).toBeNull();
      expect(await left('ymy_face_log', 'user_id')).toEqual(['age 10']);
      // a number past any date is forever too, and one that is no number keeps the default
      await setDays(FACE_LOG_RETENTION.key, '1e300');
      expect((await purgeRetained(h.server.ctx.db, group('face log'), { usePartman: false, now })).cutoff).toBeNull();
      await setDays(FACE_LOG_RETENTION.key, 'soon');
      expect((await purgeRetained(h.server.ctx.db, group('face log'), { usePartman: false, now })).cutoff!.getTime()).toBe(now.getTime() - FACE_LOG_RETENTION.defaultDays * DAY);
    } finally {
      await setDays(FACE_LOG_RETENTION.key, String(FACE_LOG_RETENTION.defaultDays));
    }
  });

  it('forgets the client tokens after a week, with the OTA log\'s upkeep', async () => {
    const sn = fleet.devices[2]!.sn;
    const now = new Date();
    await platform((tx) => foldDeviceEvents(tx, [uplink(sn, 'event_post', 'week-old', now, { eventId: 'face', event: 'match' })]));
    const tokens = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from ymy_device_report_token where device_sn = ${sn} and client_token = 'week-old'`))[0]!.n;
    await purgeRetained(h.server.ctx.db, group('OTA log'), { usePartman: false, now: new Date(now.getTime() + (REPORT_TOKEN_DAYS - 1) * DAY) });
    expect(await tokens()).toBe(1);
    const result = await purgeRetained(h.server.ctx.db, group('OTA log'), { usePartman: false, now: new Date(now.getTime() + (REPORT_TOKEN_DAYS + 1) * DAY) });
    expect(await tokens()).toBe(0);
    expect(result.deleted.ymy_device_report_token).toBeGreaterThanOrEqual(1);
  });

  it('deletes the app\'s logs past their days with their stored files, in the tenant that uploaded them, and keeps the others', async () => {
    const phone = '13800009001';
    await inTenant(h.server.ctx.db, { tenantId: TENANT }, async (tx) => tx.insert(postsaleUser).values({ id: nextId(), tenantId: TENANT, phone, passwordHash: await hashPassword(md5('Lock#2026')), nickname: 'retention' }));
    const signIn = await h.call<{ accessToken: string }>('POST', APP_API.token, { body: { tenantId: TENANT, phone, password: md5('Lock#2026') }, noClient: true });
    expect(signIn.status, signIn.body.msg).toBe(200);
    const upload = async (text: string) => {
      const { payload, contentType } = multipart([{ name: 'appVersion', data: '3.0.0' }, { name: 'file', filename: 'app.log', type: 'text/plain', data: Buffer.from(text) }]);
      const res = await h.server.app.inject({ method: 'POST', url: APP_API.logUpload, payload, headers: { 'content-type': contentType, 'blade-auth': `bearer ${signIn.body.data.accessToken}` } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { id: string; logFile: string };
    };
    const stale = await upload('E/Lock: stale\n');
    const fresh = await upload('E/Lock: fresh\n');
    const now = new Date();
    // the stale one was uploaded 200 days ago: the update moves it to the partition of that month
    await h.server.ctx.db.execute(sql`update ymy_app_log set upload_time = ${new Date(now.getTime() - 200 * DAY)} where id = ${stale.id}::bigint`);
    const fetch = (link: string) => h.server.app.inject({ method: 'GET', url: link });
    expect((await fetch(stale.logFile)).statusCode).toBe(200);

    const result = await purgeRetained(h.server.ctx.db, group('app log'), { usePartman: false, now });
    expect(result.cutoff!.getTime()).toBe(now.getTime() - APP_LOG_RETENTION.defaultDays * DAY);
    expect(result.deleted.ymy_app_log).toBeGreaterThanOrEqual(1);
    const ids = (await rows<{ id: string }>(sql`select id::text from ymy_app_log where id in (${stale.id}::bigint, ${fresh.id}::bigint)`)).map((r) => r.id);
    expect(ids).toEqual([fresh.id]);
    // the stale file left the tenant's attachments (and quota) and the storage; the fresh one is still served
    expect((await fetch(stale.logFile)).statusCode).toBe(404);
    expect((await fetch(fresh.logFile)).statusCode).toBe(200);
    const attachments = await inTenant(h.server.ctx.db, { tenantId: TENANT }, (tx) => tx.select({ link: attach.link, isDeleted: attach.isDeleted }).from(attach));
    expect(attachments.filter((a) => a.link === stale.logFile).map((a) => a.isDeleted)).toEqual([1]);
    expect(attachments.filter((a) => a.link === fresh.logFile).map((a) => a.isDeleted)).toEqual([0]);
    // the console's list no longer shows it
    const tenantAdmin = (await h.login(TENANT, 'admin', 'admin')).access_token;
    const listed = await h.call<{ records: Row[] }>('GET', '/api/omc-log/app/list', { token: tenantAdmin, query: { phone } });
    expect(listed.body.data.records.map((r) => r.id)).toEqual([fresh.id]);
  });
});

describe('migration 0038 on a database with rows', () => {
  it('moves every log row into the partition of its month and keeps the resent tokens refused', async () => {
    const folder = await migrationsBefore('0038_');
    const db = await freshDatabase();
    try {
      await db.migrate(folder.dir);
      const now = new Date();
      const times = [now, new Date(now.getTime() - 40 * DAY), new Date(now.getTime() - 400 * DAY)];
      const at = (g: SQL) => sql`(array[${times[0]}::timestamptz, ${times[1]}::timestamptz, ${times[2]}::timestamptz])[1 + ${g} % 3]`;
      await db.exec(sql`insert into ymy_ota_log (id, device_sn, product_id, state, client_token, report_time)
        select 1000 + g, 'SN' || (g % 4), 1, 'notified', case when g % 2 = 0 then 'tok' || g end, ${at(sql`g`)} from generate_series(1, 30) g`);
      await db.exec(sql`insert into ymy_face_log (id, device_sn, product_id, event, client_token, event_time)
        select 2000 + g, 'SN' || (g % 4), 1, 'match', case when g % 2 = 1 then 'tok' || g end, ${at(sql`g`)} from generate_series(1, 30) g`);
      await db.exec(sql`insert into ymy_app_log (id, tenant_id, phone, log_file, upload_time)
        select 3000 + g, '541742', '138' || g, '/files/x' || g, ${at(sql`g`)} from generate_series(1, 30) g`);
      const read = async (table: string, key: string) => (await db.exec(sql`select id::text, ${sql.identifier(key)} as at, tableoid::regclass::text as part from ${sql.identifier(table)} order by id`) as unknown as { rows: Array<{ id: string; at: Date | string; part: string }> }).rows;
      const tables = [['ymy_ota_log', 'report_time'], ['ymy_face_log', 'event_time'], ['ymy_app_log', 'upload_time']] as const;
      const earlier = await Promise.all(tables.map(([t, k]) => read(t, k)));

      await db.migrate(migrationsFolder());

      for (const [i, [table, key]] of tables.entries()) {
        const after = await read(table, key);
        expect(after.map((r) => [r.id, new Date(r.at).getTime()])).toEqual(earlier[i]!.map((r) => [r.id, new Date(r.at).getTime()]));
        for (const r of after) expect(r.part).toBe(monthRange(table, monthStart(new Date(r.at))).name);
      }
      const tokens = (await db.exec(sql`select kind, count(*)::int as n from ymy_device_report_token group by kind order by kind`) as unknown as { rows: Array<{ kind: string; n: number }> }).rows;
      expect(tokens).toEqual([{ kind: 'face', n: 15 }, { kind: 'ota', n: 15 }]);
      // a token moved over is still refused
      const again = (await db.exec(sql`insert into ymy_device_report_token (kind, device_sn, client_token) values ('ota', 'SN2', 'tok2') on conflict do nothing returning 1`) as unknown as { rows: unknown[] }).rows;
      expect(again).toEqual([]);
    } finally {
      await db.close();
      await folder.dispose();
    }
  }, 120_000);
});
