import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, type Fleet as SimFleet, type FleetSession, type LocationReport } from '../src/areas/device/gateway/fleet.js';
import { GATEWAY } from '../src/areas/device/index.js';
import { deliverFleet, type Fleet, makeFleet } from './device-fixture.js';
import { until } from './gateway-fixture.js';
import { useServer } from './harness.js';

/**
 * Cross-region warnings from real activations (issue 27): simulated locks connect over MQTT (the embedded broker and
 * the machine's Mosquitto) and report where they are (docs/device-protocol.md §6, `regionCode`); a lock dispatched
 * to Zhejiang seen in Shenzhen gets exactly one warning of the tenant that owns it, however often it says so; one
 * seen inside its region, above it, or without a device area gets none.
 */

type Warn = { deviceSn: string; dispatchedCode: string; activatedCode: string; activatedName: string; location: string; activationTime: string };
const RUN = randomBytes(3).toString('hex');
const BROKERS: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'the embedded broker', env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TOPIC_ROOT: `ra${RUN}` } },
  { name: 'Mosquitto (MQTT_URL)', env: { MQTT_URL: process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883', MQTT_TOPIC_ROOT: `rb${RUN}` } },
];

const SHENZHEN: LocationReport = { lat: 22.5329, lng: 113.9305, accuracy: 15, regionCode: '440305', address: '广东省深圳市南山区' };
const HANGZHOU: LocationReport = { lat: 30.2592, lng: 120.1300, accuracy: 20, regionCode: '330106' };

describe.each(BROKERS)('activations on $name', ({ env }) => {
  const h = useServer({ ...env, DEVICE_SIMULATOR: 'true' });
  let platform: string;
  let demo: string;
  let fleet: Fleet;
  let sim: SimFleet;

  const sn = (i: number) => fleet.devices[i]!.sn;
  const warnings = async () =>
    (await h.call<{ records: Warn[]; total: number }>('GET', '/api/omc-log/device-area-warn/list', { token: demo, query: { size: '50' } })).body.data;
  const flush = () => h.server.ctx.services.get(GATEWAY).flush();

  beforeAll(async () => {
    platform = (await h.login('000000', 'admin', 'admin')).access_token;
    fleet = await makeFleet(h, platform, { count: 4, tag: `a${RUN}` });
    await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${String(Date.now())}::bigint, '541742', ${fleet.typeId}::bigint)`);
    await deliverFleet(h, platform, fleet, '541742');
    demo = (await h.login('541742', 'admin', 'admin')).access_token;
    const agent = await h.call<{ id: string }>('POST', '/api/omc-device/area-agent/submit', { token: demo, body: { agentName: '浙江代理', regionCodes: '330000' } });
    // the first three are dispatched to Zhejiang (the fourth has no device area), the third to Hangzhou's Xihu district
    for (const [i, code] of [[0, '330000'], [1, '330000'], [2, '330000,330100,330106']] as const) {
      const res = await h.call('POST', '/api/omc-device/area-dispatch/update', { token: demo, body: { code, agentId: agent.body.data.id, deviceSn: sn(i) } });
      expect(res.status, res.body.msg).toBe(200);
    }
    const sessions = await h.call<{ sessions: FleetSession[] }>('POST', '/api/omc-device/simulator/sessions', { token: platform, body: { sns: fleet.devices.map((d) => d.sn).join(',') } });
    expect(sessions.status, sessions.body.msg).toBe(200);
    // each reports where it is once connected, as a lock does when it is activated
    const places: Record<string, LocationReport> = { [sn(0)]: SHENZHEN, [sn(1)]: HANGZHOU, [sn(2)]: { ...HANGZHOU, regionCode: '330100' }, [sn(3)]: SHENZHEN };
    sim = createFleet({ sessions: sessions.body.data.sessions, connectSpreadMs: 0, random: () => 0.5, location: (s) => places[s] });
    await sim.start();
    expect(sim.counters.connected).toBe(4);
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('warns the owner tenant once of a lock activated outside its region, and of no other', async () => {
    await until(async () => {
      await flush();
      return (await warnings()).total > 0;
    }, 10_000, 'a warning');
    await flush();
    const { records } = await warnings();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      deviceSn: sn(0), dispatchedCode: '330000', activatedCode: '440000,440300,440305', activatedName: '广东省 / 深圳市 / 南山区',
    });
    expect(records[0]!.location).toContain('广东省深圳市南山区');
    // the platform's list does not show the tenant's warning
    const platformList = await h.call<{ total: number }>('GET', '/api/omc-log/device-area-warn/list', { token: platform });
    expect(platformList.body.data.total).toBe(0);
  });

  it('keeps one warning per lock and region, and adds one for a new region', async () => {
    expect(sim.locate(sn(0), SHENZHEN)).toBe(true);
    expect(sim.locate(sn(0), { ...SHENZHEN, lat: 22.54 })).toBe(true);
    // a region the tree lacks, or a report without one, is not compared
    expect(sim.locate(sn(1), { lat: 39.9, lng: 116.4 })).toBe(true);
    expect(sim.locate(sn(1), { lat: 39.9, lng: 116.4, regionCode: '999999' })).toBe(true);
    expect(sim.locate(sn(2), { lat: 39.9, lng: 116.4, regionCode: '110101' })).toBe(true);
    await until(async () => {
      await flush();
      return (await warnings()).total === 2;
    }, 10_000, 'the second warning');
    await flush();
    const { records } = await warnings();
    expect(records.map((r) => [r.deviceSn, r.activatedCode]).sort()).toEqual([[sn(0), '440000,440300,440305'], [sn(2), '110000,110100,110101']].sort());
  });
});
