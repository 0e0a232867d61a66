import { beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, makeFleet } from './device-fixture.js';
import { useServer } from './harness.js';
import { grantCodes } from './io-resource.js';

/** Device notices per product and the device lookup (issue 11). */

type Row = Record<string, unknown> & { id: string };
const TC = '/tc/omc-device';

const h = useServer();
let admin: string;
let tenantAdmin: string;
let fleet: Fleet;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  fleet = await makeFleet(h, admin, { count: 1, tag: 'dn', version: '1.2.3' });
});

describe('device notices', () => {
  it('answers the notice types, gives every product a row of each on sync, and saves a product\'s choices', async () => {
    const types = await h.call<Array<{ dictKey: string; dictValue: string }>>('GET', `${TC}/device/notice/dict`, { token: admin, lang: 'en' });
    expect(types.body.data.map((t) => t.dictKey)).toEqual(['low_battery', 'tamper', 'doorbell', 'unlock_record', 'door_open_too_long', 'duress', 'wrong_attempts']);
    expect(types.body.data[0]!.dictValue).toBe('Low battery');
    const synced = await h.call<Array<{ dictKey: string; added: number }>>('GET', `${TC}/device/notice/dict`, { token: admin, query: { sync: 1 } });
    expect(synced.body.data.every((t) => t.added >= 1)).toBe(true);
    const again = await h.call<Array<{ added: number }>>('GET', `${TC}/device/notice/dict`, { token: admin, query: { sync: 'true' } });
    expect(again.body.data.every((t) => t.added === 0)).toBe(true);

    const saved = await h.call('POST', `${TC}/device/notice/config/save`, {
      token: admin, body: { productId: fleet.productId, items: [{ noticeType: 'tamper', enabled: true, channels: ['push', 'sms', 'push'], template: '{device} 检测到撬锁' }, { noticeType: 'doorbell', enabled: 0, channels: '' }] },
    });
    expect(saved.status, saved.body.msg).toBe(200);
    const rows = await h.call<{ records: Row[] }>('GET', `${TC}/device/notice/config/list`, { token: admin, query: { productId_equal: fleet.productId, size: 50 } });
    const tamper = rows.body.data.records.find((r) => r.noticeType === 'tamper');
    expect(tamper).toMatchObject({ enabled: 1, channels: 'push,sms', template: '{device} 检测到撬锁', noticeTypeName: '防撬报警' });
    expect(rows.body.data.records).toHaveLength(7);
    const products = await h.call<Array<{ id: string; noticeCount: number }>>('GET', `${TC}/product/list`, { token: admin });
    expect(products.body.data.find((p) => p.id === fleet.productId)?.noticeCount).toBe(1);
  });

  it('refuses an unknown notice type or channel, and a product that does not exist; tenants may not save', async () => {
    const save = (items: unknown[], productId = fleet.productId, token = admin) => h.call('POST', `${TC}/device/notice/config/save`, { token, body: { productId, items } });
    expect((await save([{ noticeType: 'fire', enabled: 1, channels: 'push' }])).status).toBe(400);
    expect((await save([{ noticeType: 'tamper', enabled: 1, channels: 'pigeon' }])).status).toBe(400);
    expect((await save([])).status).toBe(400);
    // an enabled notice without a channel reaches no one: refused naming the notice, and nothing of the save is kept
    const silent = await h.call('POST', `${TC}/device/notice/config/save`, {
      token: admin, lang: 'en', body: { productId: fleet.productId, items: [{ noticeType: 'doorbell', enabled: 1, channels: 'push', template: 'kept?' }, { noticeType: 'low_battery', enabled: 1, channels: [] }] },
    });
    expect(silent.status).toBe(400);
    expect(silent.body.msg).toBe('The notice "Low battery" is enabled: choose at least one channel');
    const zh = await save([{ noticeType: 'low_battery', enabled: true, channels: ' , ' }]);
    expect((zh.body as { msg: string }).msg).toBe('通知「低电量」已启用, 请至少选择一个通知渠道');
    const after = await h.call<{ records: Row[] }>('GET', `${TC}/device/notice/config/list`, { token: admin, query: { productId_equal: fleet.productId, size: 50 } });
    expect(after.body.data.records.find((r) => r.noticeType === 'doorbell')).toMatchObject({ enabled: 0 });
    // off without a channel is fine
    expect((await save([{ noticeType: 'low_battery', enabled: 0, channels: '' }])).status).toBe(200);
    expect((await save([{ noticeType: 'tamper', enabled: 1, channels: 'push' }], '1')).status).toBe(404);
    await grantCodes(h.server, ['device_notice', 'device_notice_sync', 'device_info'], ['admin']);
    expect((await save([{ noticeType: 'tamper', enabled: 1, channels: 'push' }], fleet.productId, tenantAdmin)).status).toBe(403);
    expect((await h.call('GET', `${TC}/device/notice/dict`, { token: tenantAdmin, query: { sync: 1 } })).status).toBe(403);
  });
});

describe('device lookup', () => {
  it('answers a device from production to the field, in any case of its SN; unknown and unseen devices are 404', async () => {
    const sn = fleet.devices[0]!.sn;
    const info = await h.call<Row>('GET', `${TC}/device/info`, { token: admin, query: { deviceSn: ` ${sn.toLowerCase()} ` } });
    expect(info.status, info.body.msg).toBe(200);
    expect(info.body.data).toMatchObject({
      sn, productId: fleet.productId, batchNo: fleet.batchNo, deviceName: sn, cloudVendorName: '腾讯云 IoT Explorer', online: 0, versions: { mcu: '1.2.3' }, lastOta: null, controls: [],
    });
    expect(info.body.data.burnTime).toBeTruthy();
    const missing = await h.call('GET', `${TC}/device/info`, { token: admin, query: { deviceSn: 'NOSUCHDEVICE' }, lang: 'en' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toContain('NOSUCHDEVICE');
    expect((await h.call('GET', `${TC}/device/info`, { token: admin })).status).toBe(400);
    expect((await h.call('GET', `${TC}/device/info`, { token: tenantAdmin, query: { deviceSn: sn } })).status).toBe(404);
    const list = await h.call<{ records: Row[] }>('GET', `${TC}/device/list`, { token: admin, query: { sn: sn.slice(-3), firmwareVersion_equal: '1.2.3' } });
    expect(list.body.data.records.map((r) => r.sn)).toEqual([sn]);
  });
});
