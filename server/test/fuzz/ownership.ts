/**
 * The fuzz run's "shared product type" fixture (issue 23): one product type authorised to the fuzzed tenant and to
 * a stranger tenant, a device delivered to each and one to nobody, each with the records of a device in the field
 * (state, certificate, OTA and face logs, a factory test). No answer to the fuzzed tenant may name a device that is
 * not its own: the oracle looks for the foreign SNs in every successful answer. The foreign devices are inside the
 * batch's SN range, never its ends: a batch (catalogue data of an authorised type) shows its first and last SN.
 */
import { sql } from 'drizzle-orm';
import { nextId } from '../../src/core/ids.js';
import { deliverFleet, makeFleet } from '../device-fixture.js';
import type { Harness } from '../harness.js';

/** the screens a tenant reaches devices through: granted to the fuzzed tenant's administrators */
export const DEVICE_CODES = [
  'device', 'device_info', 'device_control', 'device_control_add', 'device_control_import', 'device_control_sync', 'ota_progress', 'ota_log', 'face_log',
  'emergency_unlock', 'emergency_unlock_add', 'emergency_unlock_edit', 'emergency_approve', 'emergency_generate', 'emergency_code',
  'production', 'batch', 'batch_export', 'cert', 'cit',
];

export interface ForeignDevices {
  /** the fuzzed tenant's device */
  own: string;
  /** the stranger's device and the undelivered one */
  foreign: string[];
}

export async function plantSharedProductType(h: Harness, platformToken: string, tenantId: string): Promise<ForeignDevices> {
  const fleet = await makeFleet(h, platformToken, { count: 5, tag: 'fzown', version: '1.0.0' });
  const stranger = await h.call<{ tenantId: string }>('POST', '/api/blade-system/tenant/submit', { token: platformToken, body: { tenantName: '模糊测试第三租户', linkman: '赵六', accountNumber: -1 } });
  if (stranger.status !== 200) throw new Error(`fuzz fixture: stranger tenant ${stranger.status} ${stranger.body.msg}`);
  const db = h.server.ctx.db;
  for (const tenant of [tenantId, stranger.body.data.tenantId]) {
    await db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${nextId()}::bigint, ${tenant}, ${fleet.typeId}::bigint)`);
  }
  // deliveries take devices in SN order: the first is the tenant's, the second the stranger's, the others nobody's
  await deliverFleet(h, platformToken, fleet, tenantId, 1);
  await deliverFleet(h, platformToken, fleet, stranger.body.data.tenantId, 1);
  const [own, theirs, nobodys] = fleet.devices.map((d) => d.sn) as [string, string, string, string, string];
  for (const sn of [own, theirs, nobodys]) {
    await db.execute(sql`insert into ymy_face_log (id, device_sn, product_id, event, event_time) values (${nextId()}::bigint, ${sn}, ${fleet.productId}::bigint, 'match', now())`);
    await db.execute(sql`insert into ymy_ota_log (id, device_sn, product_id, state, report_time) values (${nextId()}::bigint, ${sn}, ${fleet.productId}::bigint, 'downloading', now())`);
    await db.execute(sql`insert into ymy_cit (id, device_sn, batch_id, result, items, test_time) values (${nextId()}::bigint, ${sn}, ${fleet.batchId}::bigint, 1, '{}'::jsonb, now())`);
  }
  return { own, foreign: [theirs, nobodys] };
}

/** The foreign SNs an answer names (none is the fixture's rule for every answer to the fuzzed tenant). */
export function foreignIn(body: string, devices: ForeignDevices): string[] {
  return devices.foreign.filter((sn) => body.includes(sn));
}
