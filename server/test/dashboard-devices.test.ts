import { DASHBOARD_DEVICES_PATH, type DashboardDevices } from '@console/contract/areas/desk/index';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { deviceStatus, emergencyUnlock, otaProgress } from '../src/areas/device/tables.js';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/** The dashboard's device figures (issue 26): scoped like their screens, each only with its screen's permission. */

const h = useServer();
let admin: string;
let tenantAdmin: string;
let fleet: Fleet;

async function userWith(alias: string, codes: string[]): Promise<string> {
  await h.call('POST', '/api/blade-system/role/submit', { token: admin, body: { roleName: alias, roleAlias: alias, sort: 9 } });
  await grantCodes(h.server, codes, [alias]);
  await h.createUser('000000', alias, 'pw', [alias]);
  return (await h.login('000000', alias, 'pw')).access_token;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  await grantCodes(h.server, ['device_info', 'ota_progress', 'emergency_unlock'], ['admin']);
  fleet = await makeFleet(h, admin, { count: 3, tag: 'dash' });
  // the first two locks go to tenant 541742; the third stays the vendor's
  await deliverFleet(h, admin, fleet, '541742', 2);
  const [a, b, c] = fleet.devices.map((d) => d.sn) as [string, string, string];
  const db = h.server.ctx.db;
  await db.insert(deviceStatus).values([[a, 1], [b, 0], [c, 1]].map(([sn, online]) => ({ id: nextId(), sn: String(sn), productId: fleet.productId, online: Number(online) })));
  const task = nextId();
  const progress = (sn: string, state: string, when: Date) => ({ id: nextId(), taskId: task, deviceSn: sn, productId: fleet.productId, state, lastReportTime: when });
  await db.insert(otaProgress).values([
    progress(a, 'succeeded', daysAgo(1)), progress(b, 'timed_out', daysAgo(2)), progress(c, 'succeeded', daysAgo(3)),
    // still running, cancelled, or older than the window: not counted
    { ...progress(c, 'downloading', daysAgo(0)), taskId: nextId() }, { ...progress(a, 'cancelled', daysAgo(1)), taskId: nextId() },
    { ...progress(c, 'failed', daysAgo(40)), taskId: nextId() },
  ]);
  const request = (tenantId: string, state: string) => ({
    id: nextId(), tenantId, deviceSn: a, applicant: '张三', phone: '13800138000', reason: '钥匙丢失', codeKind: 3, validFrom: new Date(), state,
  });
  await inTenant(db, { tenantId: '541742' }, (tx) => tx.insert(emergencyUnlock).values([request('541742', 'pending'), request('541742', 'pending'), request('541742', 'approved')]));
  await inTenant(db, { tenantId: '000000' }, (tx) => tx.insert(emergencyUnlock).values([request('000000', 'pending')]));
});

const figures = (token: string) => h.call<DashboardDevices>('GET', DASHBOARD_DEVICES_PATH, { token });

describe('dashboard device figures', () => {
  it('answers the platform every lock, the recent upgrades\' success rate and its own pending requests', async () => {
    const res = await figures(admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      locks: { online: 2, total: 3 },
      ota: { days: 30, succeeded: 2, failed: 1, rate: 2 / 3 },
      emergency: { pending: 1 },
    });
  });

  it('answers a tenant the figures of the locks it owns and its own requests only', async () => {
    const res = await figures(tenantAdmin);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      locks: { online: 1, total: 2 },
      ota: { days: 30, succeeded: 1, failed: 1, rate: 0.5 },
      emergency: { pending: 2 },
    });
  });

  it('answers only the figures whose screen the caller may open, and refuses a caller with none', async () => {
    const locksOnly = await userWith('dash-locks', ['device', 'device_info']);
    const res = await figures(locksOnly);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ locks: { online: 2, total: 3 } });

    const none = await userWith('dash-none', ['desk']);
    const refused = await figures(none);
    expect(refused.status).toBe(403);
    expect((await h.call('GET', DASHBOARD_DEVICES_PATH, {})).status).toBe(401);
  });

  it('refuses unknown parameters', async () => {
    const res = await h.call('GET', DASHBOARD_DEVICES_PATH, { token: admin, query: { tenantId: '541742' } });
    expect(res.status).toBe(400);
  });
});
