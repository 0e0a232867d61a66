import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { crudPaths, type Page } from '@console/contract';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceUnlockSecret } from '../src/areas/production/index.js';
import { areaResources } from '../src/areas/index.js';
import { type Fleet, makeFleet } from './device-fixture.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/**
 * Emergency codes on a real lock (issue 23 item 4): the lock's secret reaches it only through a burn station's
 * bundle (a station key, devices of the station's factory, audited), the lock checks codes with the algorithm of
 * docs/device-protocol.md §10 (implemented below from that text alone, as firmware would), and no console
 * answer carries the secret.
 */

// ---------------------------------------------------------------------------------------------------------
// The lock's verifier, written from docs/device-protocol.md §10.3 (it does not import the server's code).
// ---------------------------------------------------------------------------------------------------------
const HOUR = 3_600_000;
const TOL = 300_000;
/** §10.2: the window in hours by kind digit; 0 has none */
const WINDOW_HOURS = [0, 24, 1, 2, 4, 8, 24, 48, 72, 168] as const;

type LockVerdict = 'accept' | 'malformed' | 'invalid' | 'not yet' | 'expired' | 'used';

/** §10.3 steps 3–4: the six MAC digits of a window */
function macDigits(secret: Uint8Array, kind: number, start: number, hours: number): string {
  const mac = createHmac('sha256', secret).update(Buffer.from(`EU1|${kind}|${start}|${hours}`, 'ascii')).digest();
  const offset = mac[31]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 1_000_000).padStart(6, '0');
}

const sameDigits = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

interface LockMemory {
  /** accepted one-time codes and the time (ms) until which the lock keeps them */
  used: Map<string, number>;
}

function lockCheck(secret: Uint8Array, typed: string, now: number, memory: LockMemory = { used: new Map() }): LockVerdict {
  // step 1
  if (!/^[0-9]{10}$/.test(typed)) return 'malformed';
  const kind = typed.charCodeAt(0) - 48;
  if (kind === 0) return 'malformed';
  const hours = WINDOW_HOURS[kind]!;
  // step 2
  const s = Number(typed.slice(1, 4));
  const latest = Math.floor((now + TOL) / HOUR);
  const start = latest - ((((latest - s) % 1000) + 1000) % 1000);
  // steps 3–5
  if (!sameDigits(macDigits(secret, kind, start, hours), typed.slice(4))) {
    return sameDigits(macDigits(secret, kind, start + 1000, hours), typed.slice(4)) ? 'not yet' : 'invalid';
  }
  // step 6
  const end = (start + hours) * HOUR;
  if (now - TOL >= end) return 'expired';
  // step 7
  for (const [code, until] of memory.used) if (until <= now) memory.used.delete(code);
  if (kind === 1) {
    if (memory.used.has(typed)) return 'used';
    memory.used.set(typed, end + TOL);
  }
  return 'accept';
}

// ---------------------------------------------------------------------------------------------------------
// The document's vectors (§10.7), read from the document itself.
// ---------------------------------------------------------------------------------------------------------
const doc = readFileSync(new URL('../../docs/device-protocol.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('### 10.7'));
const utc = (text: string) => Date.parse(`${text.trim().replace(' ', 'T')}${text.trim().length === 16 ? ':00' : ''}Z`);

function docSecret(lock: 'A' | 'B'): Buffer {
  const m = new RegExp(`Lock ${lock}'s secret is [^\\n]*\\n?[^\\n]*?\\(hex \`([0-9a-f]{64})\`\\)`).exec(section);
  if (!m) throw new Error(`docs/device-protocol.md §10.7: no secret of lock ${lock}`);
  return Buffer.from(m[1]!, 'hex');
}

describe('the lock\'s verifier, from docs/device-protocol.md §10 alone', () => {
  it('reproduces the worked example byte for byte', () => {
    const a = docSecret('A');
    expect(a).toEqual(Buffer.from(Array.from({ length: 32 }, (_, i) => i)));
    expect(docSecret('B')).toEqual(Buffer.from(Array.from({ length: 32 }, (_, i) => 0xff - i)));
    const mac = /`mac` = `([0-9a-f]{64})`/.exec(section)?.[1];
    expect(mac).toBe(createHmac('sha256', a).update('EU1|2|498842|1').digest('hex'));
    expect(section).toContain('`bin` = 740299083');
    expect(macDigits(a, 2, 498842, 1)).toBe('299083');
  });

  it('issues every code of the table for its message and window', () => {
    const a = docSecret('A');
    const rows = [...section.matchAll(/^\| (\d) \| (\d{4}-\d\d-\d\d \d\d:\d\d) \| `(.+?)` \| `(\d{10})` \| (.+?) \|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for (const [, k, issued, message, code] of rows) {
      const kind = Number(k);
      const start = Math.floor(utc(issued!) / HOUR);
      expect(message!.replaceAll('\\|', '|')).toBe(`EU1|${kind}|${start}|${WINDOW_HOURS[kind]}`);
      expect(code).toBe(`${kind}${String(start % 1000).padStart(3, '0')}${macDigits(a, kind, start, WINDOW_HOURS[kind]!)}`);
      expect(lockCheck(a, code!, utc(issued!)), code).toBe('accept');
    }
  });

  it('answers every verdict of the table: accepted, expired, not yet, another lock\'s, reused one-time, malformed', () => {
    const secrets = { A: docSecret('A'), B: docSecret('B') };
    const rows = [...section.matchAll(/^\| ([AB]) \| `(\d+)` \| (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \| (?:`(\d{10})`)? *\| (.+?) \|$/gm)];
    expect(rows.length).toBe(17);
    const seen = new Set<string>();
    for (const [, lock, typed, clock, used, verdict] of rows) {
      const now = utc(clock!);
      const memory: LockMemory = { used: new Map(used ? [[used, now + 24 * HOUR]] : []) };
      const expected = (['accept', 'expired', 'not yet', 'used', 'invalid', 'malformed'] as const).find((v) => verdict!.startsWith(v))!;
      seen.add(expected);
      expect(lockCheck(secrets[lock as 'A' | 'B'], typed!, now, memory), `${lock} ${typed} ${clock}`).toBe(expected);
    }
    expect([...seen].sort()).toEqual(['accept', 'expired', 'invalid', 'malformed', 'not yet', 'used']);
  });

  it('refuses a one-time code the second time, until its window ends', () => {
    const a = docSecret('A');
    const memory: LockMemory = { used: new Map() };
    const noon = utc('2026-11-28 12:00:00');
    expect(lockCheck(a, '1842040409', noon, memory)).toBe('accept');
    expect(memory.used.get('1842040409')).toBe(utc('2026-11-29 02:05:00'));
    expect(lockCheck(a, '1842040409', noon + HOUR, memory)).toBe('used');
    // timed codes open again and again
    expect(lockCheck(a, '6842539528', noon, memory)).toBe('accept');
    expect(lockCheck(a, '6842539528', noon + 1, memory)).toBe('accept');
  });
});

// ---------------------------------------------------------------------------------------------------------
// The station channel, and codes issued over HTTP checked by the lock's verifier.
// ---------------------------------------------------------------------------------------------------------
type Row = Record<string, unknown> & { id: string };
const IPC = '/sc/ymy-ipc/back';
const BURN = '/sc/ymy-ipc/station/burn-bundle';
const UNLOCK = '/api/omc-device/emergency-unlock';
const CODE = '/api/omc-device/emergency-code';
const EMERGENCY_CODES = ['emergency_unlock', 'emergency_unlock_add', 'emergency_unlock_view', 'emergency_approve', 'emergency_generate'];

const h = useServer();
let admin: string;
let approver: string;
let fleet: Fleet;
let foreign: Fleet;
let burnStation: { id: string; code: string; key: string };
let testStation: { id: string; code: string; key: string };
const rows = async <T>(q: ReturnType<typeof sql>) => ((await h.server.ctx.db.execute(q)) as unknown as { rows: T[] }).rows;

interface Bundle {
  sn: string; batchNo: string; cloudVendor: number; cloudProductId: string; deviceName: string;
  deviceSecret: string | null; certificate: string | null; privateKey: string | null; emergencySecret: string; emergencyScheme: string; burnTime: string;
}

async function burn(auth: string | undefined, sn: unknown, lang: 'zh' | 'en' = 'zh') {
  const res = await h.server.app.inject({
    method: 'POST', url: BURN, payload: JSON.stringify({ sn }),
    headers: { 'content-type': 'application/json', 'accept-language': lang, ...(auth === undefined ? {} : { authorization: auth }) },
  });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: Bundle & Record<string, string> }, headers: res.headers };
}
const stationAuth = (s: { code: string; key: string }) => `Station ${s.code}:${s.key}`;

async function station(factoryId: string, code: string, stationType: number) {
  const made = await h.call<Row>('POST', `${IPC}/add-station`, { token: admin, body: { factoryId, stationName: `工位${code}`, stationCode: code, stationType } });
  expect(made.status, made.body.msg).toBe(200);
  const issued = await h.call<{ stationCode: string; key: string; keyTime: string }>('POST', `${IPC}/issue-station-key`, { token: admin, body: { id: made.body.data.id } });
  expect(issued.status, issued.body.msg).toBe(200);
  expect(issued.body.data.stationCode).toBe(code);
  return { id: made.body.data.id, code, key: issued.body.data.key };
}

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, admin, { count: 4, tag: 'lk' });
  foreign = await makeFleet(h, admin, { count: 1, tag: 'lf' });
  // the fixture writes its devices as burned already: these wait for their station, certificates allocated
  await h.server.ctx.db.execute(sql`update ymy_cert set state = 2 where batch_id = ${fleet.batchId}::bigint`);
  await h.server.ctx.db.execute(sql`update ymy_factory_device set burn_time = null where batch_id = ${fleet.batchId}::bigint`);
  const [b] = await rows<{ factory_id: string }>(sql`select factory_id::text from ymy_batch where id = ${fleet.batchId}::bigint`);
  burnStation = await station(b!.factory_id, 'LK-BURN-1', 1);
  testStation = await station(b!.factory_id, 'LK-TEST-1', 2);
  await grantCodes(h.server, EMERGENCY_CODES, ['administrator']);
  await h.createUser('000000', 'lk-approver', 'Approver#2026', ['administrator']);
  approver = (await h.login('000000', 'lk-approver', 'Approver#2026')).access_token;
});

describe('a burn station takes a device\'s bundle', () => {
  it('with its station key: the certificate and the emergency secret, audited, the certificate then burned', async () => {
    const device = fleet.devices[0]!;
    const res = await burn(stationAuth(burnStation), device.sn.toLowerCase());
    expect(res.status, res.body.msg).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.data).toMatchObject({
      sn: device.sn, batchNo: fleet.batchNo, cloudVendor: 1, cloudProductId: fleet.cloudProductId, deviceName: device.deviceName,
      deviceSecret: device.psk, certificate: null, privateKey: null, emergencyScheme: 'EU1',
    });
    expect(res.body.data.emergencySecret).toMatch(/^[0-9a-f]{64}$/);

    const [audit] = await rows<{ station_id: string; batch_id: string; certificate_id: string; remote_ip: string }>(
      sql`select station_id::text, batch_id::text, certificate_id::text, remote_ip from ymy_burn_record where device_sn = ${device.sn}`);
    expect(audit).toMatchObject({ station_id: burnStation.id, batch_id: fleet.batchId });
    expect(audit!.remote_ip).toBeTruthy();
    const [made] = await rows<{ station_id: string; burned: boolean; state: number; id: string }>(sql`
      select d.station_id::text, d.burn_time is not null as burned, c.state, c.id::text from ymy_factory_device d join ymy_cert c on c.id = d.certificate_id where d.sn = ${device.sn}`);
    expect(made).toMatchObject({ station_id: burnStation.id, burned: true, state: 3, id: audit!.certificate_id });
    const [seen] = await rows<{ seen: boolean }>(sql`select last_seen_time is not null as seen from ymy_station where id = ${burnStation.id}::bigint`);
    expect(seen!.seen).toBe(true);
    // the batch's device list shows the station and the time
    const listed = await h.call<Page<Row>>('GET', `${IPC}/get-device-list`, { token: admin, query: { batchId: fleet.batchId, sn_equal: device.sn } });
    expect(listed.body.data.records[0]).toMatchObject({ sn: device.sn, stationId: burnStation.id });
    expect(listed.body.data.records[0]!.burnTime).toBeTruthy();

    // rework: the same secret again, audited again
    const again = await burn(stationAuth(burnStation), device.sn);
    expect(again.body.data.emergencySecret).toBe(res.body.data.emergencySecret);
    expect(await rows(sql`select 1 from ymy_burn_record where device_sn = ${device.sn}`)).toHaveLength(2);
    // another device, another secret
    const second = await burn(stationAuth(burnStation), fleet.devices[1]!.sn);
    expect(second.status, second.body.msg).toBe(200);
    expect(second.body.data.emergencySecret).not.toBe(res.body.data.emergencySecret);

    await h.server.ctx.logs.flush();
    const logged = await rows<{ title: string; params: string }>(sql`select title, params from blade_log_api where request_uri = ${BURN}`);
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(logged[0]!.title).toBe('工位领取烧录数据');
    for (const l of logged) expect(l.params).not.toContain(burnStation.key);
  });

  it('never without the right station key, nor for a test station', async () => {
    const sn = fleet.devices[2]!.sn;
    const none = await burn(undefined, sn, 'en');
    expect(none.status).toBe(401);
    expect(none.body.msg).toContain('No station credentials');
    for (const auth of [`Station ${burnStation.code}:${burnStation.key}x`, `Station NO-SUCH:${burnStation.key}`, `Station ${burnStation.code}`, 'Station', `Bearer ${admin}`, BASIC, `Station ${testStation.code}:${burnStation.key}`]) {
      const res = await burn(auth, sn, 'en');
      expect(res.status, auth).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain('emergencySecret');
    }
    expect((await burn(`Station ${burnStation.code}:${burnStation.key}x`, sn, 'en')).body.msg).toContain('Wrong station code or station key');
    // a console token is no station credential
    expect((await h.call('POST', BURN, { token: admin, body: { sn } })).status).toBe(401);
    const tested = await burn(stationAuth(testStation), sn, 'en');
    expect(tested.status).toBe(403);
    expect(tested.body.msg).toContain('not a burn station');
    expect(await rows(sql`select 1 from ymy_burn_record where device_sn = ${sn}`)).toHaveLength(0);
  });

  it('only for devices of its factory\'s batches with a live certificate, naming the SN', async () => {
    const other = await burn(stationAuth(burnStation), foreign.devices[0]!.sn, 'en');
    expect(other.status).toBe(400);
    expect(Object.keys(other.body.data)).toEqual(['sn']);
    expect(other.body.msg).toContain(`No device with the SN ${foreign.devices[0]!.sn} in the batches of the factory`);
    const unknown = await burn(stationAuth(burnStation), 'NOSUCH0001', 'en');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('No device with the SN NOSUCH0001');
    for (const bad of ['x', '', 'SN WITH SPACE', 'Ä1234', 'A'.repeat(33), 12345, null, ['A1234']]) {
      const res = await burn(stationAuth(burnStation), bad, 'en');
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(res.body.data ?? {}), JSON.stringify(bad)).toEqual(['sn']);
    }
    const noBody = await h.server.app.inject({ method: 'POST', url: BURN, headers: { authorization: stationAuth(burnStation) } });
    expect(noBody.statusCode).toBe(400);
    const junk = await h.server.app.inject({ method: 'POST', url: BURN, payload: '{"sn":', headers: { authorization: stationAuth(burnStation), 'content-type': 'application/json' } });
    expect(junk.statusCode).toBe(400);

    const sn = fleet.devices[2]!.sn;
    await h.server.ctx.db.execute(sql`update ymy_cert set state = 4 where device_sn = ${sn}`);
    const revoked = await burn(stationAuth(burnStation), sn, 'en');
    expect(revoked.status).toBe(400);
    expect(revoked.body.msg).toContain('revoked');
    await h.server.ctx.db.execute(sql`update ymy_factory_device set certificate_id = null where sn = ${sn}`);
    const noCert = await burn(stationAuth(burnStation), sn, 'en');
    expect(noCert.status).toBe(400);
    expect(noCert.body.msg).toContain(`allocate certificates to the batch ${fleet.batchNo} first`);
    await h.server.ctx.db.execute(sql`update ymy_batch set state = 4 where id = ${fleet.batchId}::bigint`);
    const cancelled = await burn(stationAuth(burnStation), fleet.devices[3]!.sn, 'en');
    await h.server.ctx.db.execute(sql`update ymy_batch set state = 2 where id = ${fleet.batchId}::bigint`);
    expect(cancelled.status).toBe(400);
    expect(cancelled.body.msg).toContain('cancelled');
    expect(await rows(sql`select 1 from ymy_burn_record where device_sn in (${sn}, ${fleet.devices[3]!.sn})`)).toHaveLength(0);
  });

  it('a key issued again revokes the one before; only the platform issues keys', async () => {
    const sn = fleet.devices[3]!.sn;
    const reissued = await h.call<{ key: string }>('POST', `${IPC}/issue-station-key`, { token: admin, body: { id: burnStation.id } });
    expect(reissued.status).toBe(200);
    expect((await burn(stationAuth(burnStation), sn)).status).toBe(401);
    burnStation = { ...burnStation, key: reissued.body.data.key };
    expect((await burn(stationAuth(burnStation), sn)).status).toBe(200);
    const [stored] = await rows<{ key_hash: string }>(sql`select key_hash from ymy_station where id = ${burnStation.id}::bigint`);
    expect(stored!.key_hash).toBe(createHash('sha256').update(burnStation.key).digest('hex'));
    const detail = await h.call<Row>('GET', `${IPC}/station-detail`, { token: admin, query: { id: burnStation.id } });
    expect(detail.body.data.keyTime).toBeTruthy();
    expect(JSON.stringify(detail.body)).not.toContain(stored!.key_hash);
    const tenant = (await h.login('541742', 'admin', 'admin')).access_token;
    expect((await h.call('POST', `${IPC}/issue-station-key`, { token: tenant, body: { id: burnStation.id } })).status).toBe(403);
    expect((await h.call('POST', `${IPC}/issue-station-key`, { token: admin, body: { id: '1' } })).status).toBe(404);
  });
});

describe('codes issued over HTTP', () => {
  it('open the lock with the secret its station burned, and no other lock', async () => {
    const [mine, other] = [fleet.devices[0]!, fleet.devices[1]!];
    const secretOf = async (sn: string) => Buffer.from((await burn(stationAuth(burnStation), sn)).body.data.emergencySecret, 'hex');
    const [lockSecret, otherSecret] = [await secretOf(mine.sn), await secretOf(other.sn)];
    const issue = async (body: Record<string, unknown>) => {
      const made = await h.call<Row>('POST', `${UNLOCK}/submit`, {
        token: admin, body: { deviceSn: mine.sn, applicant: '李四', phone: '13800138000', reason: '钥匙锁在屋内', ...body },
      });
      expect(made.status, made.body.msg).toBe(200);
      const ok = await h.call('POST', `${UNLOCK}/approve`, { token: approver, body: { id: made.body.data.id } });
      expect(ok.status, ok.body.msg).toBe(200);
      const codes = await h.call<Array<{ code: string; validFrom: string; validTo: string }>>('POST', `${CODE}/generate`, { token: admin, body: { id: made.body.data.id } });
      expect(codes.status, codes.body.msg).toBe(200);
      return codes.body.data;
    };
    // the console shows Beijing time (UTC+8)
    const at = (text: string) => Date.parse(`${text.replace(' ', 'T')}+08:00`);

    const timed = await issue({ codeKind: 3, codeCount: 2, validFrom: '2026-12-03 09:10:00' });
    expect(timed.map((c) => c.validFrom)).toEqual(['2026-12-03 09:00:00', '2026-12-03 11:00:00']);
    expect(lockCheck(lockSecret, timed[0]!.code, at('2026-12-03 10:59:00'))).toBe('accept');
    expect(lockCheck(lockSecret, timed[0]!.code, at('2026-12-03 11:05:00'))).toBe('expired');
    expect(lockCheck(lockSecret, timed[1]!.code, at('2026-12-03 10:00:00'))).toBe('not yet');
    expect(lockCheck(lockSecret, timed[1]!.code, at('2026-12-03 12:00:00'))).toBe('accept');
    expect(lockCheck(otherSecret, timed[0]!.code, at('2026-12-03 10:00:00'))).toBe('invalid');

    const [once] = await issue({ codeKind: 1, codeCount: 1, validFrom: '2026-12-04 08:00:00' });
    const memory: LockMemory = { used: new Map() };
    expect(lockCheck(lockSecret, once!.code, at('2026-12-04 20:00:00'), memory)).toBe('accept');
    expect(lockCheck(lockSecret, once!.code, at('2026-12-04 21:00:00'), memory)).toBe('used');
    expect(lockCheck(lockSecret, once!.code, at('2026-12-05 08:05:00'))).toBe('expired');
  });
});

describe('no console answer carries a lock\'s emergency secret', () => {
  it('neither the lists, details and trees of every resource, nor the device and certificate screens and exports', async () => {
    const forbidden: string[] = [];
    for (const d of fleet.devices) {
      const s = deviceUnlockSecret(h.server.ctx.config.encryptionKey, d.sn);
      forbidden.push(s.toString('hex'), s.toString('hex').toUpperCase(), s.toString('base64'), s.toString('base64url'));
    }
    forbidden.push(burnStation.key, createHash('sha256').update(burnStation.key).digest('hex'));
    const leaks = (body: string) => forbidden.filter((s) => body.includes(s)).map((s) => `${s.slice(0, 10)}…`);

    let scanned = 0;
    const scan = async (path: string, query: Record<string, string> = {}) => {
      const res = await h.call('GET', path, { token: admin, query });
      if (res.status !== 200) return res;
      scanned++;
      expect(leaks(res.raw.body), `${path} ${JSON.stringify(query)}`).toEqual([]);
      return res;
    };
    for (const { def } of areaResources()) {
      const list = await scan(crudPaths(def).list, { size: '50' });
      if (def.tree) {
        await scan(`${def.path}/tree`);
        await scan(`${def.path}/lazy-list`);
      }
      if (list.status !== 200) continue;
      const data = list.body.data as Page<Row> | Row[];
      for (const r of (Array.isArray(data) ? data : data.records).slice(0, 5)) await scan(crudPaths(def).detail, { id: String(r.id) });
    }
    for (const d of fleet.devices) {
      await scan(`${IPC}/get-device-list`, { batchId: fleet.batchId, sn_equal: d.sn });
      await scan(`${IPC}/get-cert-list`, { deviceSn_equal: d.sn });
      expect((await scan('/tc/omc-device/device/info', { deviceSn: d.sn })).status).toBe(200);
    }
    const certs = await scan(`${IPC}/get-cert-list`, { batchId_equal: fleet.batchId, size: '50' });
    for (const c of (certs.body.data as Page<Row>).records) await scan(`${IPC}/get-cert-detail`, { id: c.id });
    await scan(`${CODE}/list`, { size: '50' });
    await scan(`${UNLOCK}/list`, { size: '50' });
    expect(scanned).toBeGreaterThan(60);

    const file = await h.server.app.inject({ method: 'GET', url: `${IPC}/export-device-list`, query: { batchId: fleet.batchId }, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}` } });
    expect(file.statusCode).toBe(200);
    // the batch's devices are named after the batch
    const nameOf = (res: { headers: Record<string, unknown> }) => decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(String(res.headers['content-disposition']))![1]!);
    expect(nameOf(file)).toMatch(new RegExp(`^批次设备-${fleet.batchNo}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const en = await h.server.app.inject({ method: 'GET', url: `${IPC}/export-device-list`, query: { batchId: fleet.batchId }, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}`, 'accept-language': 'en' } });
    expect(nameOf(en)).toMatch(new RegExp(`^Batch devices-${fleet.batchNo}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.worksheets[0]!.eachRow((row) => cells.push(JSON.stringify(row.values)));
    expect(cells.length).toBe(fleet.devices.length + 1);
    expect(leaks(cells.join('\n'))).toEqual([]);
  });
});
