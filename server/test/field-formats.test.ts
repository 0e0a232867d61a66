import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

/**
 * Field formats (issue 26): a phone, a mobile or an email field is checked by the rule of its format wherever it
 * is written (factory, emergency request, tenant, user), with one message naming the field, in the caller's language.
 */

type Row = Record<string, unknown> & { id: string };
const SYS = '/api/blade-system';
const IPC = '/sc/ymy-ipc/back';
const UNLOCK = '/api/omc-device/emergency-unlock';

const h = useServer();
let admin: string;
let deptId: string;
let roleId: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  deptId = (await h.call<Row[]>('GET', `${SYS}/dept/list`, { token: admin })).body.data[0]!.id;
  roleId = (await h.call<Row[]>('GET', `${SYS}/role/list`, { token: admin })).body.data[0]!.id;
});

const user = (account: string, over: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') =>
  h.call<Row>('POST', `${SYS}/user/submit`, { token: admin, body: { account, name: account, realName: account, deptId, roleId, ...over }, lang });

describe('a phone field', () => {
  it('refuses "abc" in the factory, the emergency request and the user alike, naming the field', async () => {
    const factory = await h.call('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: '格式工厂', factoryCode: 'FMT1', phone: 'abc' }, lang: 'en' });
    expect(factory.status).toBe(400);
    expect(factory.body.data).toMatchObject({ phone: 'Phone must be a mobile number, a landline with its area code (such as 0755-12345678) or a 400 number' });

    const unlock = await h.call('POST', `${UNLOCK}/submit`, {
      token: admin, body: { deviceSn: 'NOPE0001', applicant: '张三', phone: 'abc', reason: '钥匙丢失', codeKind: 2, validFrom: '2026-11-28 10:00:00', codeCount: 1 },
    });
    expect(unlock.status).toBe(400);
    expect(unlock.body.data).toMatchObject({ phone: '联系电话须是手机号码、带区号的固定电话 (如 0755-12345678) 或 400 电话' });

    const person = await user('fmt-abc', { phone: 'abc' }, 'en');
    expect(person.status).toBe(400);
    expect(person.body.data).toMatchObject({ phone: 'Phone must be a mobile number of 11 digits starting with 1' });
    const tenant = await h.call('POST', `${SYS}/tenant/submit`, { token: admin, body: { tenantName: '格式租户', linkman: '王五', contactNumber: 'abc' } });
    expect(tenant.status).toBe(400);
    expect(tenant.body.data).toHaveProperty('contactNumber');
    // nothing was written
    expect((await h.call<{ total: number }>('GET', `${SYS}/user/list`, { token: admin, query: { account: 'fmt-abc' } })).body.data.total).toBe(0);
  });

  it('takes a mobile, a landline with its area code and a 400 number where a phone is asked; a mobile only where a mobile is', async () => {
    for (const [i, phone] of ['13800138000', '0755-12345678', '400-800-1234'].entries()) {
      const made = await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: `格式工厂${i}`, factoryCode: `FMTOK${i}`, phone } });
      expect(made.status, made.body.msg).toBe(200);
    }
    expect((await user('fmt-mobile', { phone: '13800138000' })).status).toBe(200);
    const landline = await user('fmt-landline', { phone: '0755-12345678' });
    expect(landline.status).toBe(400);
    expect(landline.body.data).toMatchObject({ phone: '手机号码须是 11 位手机号码 (1 开头)' });
    // an empty optional phone is no phone
    expect((await user('fmt-nophone', { phone: '' })).status).toBe(200);
  });
});

describe('an email field', () => {
  it('refuses what is not an address and takes one', async () => {
    const bad = await user('fmt-mail', { email: 'not-an-address' }, 'en');
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatchObject({ email: 'Email is not a valid email address' });
    expect((await user('fmt-mail', { email: 'zhang.san@example.com' })).status).toBe(200);
  });
});
